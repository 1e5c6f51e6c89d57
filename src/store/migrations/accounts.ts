import type { Migration } from "../migrations.ts";

/** Migrations of account fields, aliases, staking (accounts issue): keys 0040-… to 0049-…. */
export const ACCOUNTS_MIGRATIONS: readonly Migration[] = [];

import type { Migration } from "../migrations.ts";

/** Migrations of allowances, airdrops, staking reward payouts (accounts issue): keys 0050-… to 0059-…. */
export const ACCOUNT_RELATIONS_MIGRATIONS: readonly Migration[] = [];

import type { Migration } from "../migrations.ts";

/** Migrations of the transaction index (transactions issue): keys 0020-… to 0029-…. */
export const TRANSACTIONS_MIGRATIONS: readonly Migration[] = [];

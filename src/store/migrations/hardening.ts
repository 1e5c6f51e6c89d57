import type { Migration } from "../migrations.ts";

/** Migrations of robustness fixes: keys 0070-… to 0079-…. */
export const HARDENING_MIGRATIONS: readonly Migration[] = [];

import type { Migration } from "../migrations.ts";

/** Migrations of indexes and bounded plans of the read path: keys 0080-… to 0089-…. */
export const READ_PATH_MIGRATIONS: readonly Migration[] = [];

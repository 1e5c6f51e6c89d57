import type { Migration } from "../migrations.ts";

/** Migrations of block-stream ingestion: keys 0060-… to 0069-…. */
export const BLOCK_STREAMS_MIGRATIONS: readonly Migration[] = [];

import type { Migration } from "../migrations.ts";

/** Migrations of block-stream ingestion: keys 0060-… to 0069-…. */
export const BLOCK_STREAMS_MIGRATIONS: readonly Migration[] = [
  [
    "0060-block-proof",
    `-- The proof of each block read from a block stream. The TSS signature cannot be verified in Node today: every
    -- block is recorded with verified = 0 until it can.
    CREATE TABLE block_proof (
      number   INTEGER PRIMARY KEY,
      kind     TEXT    NOT NULL, -- 'tss' (TssSignedBlockProof), 'other', 'none'
      verified INTEGER NOT NULL
    );`,
  ],
];

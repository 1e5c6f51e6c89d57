import type { Migration } from "../migrations.ts";

/** Migrations of the long-running fixes (issue 25): keys 0140-… to 0149-…. */
export const ROBUST_MIGRATIONS: readonly Migration[] = [
  [
    "0140-block-names-19-digits",
    `
    -- Blocks indexed before were named by their number in 36 digits with their file's suffix; the mirror node
    -- (BlockFile.getFilename, 0.154) names them in 19 digits, .blk.zstd when compressed, .blk when not.
    -- Version 7 is a block stream block; record files keep their names.
    UPDATE record_file
       SET name = printf('%019d', number) || CASE WHEN name LIKE '%.blk' THEN '.blk' ELSE '.blk.zstd' END
     WHERE version = 7;
    UPDATE ingest_cursor
       SET file_name = printf('%019d', block_number)
                       || CASE WHEN file_name LIKE '%.blk' THEN '.blk' ELSE '.blk.zstd' END
     WHERE version = 7;
    `,
  ],
];

/**
 * Block file names: the number a listed path spells in either layout, and the name a block is indexed under,
 * which is how the mirror node's importer names a block file (`BlockFile.getFilename`: the number in 36 digits),
 * whichever folder layout it came from.
 */
import { describe, expect, it } from "vitest";
import { blockDisplayName, blockNumberOf } from "../../src/ingest/block-files.ts";

describe("block file names", () => {
  it("read the number of a node's flat name and of a bucket's nested path alike", () => {
    expect(blockNumberOf(`${"7".padStart(36, "0")}.blk.zstd`)).toBe(7n);
    expect(blockNumberOf("0000/0000/0000/0000/007.blk.zstd")).toBe(7n);
    expect(blockNumberOf("0000/0000/0010/8273/182.blk.gz")).toBe(108273182n);
    expect(blockNumberOf("12.blk")).toBe(12n);
  });

  it("name every block by its number in 36 digits with its file's suffix", () => {
    const seven = `${"7".padStart(36, "0")}`;
    expect(blockDisplayName(`${seven}.blk.zstd`, 7n)).toBe(`${seven}.blk.zstd`);
    expect(blockDisplayName("0000/0000/0000/0000/007.blk.zstd", 7n)).toBe(`${seven}.blk.zstd`);
    expect(blockDisplayName("0000/0000/0010/8273/182.blk.gz", 108273182n)).toBe(
      `${"108273182".padStart(36, "0")}.blk.gz`,
    );
    expect(blockDisplayName("9223372036854775807.blk", 9223372036854775807n)).toBe(
      `${"9223372036854775807".padStart(36, "0")}.blk`,
    );
  });
});

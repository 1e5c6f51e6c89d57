/**
 * Block file names: the number a listed path spells in either layout, and the name a block is indexed under,
 * which is how the mirror node's importer names a block file (`BlockFile.getFilename`: the number in 36 digits),
 * whichever folder layout it came from.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blockDisplayName, blockNumberOf, newestBlock } from "../../src/ingest/block-files.ts";
import { tempDir } from "../helpers/service.ts";

describe("block file names", () => {
  it("read the number of a node's flat name and of a bucket's nested path alike", () => {
    expect(blockNumberOf(`${"7".padStart(36, "0")}.blk.zstd`)).toBe(7n);
    expect(blockNumberOf("0000/0000/0000/0000/007.blk.zstd")).toBe(7n);
    expect(blockNumberOf("0000/0000/0010/8273/182.blk.gz")).toBe(108273182n);
    expect(blockNumberOf("12.blk")).toBe(12n);
  });

  it("name every block by its number in 19 digits, .blk.zstd when compressed and .blk when not (BlockFile.getFilename)", () => {
    const seven = "0000000000000000007";
    expect(blockDisplayName(`${"7".padStart(36, "0")}.blk.zstd`, 7n)).toBe(`${seven}.blk.zstd`);
    expect(blockDisplayName("0000/0000/0000/0000/007.blk.zstd", 7n)).toBe(`${seven}.blk.zstd`);
    expect(blockDisplayName(`${"7".padStart(36, "0")}.blk.gz`, 7n)).toBe(`${seven}.blk.zstd`);
    expect(blockDisplayName("0000/0000/0010/8273/182.blk.gz", 108273182n)).toBe(
      "0000000000108273182.blk.zstd",
    );
    expect(blockDisplayName(`${"7".padStart(36, "0")}.blk`, 7n)).toBe(`${seven}.blk`);
    expect(blockDisplayName("9223372036854775807.blk", 9223372036854775807n)).toBe("9223372036854775807.blk");
  });

  it("find the newest block of a flat folder and of a bucket, past an empty newest folder", () => {
    const temp = tempDir();
    try {
      const flat = join(temp.dir, "flat");
      mkdirSync(flat);
      for (const n of [7, 12, 9]) writeFileSync(join(flat, `${String(n).padStart(36, "0")}.blk.zstd`), "");
      writeFileSync(join(flat, `${"99".padStart(36, "0")}.mf`), "");
      expect(newestBlock(flat)).toEqual({ path: `${"12".padStart(36, "0")}.blk.zstd`, number: 12n });
      const bucket = join(temp.dir, "bucket");
      for (const [folder, file] of [
        ["0000/0000/0000/0000", "007.blk.zstd"],
        ["0000/0000/0000/0001", "002.blk.zstd"],
        ["0000/0000/0000/0001", "001.blk.zstd"],
      ] as const) {
        mkdirSync(join(bucket, folder), { recursive: true });
        writeFileSync(join(bucket, folder, file), "");
      }
      mkdirSync(join(bucket, "0000/0000/0000/0002"), { recursive: true });
      expect(newestBlock(bucket)).toEqual({ path: "0000/0000/0000/0001/002.blk.zstd", number: 1002n });
      expect(newestBlock(join(temp.dir, "missing"))).toBeNull();
    } finally {
      temp.remove();
    }
  });
});

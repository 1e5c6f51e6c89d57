/**
 * zstd content checksums: XXH64 against its published digests, and frames made by the reference `zstd` command
 * (fixtures/zstd, checksums included) decoded and verified, one frame or several per file; a frame whose content
 * or checksum was altered refused with a reason naming the checksum.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { zstdRawFrame } from "../../fixtures/writer/write-zstd-raw.ts";
import { decompressBlock } from "../../src/streams/block-decompress.ts";
import { xxhash64 } from "../../src/streams/xxhash64.ts";

const FRAMES = join(import.meta.dirname, "../../fixtures/zstd");
const pattern = (n: number) => Uint8Array.from({ length: n }, (_, i) => (7 * i + (i >>> 8)) & 0xff);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const digest = (data: Uint8Array) =>
  xxhash64(data)
    .map((half) => half.toString(16).padStart(8, "0"))
    .join("");

describe("zstd content checksums", () => {
  it("hash as XXH64 does", () => {
    expect(digest(new Uint8Array())).toBe("ef46db3751d8e999");
    expect(digest(new TextEncoder().encode("abc"))).toBe("44bc2cf5ad770999");
  });

  it("verify frames the zstd command wrote", () => {
    for (const n of [0, 33, 1000, 300_000]) {
      const file = readFileSync(join(FRAMES, `pattern-${n}.zst`));
      expect(file[4]! & 0x04, `pattern-${n} declares a checksum`).toBe(0x04);
      expect(xxhash64(pattern(n))[1]).toBe(file.readUInt32LE(file.length - 4));
      expect(hex(decompressBlock(`pattern-${n}.blk.zstd`, file))).toBe(hex(pattern(n)));
    }
    const both = readFileSync(join(FRAMES, "pattern-33-then-1000.zst"));
    const expected = new Uint8Array([...pattern(33), ...pattern(1000)]);
    expect(hex(decompressBlock("both.blk.zstd", both))).toBe(hex(expected));
  });

  it("refuse a frame whose content or checksum was altered", () => {
    const content = pattern(5000);
    const frame = zstdRawFrame(content, { checksum: true });
    expect(hex(decompressBlock("ok.blk.zstd", frame))).toBe(hex(content));
    const flipped = Uint8Array.from(frame);
    flipped[2000] = flipped[2000]! ^ 0x01; // a stored byte of the content
    expect(() => decompressBlock("flipped.blk.zstd", flipped)).toThrow(
      /flipped\.blk\.zstd: bad zstd: the content of frame 1 hashes to 0x[0-9a-f]{8} but its checksum is 0x[0-9a-f]{8}/,
    );
    const wrongSum = Uint8Array.from(frame);
    wrongSum[wrongSum.length - 1] = wrongSum[wrongSum.length - 1]! ^ 0x80;
    expect(() => decompressBlock("sum.blk.zstd", wrongSum)).toThrow(/checksum/);
    // Without a declared checksum the same flip goes unseen here (the block root catches it later).
    const unchecked = zstdRawFrame(content);
    unchecked[2000] = unchecked[2000]! ^ 0x01;
    expect(decompressBlock("unchecked.blk.zstd", unchecked)).toHaveLength(5000);
  });

  it("refuse a file that is not whole frames", () => {
    const file = readFileSync(join(FRAMES, "pattern-1000.zst"));
    expect(() => decompressBlock("cut.blk.zstd", file.subarray(0, file.length - 10))).toThrow(/bad zstd/);
    expect(() => decompressBlock("tail.blk.zstd", Buffer.concat([file, Buffer.from([1, 2])]))).toThrow(
      /2 stray bytes after the last frame/,
    );
  });
});

import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CorruptFileError } from "../../src/errors.ts";
import { toHex } from "../../src/streams/hex.ts";
import { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { realRecordFiles } from "./record-fixtures.ts";

const V6 = realRecordFiles("v6/record0.0.3");
const V5 = realRecordFiles("v5/record0.0.3");
const V5_CONTRACTS = realRecordFiles("v5-contracts/record0.0.3");
const V2 = realRecordFiles("v2/record0.0.3");

function corruptErrorOf(name: string, bytes: Uint8Array): CorruptFileError {
  try {
    readRecordFile(name, bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(CorruptFileError);
    return error as CorruptFileError;
  }
  throw new Error(`${name} was read without error`);
}

function flipped(bytes: Uint8Array, index: number, mask = 0x01): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[index]! ^= mask;
  return copy;
}

function withVersion(bytes: Uint8Array, version: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  new DataView(copy.buffer).setInt32(0, version);
  return copy;
}

describe("readRecordFile refuses damaged .rcd.gz (v6) files", () => {
  for (const real of V6) {
    it(`refuses every flipped byte in the compressed body of ${real.name}`, () => {
      const original = toHex(readRecordFile(real.name, real.bytes).fileHash);
      // The body starts after the 10-byte header and the zero-terminated FNAME the node wrote (flag 0x08).
      expect(real.bytes[3]).toBe(0x08);
      const bodyStart = real.bytes.indexOf(0, 10) + 1;
      let refused = 0;
      for (let index = bodyStart; index < real.bytes.length; index++) {
        for (const mask of [0x01, 0x80]) {
          try {
            const file = readRecordFile(real.name, flipped(real.bytes, index, mask));
            // Only an unused padding bit of the deflate stream may flip unnoticed, and then nothing changed.
            expect(toHex(file.fileHash), `byte ${index} ^ ${mask}`).toBe(original);
          } catch (error) {
            expect(error).toBeInstanceOf(CorruptFileError);
            refused++;
          }
        }
      }
      expect(refused).toBeGreaterThan(2 * (real.bytes.length - bodyStart) - 5);
    });

    it(`refuses every truncation of ${real.name}`, () => {
      for (let length = 0; length < real.bytes.length; length++) {
        corruptErrorOf(real.name, real.bytes.subarray(0, length));
      }
      expect(corruptErrorOf(real.name, real.bytes.subarray(0, 100)).message).toMatch(/bad gzip/);
    });

    it(`refuses any flipped byte in the items of uncompressed ${real.name}`, () => {
      const name = real.name.replace(/\.gz$/, "");
      const content = gunzipSync(real.bytes);
      const file = readRecordFile(name, content);
      // The items are views into `content`, so their offsets bound the region the running hash protects.
      const offsets = file.items.flatMap((item) => [item.transactionBytes, item.recordBytes]);
      const first = Math.min(...offsets.map((view) => view.byteOffset - content.byteOffset));
      const last = Math.max(...offsets.map((view) => view.byteOffset - content.byteOffset + view.length));
      for (let index = first - 2; index < last; index++) {
        corruptErrorOf(name, flipped(content, index));
      }
      // A byte inside the record's transaction hash is plain content: only the running hash can notice it.
      const record = file.items[0]!.recordBytes;
      const transactionHash = proto.TransactionRecord.decode(record).transactionHash;
      const inHash =
        record.byteOffset - content.byteOffset + Buffer.from(record).indexOf(transactionHash) + 10;
      expect(corruptErrorOf(name, flipped(content, inHash)).message).toMatch(/running hash mismatch/);
    });
  }

  it("refuses a .gz name whose bytes are not gzip, and gzip magic over garbage", () => {
    const real = V6[0]!;
    const content = gunzipSync(real.bytes);
    expect(corruptErrorOf(real.name, content).message).toMatch(/bad gzip: the name ends in \.gz/);
    const garbage = Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(corruptErrorOf(real.name, garbage).message).toMatch(/bad gzip/);
  });

  it("refuses trailing garbage after the gzip stream", () => {
    const real = V6[0]!;
    const error = corruptErrorOf(real.name, Buffer.concat([real.bytes, Buffer.from("trailing garbage")]));
    expect(error.message).toMatch(/bad gzip/);
  });
});

describe("readRecordFile refuses damaged v5 files", () => {
  for (const real of V5) {
    it(`refuses every flipped byte from the start hash object on in ${real.name}`, () => {
      // Bytes 4..19 (HAPI version, object stream version) are covered only by the signed metadata hash;
      // everything after them is checked by the running hash or the object structure.
      for (let index = 20; index < real.bytes.length; index++) {
        corruptErrorOf(real.name, flipped(real.bytes, index));
      }
    });

    it(`refuses every truncation of ${real.name}`, () => {
      for (let length = 0; length < real.bytes.length; length++) {
        corruptErrorOf(real.name, real.bytes.subarray(0, length));
      }
    });
  }

  it("names the running hash mismatch when a byte inside a record changes", () => {
    const real = V5_CONTRACTS[0]!;
    const file = readRecordFile(real.name, real.bytes);
    const record = file.items[3]!.recordBytes;
    // A byte inside the record's transaction hash is plain content: the structure still parses.
    const transactionHash = proto.TransactionRecord.decode(record).transactionHash;
    const index =
      record.byteOffset - real.bytes.byteOffset + Buffer.from(record).indexOf(transactionHash) + 20;
    for (const mask of [0x01, 0x10, 0x80]) {
      const error = corruptErrorOf(real.name, flipped(real.bytes, index, mask));
      expect(error.message).toMatch(
        /running hash mismatch: the 14 record stream objects hash to [0-9a-f]{96}/,
      );
    }
    // Sampled across the larger contract files: every probe is refused.
    for (let index = 20; index < real.bytes.length; index += 97) {
      corruptErrorOf(real.name, flipped(real.bytes, index));
    }
  });

  it("refuses trailing garbage and a file without items", () => {
    const real = V5[0]!;
    const error = corruptErrorOf(real.name, Buffer.concat([real.bytes, Uint8Array.of(0)]));
    expect(error.message).toMatch(/trailing garbage: 1 bytes/);
    const file = readRecordFile(real.name, real.bytes);
    const item = file.items[0]!;
    // Cut the only record stream object out: the start hash object is followed directly by the end one.
    const objectStart = item.recordBytes.byteOffset - real.bytes.byteOffset - 16;
    const objectEnd = item.transactionBytes.byteOffset - real.bytes.byteOffset + item.transactionBytes.length;
    const empty = Buffer.concat([real.bytes.subarray(0, objectStart), real.bytes.subarray(objectEnd)]);
    expect(corruptErrorOf(real.name, empty).message).toMatch(/no record stream objects/);
  });
});

describe("readRecordFile refuses damaged v2 files", () => {
  const real = V2[0]!;
  const file = readRecordFile(real.name, real.bytes);
  const firstTransaction = file.items[0]!.transactionBytes.byteOffset - real.bytes.byteOffset;

  it("refuses a damaged record marker", () => {
    const marker = firstTransaction - 5;
    expect(real.bytes[marker]).toBe(2);
    expect(corruptErrorOf(real.name, flipped(real.bytes, marker)).message).toMatch(
      /record marker of item 0 at offset 57 is 3, expected 2/,
    );
  });

  it("refuses a damaged previous hash marker", () => {
    expect(corruptErrorOf(real.name, flipped(real.bytes, 8)).message).toMatch(/previous file hash marker/);
  });

  it("refuses a length that runs past the end of the file", () => {
    const error = corruptErrorOf(real.name, flipped(real.bytes, firstTransaction - 3, 0x40));
    expect(error.message).toMatch(/length of transaction bytes of item 0/);
  });

  it("refuses truncation inside an item", () => {
    for (const item of file.items) {
      const inside = item.recordBytes.byteOffset - real.bytes.byteOffset + 1;
      expect(corruptErrorOf(real.name, real.bytes.subarray(0, inside)).message).toMatch(/truncated/);
    }
    // v2 has no end marker: a cut exactly between items is a shorter valid file that only signature
    // verification (the file hash) can catch.
    const last = file.items.at(-1)!.recordBytes;
    const betweenItems =
      last.byteOffset - real.bytes.byteOffset - 4 - 4 - file.items.at(-1)!.transactionBytes.length - 1;
    expect(readRecordFile(real.name, real.bytes.subarray(0, betweenItems)).items).toHaveLength(
      file.items.length - 1,
    );
  });

  it("refuses transaction bytes that are not protobuf", () => {
    // 0x07 as the first byte of the Transaction is a tag with wire type 7, which does not exist.
    const error = corruptErrorOf(
      real.name,
      flipped(real.bytes, firstTransaction, real.bytes[firstTransaction]! ^ 0x07),
    );
    expect(error.message).toMatch(/undecodable protobuf in Transaction of item 0/);
  });
});

describe("readRecordFile refuses wrong or missing versions", () => {
  it("refuses unknown version numbers", () => {
    for (const [real, version] of [
      [V5[0]!, 1],
      [V5[0]!, 3],
      [V2[0]!, 7],
      [V2[0]!, -1],
    ] as const) {
      expect(corruptErrorOf(real.name, withVersion(real.bytes, version)).message).toBe(
        `${real.name}: unknown record file version ${version}, expected 2, 5 or 6`,
      );
    }
  });

  it("refuses a file whose version does not match its format", () => {
    corruptErrorOf(V5[0]!.name, withVersion(V5[0]!.bytes, 6));
    corruptErrorOf(V5[0]!.name, withVersion(V5[0]!.bytes, 2));
    corruptErrorOf(V2[0]!.name, withVersion(V2[0]!.bytes, 5));
    corruptErrorOf(V2[0]!.name, withVersion(V2[0]!.bytes, 6));
    const content = gunzipSync(V6[0]!.bytes);
    corruptErrorOf("x.rcd", withVersion(content, 5));
    corruptErrorOf("x.rcd", withVersion(content, 2));
  });

  it("refuses files too short to hold a version", () => {
    for (const length of [0, 1, 3]) {
      expect(corruptErrorOf("x.rcd", new Uint8Array(length)).message).toBe(
        `x.rcd: missing version: ${length} bytes, expected at least 4`,
      );
    }
  });
});

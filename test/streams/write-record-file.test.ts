import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { writeRecordFileV6 } from "../../fixtures/writer/write-record-file.ts";
import { checkChain, toChainTip } from "../../src/streams/chain.ts";
import { toHex } from "../../src/streams/hex.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordFile, RecordFileV6Input } from "../../src/streams/types.ts";
import { type RealFile, realRecordFiles } from "./record-fixtures.ts";

type ReadReal = { real: RealFile; file: RecordFile };
const [realBlock5, realBlock6] = realRecordFiles("v6/record0.0.3").map((real) => ({
  real,
  file: readRecordFile(real.name, real.bytes),
})) as [ReadReal, ReadReal];
const contractItems = realRecordFiles("v5-contracts/record0.0.3").flatMap(
  (real) => readRecordFile(real.name, real.bytes).items,
);

function inputOf(file: RecordFile): RecordFileV6Input {
  return {
    hapiVersion: file.hapiVersion ?? { major: 0, minor: 0, patch: 0 },
    blockNumber: file.blockNumber ?? 0n,
    startRunningHash: file.previousHash,
    items: file.items,
  };
}

function expectSameFile(actual: RecordFile, expected: RecordFile): void {
  expect(actual.version).toBe(6);
  expect(actual.blockNumber).toBe(expected.blockNumber);
  expect(actual.hapiVersion).toEqual(expected.hapiVersion);
  expect(toHex(actual.previousHash)).toBe(toHex(expected.previousHash));
  expect(toHex(actual.hash)).toBe(toHex(expected.hash));
  expect(actual.items.map((item) => [toHex(item.transactionBytes), toHex(item.recordBytes)])).toEqual(
    expected.items.map((item) => [toHex(item.transactionBytes), toHex(item.recordBytes)]),
  );
}

describe("writeRecordFileV6", () => {
  it("reproduces a real node's v6 file byte for byte (block 5, no sidecars)", () => {
    const written = writeRecordFileV6(inputOf(realBlock5.file));
    expect(toHex(written.bytes)).toBe(toHex(gunzipSync(realBlock5.real.bytes)));
    expect(toHex(written.endRunningHash)).toBe(toHex(realBlock5.file.hash));
    expect(toHex(written.fileHash)).toBe(toHex(realBlock5.file.fileHash));
    expect(toHex(written.metadataHash)).toBe(toHex(realBlock5.file.metadataHash!));
  });

  it("matches a real file with sidecars in everything but the sidecar list (block 6)", () => {
    const written = writeRecordFileV6(inputOf(realBlock6.file));
    expect(toHex(written.endRunningHash)).toBe(toHex(realBlock6.file.hash));
    // The metadata hash does not cover sidecars, so it is the one the nodes signed.
    expect(toHex(written.metadataHash)).toBe(toHex(realBlock6.file.metadataHash!));
    expect(toHex(written.fileHash)).not.toBe(toHex(realBlock6.file.fileHash));
    expectSameFile(readRecordFile("block6.rcd", written.bytes), realBlock6.file);
  });

  it("writes files readRecordFile reads back with the same items, hashes and block number", () => {
    const input: RecordFileV6Input = {
      hapiVersion: { major: 0, minor: 47, patch: 3 },
      blockNumber: 61_234_567_890n,
      startRunningHash: realBlock6.file.hash,
      items: contractItems,
    };
    const written = writeRecordFileV6(input);
    const name = "2024-01-01T00_00_00.000000000Z.rcd.gz";
    const read = readRecordFile(name, written.gzipBytes);
    expect(read.sizeBytes).toBe(written.gzipBytes.length);
    expect(read.blockNumber).toBe(61_234_567_890n);
    expect(read.hapiVersion).toEqual({ major: 0, minor: 47, patch: 3 });
    expect(read.items).toHaveLength(26);
    expect(read.items.map((item) => toHex(item.recordBytes))).toEqual(
      contractItems.map((i) => toHex(i.recordBytes)),
    );
    expect(read.items.map((item) => toHex(item.transactionBytes))).toEqual(
      contractItems.map((i) => toHex(i.transactionBytes)),
    );
    expect(toHex(read.previousHash)).toBe(toHex(input.startRunningHash));
    expect(toHex(read.hash)).toBe(toHex(written.endRunningHash));
    expect(toHex(read.fileHash)).toBe(toHex(written.fileHash));
    expect(toHex(read.metadataHash!)).toBe(toHex(written.metadataHash));
    // It continues the real stream it was started from.
    checkChain(toChainTip(realBlock6.file, 6n), { ...read, blockNumber: 7n });
  });

  it("gives identical bytes for identical input, with a gzip header free of time and platform", () => {
    const input = inputOf(realBlock6.file);
    const first = writeRecordFileV6(input);
    const second = writeRecordFileV6({ ...input, items: input.items.map((item) => ({ ...item })) });
    expect(toHex(second.bytes)).toBe(toHex(first.bytes));
    expect(toHex(second.gzipBytes)).toBe(toHex(first.gzipBytes));
    expect(toHex(gunzipSync(first.gzipBytes))).toBe(toHex(first.bytes));
    // ID1 ID2 CM FLG, MTIME = 0, XFL, OS = unknown.
    expect(toHex(first.gzipBytes.subarray(0, 10))).toBe("1f8b08000000000002ff");
  });

  it("writes a file without items, whose end running hash is its start", () => {
    const written = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 0, patch: 0 },
      blockNumber: 0n,
      startRunningHash: new Uint8Array(48),
      items: [],
    });
    expect(toHex(written.endRunningHash)).toBe("00".repeat(48));
    const read = readRecordFile("empty.rcd", written.bytes);
    expect(read.items).toEqual([]);
    expect(read.blockNumber).toBe(0n);
    expect(read.hapiVersion).toEqual({ major: 0, minor: 0, patch: 0 });
  });

  it("chains consecutive written files by running hash and block number", () => {
    const first = writeRecordFileV6({ ...inputOf(realBlock6.file), blockNumber: 100n });
    const second = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 28, patch: 0 },
      blockNumber: 101n,
      startRunningHash: first.endRunningHash,
      items: contractItems.slice(0, 3),
    });
    const a = readRecordFile("a.rcd.gz", first.gzipBytes);
    const b = readRecordFile("b.rcd.gz", second.gzipBytes);
    checkChain(toChainTip(a, 100n), b);
  });

  it("refuses a start running hash that is not 48 bytes", () => {
    expect(() =>
      writeRecordFileV6({ ...inputOf(realBlock5.file), startRunningHash: new Uint8Array(32) }),
    ).toThrow(RangeError);
  });
});

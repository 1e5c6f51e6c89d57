import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { toHex } from "../../src/streams/hex.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordFile } from "../../src/streams/types.ts";
import { nodeFolders, type RealFile, realRecordFiles, signatureOf } from "./record-fixtures.ts";
import { signedHashes } from "./record-signed-hashes.ts";

/** Consensus time of each item, decoded from its record bytes, as "seconds.nanos" bigint nanoseconds. */
function consensusTimes(file: RecordFile): bigint[] {
  return file.items.map((item) => {
    const ts = proto.TransactionRecord.decode(item.recordBytes).consensusTimestamp;
    return toBigInt(ts?.seconds) * 1_000_000_000n + BigInt(ts?.nanos ?? 0);
  });
}

/** Checks what holds for every real file, whatever its version. */
function expectSound(real: RealFile, file: RecordFile): void {
  expect(file.name).toBe(real.name);
  expect(file.sizeBytes).toBe(real.bytes.length);
  for (const hash of [file.previousHash, file.hash, file.fileHash]) expect(hash).toHaveLength(48);
  // The hashes this reader computes are the ones the node signed.
  const signed = signedHashes(signatureOf(real));
  expect(toHex(file.fileHash)).toBe(toHex(signed.fileHash));
  expect(file.metadataHash === null ? null : toHex(file.metadataHash)).toBe(
    signed.metadataHash === null ? null : toHex(signed.metadataHash),
  );
  // Every item's bytes are complete protobuf messages: a Transaction with a body and a record of that transaction.
  for (const item of file.items) {
    const transaction = proto.Transaction.decode(item.transactionBytes);
    const record = proto.TransactionRecord.decode(item.recordBytes);
    expect(transaction.signedTransactionBytes?.length || transaction.bodyBytes?.length).toBeGreaterThan(0);
    expect(record.transactionID?.accountID).toBeTruthy();
    expect(record.receipt?.status).toBeDefined();
  }
  const times = consensusTimes(file);
  expect([...times].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(times);
}

function readAll(dir: string): { real: RealFile; file: RecordFile }[] {
  return realRecordFiles(dir).map((real) => ({ real, file: readRecordFile(real.name, real.bytes) }));
}

describe("readRecordFile on real v6 files", () => {
  for (const dir of nodeFolders("v6")) {
    it(`reads ${dir}: blocks 5 and 6, HAPI 0.28, chained running hashes`, () => {
      const files = readAll(dir);
      expect(files.map(({ file }) => file.name)).toEqual([
        "2022-07-13T08_46_08.041986003Z.rcd.gz",
        "2022-07-13T08_46_11.304284003Z.rcd.gz",
      ]);
      const [first, second] = files.map(({ file }) => file) as [RecordFile, RecordFile];
      for (const { real, file } of files) {
        expectSound(real, file);
        expect(file.version).toBe(6);
        expect(file.hapiVersion).toEqual({ major: 0, minor: 28, patch: 0 });
        expect(file.metadataHash).toHaveLength(48);
        // The generated decoder agrees on what the file holds.
        const decoded = proto.RecordStreamFile.decode(gunzipSync(real.bytes).subarray(4));
        expect(file.items).toHaveLength(decoded.recordStreamItems.length);
        expect(file.blockNumber).toBe(toBigInt(decoded.blockNumber));
        expect(toHex(file.previousHash)).toBe(
          toHex(decoded.startObjectRunningHash?.hash ?? new Uint8Array()),
        );
        expect(toHex(file.hash)).toBe(toHex(decoded.endObjectRunningHash?.hash ?? new Uint8Array()));
        decoded.recordStreamItems.forEach((item, i) => {
          const ours = file.items[i]!;
          const reencode = (record: proto.ITransactionRecord) =>
            proto.TransactionRecord.encode(record).finish();
          expect(toHex(reencode(proto.TransactionRecord.decode(ours.recordBytes)))).toBe(
            toHex(reencode(item.record!)),
          );
          const reencodeTx = (tx: proto.ITransaction) => proto.Transaction.encode(tx).finish();
          expect(toHex(reencodeTx(proto.Transaction.decode(ours.transactionBytes)))).toBe(
            toHex(reencodeTx(item.transaction!)),
          );
        });
      }
      expect([first.blockNumber, second.blockNumber]).toEqual([5n, 6n]);
      expect([first.items.length, second.items.length]).toEqual([1, 2]);
      expect(toHex(second.previousHash)).toBe(toHex(first.hash));
    });
  }

  it("reads the same stream from all four nodes", () => {
    const perNode = nodeFolders("v6").map((dir) => readAll(dir).map(({ file }) => toHex(file.fileHash)));
    expect(perNode).toHaveLength(4);
    for (const hashes of perNode) expect(hashes).toEqual(perNode[0]);
  });
});

describe("readRecordFile on real v5 files", () => {
  for (const dir of nodeFolders("v5")) {
    it(`reads ${dir}: one item each, HAPI 0.9.0, chained running hashes`, () => {
      const files = readAll(dir);
      expect(files).toHaveLength(2);
      const [first, second] = files.map(({ file }) => file) as [RecordFile, RecordFile];
      for (const { real, file } of files) {
        expectSound(real, file);
        expect(file.version).toBe(5);
        expect(file.blockNumber).toBeNull();
        expect(file.hapiVersion).toEqual({ major: 0, minor: 9, patch: 0 });
        expect(file.metadataHash).toHaveLength(48);
      }
      expect([first.items.length, second.items.length]).toEqual([1, 1]);
      // The stream's first v5 file starts from an empty running hash.
      expect(toHex(first.previousHash)).toBe("00".repeat(48));
      expect(toHex(second.previousHash)).toBe(toHex(first.hash));
    });
  }

  it("reads v5-contracts: 14 and 12 items, HAPI header 0.0.0, not consecutive", () => {
    const files = readAll("v5-contracts/record0.0.3");
    expect(files).toHaveLength(2);
    for (const { real, file } of files) {
      expectSound(real, file);
      expect(file.version).toBe(5);
      expect(file.hapiVersion).toEqual({ major: 0, minor: 0, patch: 0 });
    }
    const [first, second] = files.map(({ file }) => file) as [RecordFile, RecordFile];
    expect([first.items.length, second.items.length]).toEqual([14, 12]);
    expect(toHex(second.previousHash)).not.toBe(toHex(first.hash));
  });
});

describe("readRecordFile on real v2 files", () => {
  for (const dir of nodeFolders("v2")) {
    it(`reads ${dir}: 19 and 15 items, chained file hashes`, () => {
      const files = readAll(dir);
      expect(files).toHaveLength(2);
      const [first, second] = files.map(({ file }) => file) as [RecordFile, RecordFile];
      for (const { real, file } of files) {
        expectSound(real, file);
        expect(file.version).toBe(2);
        expect(file.hapiVersion).toBeNull();
        expect(file.blockNumber).toBeNull();
        expect(file.metadataHash).toBeNull();
        // For v2 the block hash is the file hash.
        expect(toHex(file.hash)).toBe(toHex(file.fileHash));
      }
      expect([first.items.length, second.items.length]).toEqual([19, 15]);
      expect(toHex(second.previousHash)).toBe(toHex(first.hash));
    });
  }
});

import { describe, expect, it } from "vitest";
import { writeRecordFileV6 } from "../../fixtures/writer/write-record-file.ts";
import { writeRecordFileV5 } from "../../fixtures/writer/write-record-file-v5.ts";
import { ChainBreakError } from "../../src/errors.ts";
import { type ChainTip, checkChain, nextBlockNumber, toChainTip } from "../../src/streams/chain.ts";
import { toHex } from "../../src/streams/hex.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordFile } from "../../src/streams/types.ts";
import { nodeFolders, realRecordFiles } from "./record-fixtures.ts";

function readDir(dir: string): RecordFile[] {
  return realRecordFiles(dir).map((real) => readRecordFile(real.name, real.bytes));
}

function chainBreakOf(previous: ChainTip | null, file: RecordFile): ChainBreakError {
  try {
    checkChain(previous, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ChainBreakError);
    return error as ChainBreakError;
  }
  throw new Error(`${file.name} was accepted`);
}

describe("checkChain on real consecutive files", () => {
  for (const dir of [...nodeFolders("v6"), ...nodeFolders("v5"), ...nodeFolders("v2")]) {
    it(`accepts ${dir}'s second file after its first`, () => {
      const [first, second] = readDir(dir) as [RecordFile, RecordFile];
      const tip = toChainTip(first, nextBlockNumber(null, first));
      checkChain(tip, second);
      checkChain(null, first);
    });
  }

  it("refuses v5-contracts' second file, naming both hashes and the previous file", () => {
    const [first, second] = readDir("v5-contracts/record0.0.3") as [RecordFile, RecordFile];
    const error = chainBreakOf(toChainTip(first, 0n), second);
    expect(error.file).toBe(second.name);
    expect(error.message).toBe(
      `${second.name}: starts from running hash ${toHex(second.previousHash)} but ${first.name} ended with ` +
        toHex(first.hash),
    );
  });

  it("refuses v2 files out of order, as a previous file hash mismatch", () => {
    const [first, second] = readDir("v2/record0.0.3") as [RecordFile, RecordFile];
    const error = chainBreakOf(toChainTip(second, 1n), first);
    expect(error.message).toMatch(
      new RegExp(`starts from previous file hash 0{96} but ${second.name} ended with ${toHex(second.hash)}`),
    );
  });

  it("does not check against a previous hash of all zeros, as the importer does", () => {
    const [, second] = readDir("v5-contracts/record0.0.3") as [RecordFile, RecordFile];
    checkChain({ name: "genesis", version: 5, hash: new Uint8Array(48), blockNumber: 0n }, second);
  });
});

describe("checkChain block numbers (v6)", () => {
  const [block5, block6] = readDir("v6/record0.0.3") as [RecordFile, RecordFile];

  it("accepts block 6 after block 5 and refuses it after any other block", () => {
    checkChain(toChainTip(block5, 5n), block6);
    for (const previousBlock of [4n, 3n, 0n]) {
      const error = chainBreakOf(toChainTip(block5, previousBlock), block6);
      expect(error.message).toBe(
        `${block6.name}: has block number 6 but ${block5.name} was block ${previousBlock}; expected ${previousBlock + 1n}`,
      );
    }
    expect(chainBreakOf(toChainTip(block5, 6n), block6).message).toMatch(/expected 7/);
  });

  it("stores the file's own block number for v6 and counts v2/v5 files from 0", () => {
    const [v2First, v2Second] = readDir("v2/record0.0.3") as [RecordFile, RecordFile];
    expect(nextBlockNumber(null, v2First)).toBe(0n);
    expect(nextBlockNumber(toChainTip(v2First, 0n), v2Second)).toBe(1n);
    expect(nextBlockNumber(toChainTip(v2First, 41n), v2Second)).toBe(42n);
    expect(nextBlockNumber(null, block5)).toBe(5n);
    expect(nextBlockNumber(toChainTip(block5, 5n), block6)).toBe(6n);
  });
});

describe("checkChain across a version change", () => {
  const [v2First, v2Second] = readDir("v2/record0.0.3") as [RecordFile, RecordFile];
  const [, v5Second] = readDir("v5/record0.0.3") as [RecordFile, RecordFile];
  const [block5] = readDir("v6/record0.0.3") as [RecordFile];

  it("continues v2 → v5: the first v5 start running hash is the last v2 file hash", () => {
    const bytes = writeRecordFileV5(v2Second.hash, v2Second.items.slice(0, 3));
    const v5 = readRecordFile("2021-01-01T00_00_00.000000000Z.rcd", bytes);
    expect(v5.items).toHaveLength(3);
    checkChain(toChainTip(v2Second, 1n), v5);
    expect(nextBlockNumber(toChainTip(v2Second, 1n), v5)).toBe(2n);
    expect(chainBreakOf(toChainTip(v2First, 0n), v5).message).toMatch(/starts from running hash/);
  });

  it("continues v5 → v6 by running hash; the v6 file's block number takes over", () => {
    const written = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 28, patch: 0 },
      blockNumber: 25_000_000n,
      startRunningHash: v5Second.hash,
      items: block5.items,
    });
    const v6 = readRecordFile("2022-07-01T00_00_00.000000000Z.rcd.gz", written.gzipBytes);
    const tip = toChainTip(v5Second, 1n);
    checkChain(tip, v6);
    expect(nextBlockNumber(tip, v6)).toBe(25_000_000n);
    // A v6 block number must still move forward from whatever the v5 files were numbered.
    const error = chainBreakOf({ ...tip, blockNumber: 25_000_000n }, v6);
    expect(error.message).toMatch(/was already block 25000000; block numbers must increase/);
  });

  it("refuses a version that goes back", () => {
    const error = chainBreakOf(toChainTip(block5, 5n), v5Second);
    expect(error.message).toMatch(/is record stream v5 but follows .* which is v6/);
  });
});

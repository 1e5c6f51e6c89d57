/**
 * The hash chain between consecutive record files of one stream, and block numbering.
 *
 * Each file names where it starts: v2 its previous file's hash, v5/v6 the running hash it starts from.
 * It must equal what the previous file ended with (`RecordFile.hash`: v2 file hash, v5/v6 end running hash).
 *
 * Version changes are checked the same way, as the mirror node importer does (`Downloader.verifyHashChain`
 * compares `previousHash` with the last file's `hash`, whatever their versions):
 * - v2 → v5: consensus nodes seeded the first v5 running hash with the last v2 file's hash (read from the
 *   last v2 signature file; hedera-services issue #671, and the "Record and Event Stream File Formats"
 *   page of the Hedera docs says so), so the first v5 file's start running hash equals
 *   the last v2 file's hash and the ordinary comparison holds.
 * - v5 → v6: the running hash simply continues.
 * Like the importer, a previous hash of all zeros (nothing to compare against) is not checked.
 *
 * Block numbers: v6 files carry their own. Between two v6 files the number must go up by exactly one. v2
 * and v5 files carry none; ingestion numbers them previous + 1 from 0, as the importer does (its
 * `startBlockNumber` aside). At the v5 → v6 switch the file's number wins (the importer renumbers the
 * earlier v5 blocks to fit, which an embedded index that starts mid-stream cannot know to do), so there
 * it is only required to be greater than the previous number, never reusing one.
 */
import { ChainBreakError } from "../errors.ts";
import { bytesEqual, isAllZero, toHex } from "./hex.ts";
import type { RecordFile } from "./types.ts";

/** What ingestion remembers about the last file it committed, to check the next one against. */
export type ChainTip = { name: string; version: number; hash: Uint8Array; blockNumber: bigint };

/**
 * Throws `ChainBreakError` unless `file` continues the stream after `previous` (null: nothing committed
 * yet, anything goes).
 */
export function checkChain(previous: ChainTip | null, file: RecordFile): void {
  if (previous === null) return;
  if (file.version < previous.version) {
    throw new ChainBreakError(
      file.name,
      `is record stream v${file.version} but follows ${previous.name}, which is v${previous.version}; ` +
        "a stream's version never goes back",
    );
  }
  if (!isAllZero(previous.hash) && !bytesEqual(file.previousHash, previous.hash)) {
    const kind = file.version === 2 ? "previous file hash" : "running hash";
    throw new ChainBreakError(
      file.name,
      `starts from ${kind} ${toHex(file.previousHash)} but ${previous.name} ended with ${toHex(previous.hash)}`,
    );
  }
  if (file.version === 6 && file.blockNumber !== null) {
    if (previous.version === 6 && file.blockNumber !== previous.blockNumber + 1n) {
      throw new ChainBreakError(
        file.name,
        `has block number ${file.blockNumber} but ${previous.name} was block ${previous.blockNumber}; ` +
          `expected ${previous.blockNumber + 1n}`,
      );
    }
    if (file.blockNumber <= previous.blockNumber) {
      throw new ChainBreakError(
        file.name,
        `has block number ${file.blockNumber} but ${previous.name} was already block ${previous.blockNumber}; ` +
          "block numbers must increase",
      );
    }
  }
}

/** The block number ingestion stores for `file`: v6 its own; v2/v5 previous + 1, the first file 0. */
export function nextBlockNumber(previous: ChainTip | null, file: RecordFile): bigint {
  if (file.blockNumber !== null) return file.blockNumber;
  return previous === null ? 0n : previous.blockNumber + 1n;
}

/** The tip to remember after committing `file` as block `blockNumber`. */
export function toChainTip(file: RecordFile, blockNumber: bigint): ChainTip {
  return { name: file.name, version: file.version, hash: file.hash, blockNumber };
}

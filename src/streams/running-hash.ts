/**
 * The record stream's running hash, as consensus nodes compute it (record stream v5 and v6 alike).
 *
 * 1. Each record stream object is hashed as the platform hashes any SelfSerializable
 *    (swirlds `SerializationDigestProvider`: `writeSerializable(object, true)` into SHA-384), i.e.
 *    SHA-384 over, all big-endian: class id 0xe370929ba5429d8b (int64), class version 1 (int32),
 *    record length (int32), TransactionRecord bytes, transaction length (int32), Transaction bytes
 *    (hedera-services `RecordStreamObject.serialize`). In a v5 file that is exactly the object's bytes.
 * 2. The running hash folds each object hash in (swirlds `RunningHashProvider` through `HashBuilder`):
 *    running' = SHA-384(classId ‖ version ‖ running ‖ classId ‖ version ‖ objectHash), where classId and
 *    version are those of the platform `Hash` class (0xf422da83a251741e, 1) written LITTLE-endian,
 *    because `HashBuilder.update(long|int)` feeds the digest low byte first.
 *
 * Checked against every real v5 and v6 file in fixtures/real (see the record-* tests).
 */
import { hash } from "node:crypto";
import type { RecordItem } from "./types.ts";

export const HASH_LENGTH = 48;
/** Class id and version of the platform `Hash` object that v5 files store (big-endian there). */
export const HASH_CLASS_ID = 0xf422da83a251741en;
export const HASH_CLASS_VERSION = 1;
/** `DigestType.SHA_384` as written in a v5 hash object. */
export const HASH_DIGEST_TYPE_SHA_384 = 0x58ff811b;
export const RECORD_STREAM_OBJECT_CLASS_ID = 0xe370929ba5429d8bn;
export const RECORD_STREAM_OBJECT_CLASS_VERSION = 1;

const FOLD_PREFIX_LENGTH = 12;
// One reusable buffer per fold: prefix ‖ running ‖ prefix ‖ objectHash. Hashing is synchronous, so reusing
// it is safe and saves four update calls and their allocations per item.
const foldScratch = new Uint8Array(2 * (FOLD_PREFIX_LENGTH + HASH_LENGTH));
const foldView = new DataView(foldScratch.buffer);
for (const at of [0, FOLD_PREFIX_LENGTH + HASH_LENGTH]) {
  foldView.setBigUint64(at, HASH_CLASS_ID, true);
  foldView.setInt32(at + 8, HASH_CLASS_VERSION, true);
}

// Hashing is most of the reader's cost, and one-shot `crypto.hash` over one contiguous buffer is markedly
// faster than `createHash().update()...digest()`, so a v6 object is assembled in a reusable scratch buffer.
const OBJECT_HEADER_LENGTH = 16;
let objectScratch = new Uint8Array(64 * 1024);
let objectView = new DataView(objectScratch.buffer);

/** SHA-384 of one byte range. */
export function sha384(bytes: Uint8Array): Buffer {
  return hash("sha384", bytes, "buffer");
}

/** The hash of a record stream object given its serialized bytes (class id through transaction bytes). */
export function hashSerializedRecordStreamObject(serialized: Uint8Array): Buffer {
  return sha384(serialized);
}

/** The hash of a record stream object given its record and transaction bytes (v6 items). */
export function hashRecordStreamObject(recordBytes: Uint8Array, transactionBytes: Uint8Array): Buffer {
  const length = OBJECT_HEADER_LENGTH + recordBytes.length + 4 + transactionBytes.length;
  if (length > objectScratch.length) {
    objectScratch = new Uint8Array(Math.max(length, 2 * objectScratch.length));
    objectView = new DataView(objectScratch.buffer);
  }
  objectView.setBigUint64(0, RECORD_STREAM_OBJECT_CLASS_ID);
  objectView.setInt32(8, RECORD_STREAM_OBJECT_CLASS_VERSION);
  objectView.setInt32(12, recordBytes.length);
  objectScratch.set(recordBytes, OBJECT_HEADER_LENGTH);
  const transactionAt = OBJECT_HEADER_LENGTH + recordBytes.length;
  objectView.setInt32(transactionAt, transactionBytes.length);
  objectScratch.set(transactionBytes, transactionAt + 4);
  return sha384(objectScratch.subarray(0, length));
}

/** Folds one object hash into the running hash and returns the new running hash. */
export function foldRunningHash(running: Uint8Array, objectHash: Uint8Array): Buffer {
  foldScratch.set(running, FOLD_PREFIX_LENGTH);
  foldScratch.set(objectHash, 2 * FOLD_PREFIX_LENGTH + HASH_LENGTH);
  return sha384(foldScratch);
}

/** The running hash after folding in `items` in order, starting from `start`. */
export function runningHashOverItems(start: Uint8Array, items: readonly RecordItem[]): Uint8Array {
  let running: Uint8Array = start;
  for (const item of items) {
    running = foldRunningHash(running, hashRecordStreamObject(item.recordBytes, item.transactionBytes));
  }
  return running;
}

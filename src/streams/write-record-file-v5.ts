import {
  foldRunningHash,
  HASH_CLASS_ID,
  HASH_DIGEST_TYPE_SHA_384,
  hashSerializedRecordStreamObject,
  RECORD_STREAM_OBJECT_CLASS_ID,
} from "./running-hash.ts";
import type { HapiVersion, RecordItem } from "./types.ts";

/**
 * Serializes a v5 record file the way nodes did in 2021 (Java SelfSerializable objects, big-endian), so that
 * fixtures and tests can replay version switches (v2 → v5 → v6) that real networks went through.
 */
export function writeRecordFileV5(
  startRunningHash: Uint8Array,
  items: readonly RecordItem[],
  hapiVersion: HapiVersion = { major: 0, minor: 9, patch: 0 },
): Uint8Array {
  const parts: Uint8Array[] = [];
  const int32 = (value: number) => {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setInt32(0, value);
    parts.push(bytes);
  };
  const uint64 = (value: bigint) => {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, value);
    parts.push(bytes);
  };
  const hashObject = (hash: Uint8Array) => {
    uint64(HASH_CLASS_ID);
    int32(1);
    int32(HASH_DIGEST_TYPE_SHA_384);
    int32(hash.length);
    parts.push(hash);
  };
  // version, HAPI major/minor/patch, object stream version
  for (const value of [5, hapiVersion.major, hapiVersion.minor, hapiVersion.patch, 1]) int32(value);
  hashObject(startRunningHash);
  let running = startRunningHash;
  for (const item of items) {
    const objectStart = parts.length;
    uint64(RECORD_STREAM_OBJECT_CLASS_ID);
    int32(1);
    int32(item.recordBytes.length);
    parts.push(item.recordBytes);
    int32(item.transactionBytes.length);
    parts.push(item.transactionBytes);
    running = foldRunningHash(
      running,
      hashSerializedRecordStreamObject(Buffer.concat(parts.slice(objectStart))),
    );
  }
  hashObject(running);
  return Buffer.concat(parts);
}

/**
 * Record stream v5: a Java header, then Java SelfSerializable objects (hedera-services
 * `RecordStreamObject`, swirlds `Hash`), all big-endian:
 *
 *   int32 5, int32 HAPI major, minor, patch, int32 object stream version,
 *   hash object (start running hash), record stream object..., hash object (end running hash)
 *
 *   hash object:          int64 class id 0xf422da83a251741e, int32 class version 1,
 *                         int32 digest type 0x58ff811b (SHA-384), int32 length 48, 48 bytes
 *   record stream object: int64 class id 0xe370929ba5429d8b, int32 class version 1,
 *                         int32 length + TransactionRecord bytes, int32 length + Transaction bytes
 *
 * Hashes as the mirror node importer computes them (`RecordFileReaderImplV5`): fileHash is SHA-384 of
 * the whole file; metadataHash is SHA-384 of everything except the record stream objects (header, object
 * stream version, start hash object, end hash object); previousHash and hash are the start and end running
 * hashes. The running hash is recomputed and must equal the end hash.
 */
import { createHash } from "node:crypto";
import { CorruptFileError } from "../errors.ts";
import { bytesEqual, toHex } from "./hex.ts";
import { JavaStreamCursor } from "./java-stream.ts";
import { assertWellFormedMessage } from "./protobuf-wire.ts";
import {
  foldRunningHash,
  HASH_CLASS_ID,
  HASH_CLASS_VERSION,
  HASH_DIGEST_TYPE_SHA_384,
  HASH_LENGTH,
  hashSerializedRecordStreamObject,
  RECORD_STREAM_OBJECT_CLASS_ID,
  RECORD_STREAM_OBJECT_CLASS_VERSION,
  sha384,
} from "./running-hash.ts";
import type { RecordFile, RecordItem } from "./types.ts";

/** The importer's limit for each of the record and transaction byte arrays in v5 files. */
const MAX_ITEM_BYTES = 64 * 1024;

/** Reads an uncompressed v5 record file; `sizeBytes` is the size on disk. */
export function readRecordFileV5(name: string, bytes: Uint8Array, sizeBytes: number): RecordFile {
  const cursor = new JavaStreamCursor(name, bytes);
  cursor.expectInt32(5, "record file version");
  const hapiVersion = {
    major: cursor.int32("HAPI major version"),
    minor: cursor.int32("HAPI minor version"),
    patch: cursor.int32("HAPI patch version"),
  };
  cursor.int32("object stream version");
  const previousHash = readHashObject(cursor, "start running hash object");
  const startMetadataEnd = cursor.position;

  const items: RecordItem[] = [];
  let running: Uint8Array = previousHash;
  for (;;) {
    const classId = cursor.peekUint64();
    if (classId === null) {
      throw new CorruptFileError(
        name,
        `truncated: expected a record stream object or the end running hash object at offset ` +
          `${cursor.position}, but only ${cursor.remaining} bytes remain`,
      );
    }
    if (classId === HASH_CLASS_ID) break;
    const objectStart = cursor.position;
    const item = readRecordStreamObject(cursor, items.length);
    running = foldRunningHash(
      running,
      hashSerializedRecordStreamObject(bytes.subarray(objectStart, cursor.position)),
    );
    items.push(item);
  }
  if (items.length === 0) {
    throw new CorruptFileError(name, "no record stream objects: a v5 file holds at least one");
  }

  const endObjectStart = cursor.position;
  const hash = readHashObject(cursor, "end running hash object");
  if (cursor.remaining !== 0) {
    throw new CorruptFileError(
      name,
      `trailing garbage: ${cursor.remaining} bytes after the end running hash object at offset ${cursor.position}`,
    );
  }
  if (!bytesEqual(running, hash)) {
    throw new CorruptFileError(
      name,
      `running hash mismatch: the ${items.length} record stream objects hash to ${toHex(running)}, ` +
        `but the file's end running hash is ${toHex(hash)}`,
    );
  }

  const metadataHash = createHash("sha384")
    .update(bytes.subarray(0, startMetadataEnd))
    .update(bytes.subarray(endObjectStart))
    .digest();
  return {
    name,
    version: 5,
    hapiVersion,
    blockNumber: null,
    previousHash,
    hash,
    fileHash: sha384(bytes),
    metadataHash,
    sizeBytes,
    items,
  };
}

/** Reads a swirlds `Hash` object and returns a copy of its 48 bytes. */
function readHashObject(cursor: JavaStreamCursor, what: string): Uint8Array {
  const at = cursor.position;
  const classId = cursor.uint64(`class id of the ${what}`);
  if (classId !== HASH_CLASS_ID) {
    throw new CorruptFileError(
      cursor.name,
      `${what} at offset ${at} has class id 0x${classId.toString(16)}, expected 0x${HASH_CLASS_ID.toString(16)}`,
    );
  }
  cursor.expectInt32(HASH_CLASS_VERSION, `class version of the ${what}`);
  cursor.expectInt32(HASH_DIGEST_TYPE_SHA_384, `digest type of the ${what}`);
  cursor.expectInt32(HASH_LENGTH, `hash length of the ${what}`);
  // A copy, so a chain tip kept after the file does not pin the whole file's memory.
  return cursor.bytesView(HASH_LENGTH, `hash of the ${what}`).slice();
}

function readRecordStreamObject(cursor: JavaStreamCursor, index: number): RecordItem {
  const at = cursor.position;
  const classId = cursor.uint64(`class id of record stream object ${index}`);
  if (classId !== RECORD_STREAM_OBJECT_CLASS_ID) {
    throw new CorruptFileError(
      cursor.name,
      `object at offset ${at} has class id 0x${classId.toString(16)}, expected a record stream object ` +
        `(0x${RECORD_STREAM_OBJECT_CLASS_ID.toString(16)}) or the end hash object (0x${HASH_CLASS_ID.toString(16)})`,
    );
  }
  cursor.expectInt32(RECORD_STREAM_OBJECT_CLASS_VERSION, `class version of record stream object ${index}`);
  const recordBytes = cursor.lengthPrefixed(1, MAX_ITEM_BYTES, `record bytes of item ${index}`);
  const transactionBytes = cursor.lengthPrefixed(1, MAX_ITEM_BYTES, `transaction bytes of item ${index}`);
  assertWellFormedMessage(cursor.name, recordBytes, `TransactionRecord of item ${index}`);
  assertWellFormedMessage(cursor.name, transactionBytes, `Transaction of item ${index}`);
  return { transactionBytes, recordBytes };
}

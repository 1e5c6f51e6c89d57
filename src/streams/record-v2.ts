/**
 * Record stream v2 (2019–2021), big-endian:
 *
 *   int32 2, int32 HAPI version, byte 1, 48-byte previous file hash,      ← header (57 bytes)
 *   then until the end: byte 2, int32 length + Transaction bytes, int32 length + TransactionRecord bytes
 *
 * The file hash, which is also what the next file names as its previous hash and what v2 signature
 * files sign, is SHA-384(header ‖ SHA-384(body)) (mirror node `AbstractPreV5RecordFileReader` with
 * `RecordFileDigest(simple = false)`; v1 files hashed the bytes plainly). v2 has no running hash and no
 * metadata hash, so content damage inside an item is only caught by signature verification.
 */
import { createHash } from "node:crypto";
import { JavaStreamCursor } from "./java-stream.ts";
import { assertWellFormedMessage } from "./protobuf-wire.ts";
import { HASH_LENGTH } from "./running-hash.ts";
import type { RecordFile, RecordItem } from "./types.ts";

const PREVIOUS_HASH_MARKER = 1;
const RECORD_MARKER = 2;
/** The importer's limit for each transaction and record byte array in pre-v5 files. */
const MAX_ITEM_BYTES = 64 * 1024;

/** Reads an uncompressed v2 record file; `sizeBytes` is the size on disk. */
export function readRecordFileV2(name: string, bytes: Uint8Array, sizeBytes: number): RecordFile {
  const cursor = new JavaStreamCursor(name, bytes);
  cursor.expectInt32(2, "record file version");
  cursor.int32("HAPI version");
  cursor.expectByte(PREVIOUS_HASH_MARKER, "previous file hash marker");
  const previousHash = cursor.bytesView(HASH_LENGTH, "previous file hash").slice();
  const headerEnd = cursor.position;

  const items: RecordItem[] = [];
  while (cursor.remaining > 0) {
    const index = items.length;
    cursor.expectByte(RECORD_MARKER, `record marker of item ${index}`);
    const transactionBytes = cursor.lengthPrefixed(1, MAX_ITEM_BYTES, `transaction bytes of item ${index}`);
    const recordBytes = cursor.lengthPrefixed(1, MAX_ITEM_BYTES, `record bytes of item ${index}`);
    assertWellFormedMessage(name, transactionBytes, `Transaction of item ${index}`);
    assertWellFormedMessage(name, recordBytes, `TransactionRecord of item ${index}`);
    items.push({ transactionBytes, recordBytes });
  }

  const bodyHash = createHash("sha384").update(bytes.subarray(headerEnd)).digest();
  const fileHash = createHash("sha384").update(bytes.subarray(0, headerEnd)).update(bodyHash).digest();
  return {
    name,
    version: 2,
    hapiVersion: null,
    blockNumber: null,
    previousHash,
    hash: fileHash,
    fileHash,
    metadataHash: null,
    sizeBytes,
    items,
  };
}

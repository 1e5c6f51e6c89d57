/**
 * Record stream v6 (HIP-415, from mid-2022): int32 6 (big-endian), then a `RecordStreamFile` protobuf:
 *
 *   1 hapi_proto_version SemanticVersion {1 major, 2 minor, 3 patch}
 *   2 start_object_running_hash HashObject {1 algorithm (SHA_384 = 1), 2 length, 3 hash}
 *   3 record_stream_items (repeated) RecordStreamItem {1 transaction, 2 record}
 *   4 end_object_running_hash HashObject
 *   5 block_number int64
 *   6 sidecars (repeated SidecarMetadata {1 hash HashObject, 2 id int32, 3 types repeated enum}): the sidecar files
 *     of this record file (streams/sidecar-file.ts)
 *
 * The message is walked on the wire so each item's Transaction and TransactionRecord are the exact bytes in
 * the file. Hashes as the mirror node importer computes them (`ProtoRecordFileReader`): fileHash is SHA-384
 * of the uncompressed file; metadataHash is SHA-384 of int32 6, int32 major, minor, patch, start hash,
 * end hash, int64 block number (all big-endian). previousHash and hash are the start and end running hashes;
 * the running hash is recomputed over the items and must equal the end hash.
 */
import { createHash } from "node:crypto";
import { CorruptFileError } from "../errors.ts";
import { bytesEqual, toHex } from "./hex.ts";
import { assertWellFormedMessage, WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from "./protobuf-wire.ts";
import { HASH_LENGTH, runningHashOverItems, sha384 } from "./running-hash.ts";
import type { HapiVersion, RecordFile, RecordItem, SidecarMetadata } from "./types.ts";

/** `HashAlgorithm.SHA_384` in `hash_object.proto`. */
export const HASH_ALGORITHM_SHA_384 = 1;
const FILE_CONTEXT = "RecordStreamFile";

type HashObject = { algorithm: number; hash: Uint8Array };

/** Reads an uncompressed v6 record file (version int included); `sizeBytes` is the size on disk. */
export function readRecordFileV6(name: string, bytes: Uint8Array, sizeBytes: number): RecordFile {
  const reader = new WireReader(name, bytes, FILE_CONTEXT, 4);
  const end = bytes.length;
  let hapiVersion: HapiVersion | null = null;
  let start: HashObject | null = null;
  let endHash: HashObject | null = null;
  let blockNumber = 0n;
  const items: RecordItem[] = [];
  const sidecars: SidecarMetadata[] = [];

  while (reader.pos < end) {
    const tag = reader.tag(end);
    switch (tag >>> 3) {
      case 1:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        hapiVersion = readSemanticVersion(reader, end);
        break;
      case 2:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        start = readHashObject(reader, end, "start_object_running_hash");
        break;
      case 3:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        items.push(readItem(reader, end, items.length));
        break;
      case 4:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        endHash = readHashObject(reader, end, "end_object_running_hash");
        break;
      case 5:
        reader.expectWireType(tag, WIRE_VARINT);
        blockNumber = reader.int64(end);
        break;
      case 6:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        sidecars.push(readSidecarMetadata(reader, end));
        break;
      default:
        reader.skip(tag & 7, end);
    }
  }

  if (start === null) throw new CorruptFileError(name, "RecordStreamFile has no start_object_running_hash");
  if (endHash === null) throw new CorruptFileError(name, "RecordStreamFile has no end_object_running_hash");
  // The importer accepts the file when at least one of the two names a supported algorithm.
  if (start.algorithm !== HASH_ALGORITHM_SHA_384 && endHash.algorithm !== HASH_ALGORITHM_SHA_384) {
    throw new CorruptFileError(
      name,
      `unsupported running hash algorithms ${start.algorithm} and ${endHash.algorithm}, expected SHA_384 (1)`,
    );
  }

  const running = runningHashOverItems(start.hash, items);
  if (!bytesEqual(running, endHash.hash)) {
    throw new CorruptFileError(
      name,
      `running hash mismatch: the ${items.length} record stream items hash to ${toHex(running)}, ` +
        `but the file's end running hash is ${toHex(endHash.hash)}`,
    );
  }

  return {
    name,
    version: 6,
    hapiVersion,
    blockNumber,
    previousHash: start.hash,
    hash: endHash.hash,
    fileHash: sha384(bytes),
    metadataHash: computeMetadataHashV6(hapiVersion, start.hash, endHash.hash, blockNumber),
    sizeBytes,
    items,
    sidecars,
  };
}

function readSidecarMetadata(reader: WireReader, outerEnd: number): SidecarMetadata {
  const end = reader.lengthDelimitedEnd(outerEnd);
  const saved = reader.context;
  reader.context = "sidecars";
  let hash: HashObject | null = null;
  let id = 0;
  const types: number[] = [];
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field === 1) {
      reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
      hash = readHashObject(reader, end, "sidecar hash");
    } else if (field === 2) {
      reader.expectWireType(tag, WIRE_VARINT);
      id = reader.int32(end);
    } else if (field === 3 && (tag & 7) === WIRE_VARINT) {
      types.push(reader.int32(end));
    } else if (field === 3 && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      const packedEnd = reader.lengthDelimitedEnd(end);
      while (reader.pos < packedEnd) types.push(reader.int32(packedEnd));
    } else {
      reader.skip(tag & 7, end);
    }
  }
  if (hash === null) reader.fail(`sidecar ${id} has no hash`);
  reader.context = saved;
  return { id, hash: hash.hash, types };
}

/** The v6 metadata hash that signature files sign; a missing HAPI version counts as 0.0.0 (proto3). */
export function computeMetadataHashV6(
  hapiVersion: HapiVersion | null,
  startHash: Uint8Array,
  endHash: Uint8Array,
  blockNumber: bigint,
): Buffer {
  const fixed = new DataView(new ArrayBuffer(16));
  fixed.setInt32(0, 6);
  fixed.setInt32(4, hapiVersion?.major ?? 0);
  fixed.setInt32(8, hapiVersion?.minor ?? 0);
  fixed.setInt32(12, hapiVersion?.patch ?? 0);
  const block = new DataView(new ArrayBuffer(8));
  block.setBigInt64(0, blockNumber);
  return createHash("sha384")
    .update(new Uint8Array(fixed.buffer))
    .update(startHash)
    .update(endHash)
    .update(new Uint8Array(block.buffer))
    .digest();
}

function readSemanticVersion(reader: WireReader, outerEnd: number): HapiVersion {
  const end = reader.lengthDelimitedEnd(outerEnd);
  const saved = reader.context;
  reader.context = "hapi_proto_version";
  const version = { major: 0, minor: 0, patch: 0 };
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field >= 1 && field <= 3) {
      reader.expectWireType(tag, WIRE_VARINT);
      const value = reader.int32(end);
      if (field === 1) version.major = value;
      else if (field === 2) version.minor = value;
      else version.patch = value;
    } else {
      reader.skip(tag & 7, end);
    }
  }
  reader.context = saved;
  return version;
}

function readHashObject(reader: WireReader, outerEnd: number, what: string): HashObject {
  const end = reader.lengthDelimitedEnd(outerEnd);
  const saved = reader.context;
  reader.context = what;
  let algorithm = 0;
  let hash: Uint8Array | null = null;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field === 1) {
      reader.expectWireType(tag, WIRE_VARINT);
      algorithm = reader.int32(end);
    } else if (field === 3) {
      reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
      hash = reader.lengthDelimited(end);
    } else {
      reader.skip(tag & 7, end);
    }
  }
  if (hash === null || hash.length !== HASH_LENGTH) {
    reader.fail(
      `hash is ${hash === null ? "missing" : `${hash.length} bytes`}, expected ${HASH_LENGTH} bytes`,
    );
  }
  reader.context = saved;
  // A copy, so a chain tip kept after the file does not pin the whole file's memory.
  return { algorithm, hash: hash.slice() };
}

function readItem(reader: WireReader, outerEnd: number, index: number): RecordItem {
  const end = reader.lengthDelimitedEnd(outerEnd);
  const saved = reader.context;
  reader.context = `record stream item ${index}`;
  let transactionBytes: Uint8Array | null = null;
  let recordBytes: Uint8Array | null = null;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field === 1) {
      reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
      transactionBytes = reader.lengthDelimited(end);
    } else if (field === 2) {
      reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
      recordBytes = reader.lengthDelimited(end);
    } else {
      reader.skip(tag & 7, end);
    }
  }
  if (transactionBytes === null) reader.fail("no transaction");
  if (recordBytes === null) reader.fail("no record");
  assertWellFormedMessage(reader.name, transactionBytes, `Transaction of item ${index}`);
  assertWellFormedMessage(reader.name, recordBytes, `TransactionRecord of item ${index}`);
  reader.context = saved;
  return { transactionBytes, recordBytes };
}

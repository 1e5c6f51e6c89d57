/**
 * Writes genuine record stream v6 files, as a consensus node does when it closes a block: int32 6, then a
 * `RecordStreamFile` with hapi_proto_version, start/end `HashObject` (SHA_384, length 48), the items and
 * block_number. Used to build fixtures; `readRecordFile` reads the output like any real file.
 *
 * Items are embedded as the exact bytes given, so the running hash (computed over those bytes) matches what
 * a reader recomputes. Fields are written in field-number order with proto3 defaults omitted, as the Java
 * protobuf runtime does; for a file without sidecars this reproduces a node's bytes exactly.
 */
import { gzipDeterministic } from "./gzip.ts";
import { WireWriter } from "./protobuf-wire.ts";
import { computeMetadataHashV6, HASH_ALGORITHM_SHA_384 } from "./record-v6.ts";
import { HASH_LENGTH, runningHashOverItems, sha384 } from "./running-hash.ts";
import type { HapiVersion, RecordFileV6Input, WrittenRecordFile } from "./types.ts";

const VERSION_6 = Uint8Array.from([0, 0, 0, 6]);

/** Encodes one v6 record file from what a node decides when it closes it, with its hashes. */
export function writeRecordFileV6(input: RecordFileV6Input): WrittenRecordFile {
  if (input.startRunningHash.length !== HASH_LENGTH) {
    throw new RangeError(
      `startRunningHash is ${input.startRunningHash.length} bytes, expected ${HASH_LENGTH}`,
    );
  }
  const endRunningHash = runningHashOverItems(input.startRunningHash, input.items);

  const file = new WireWriter()
    .bytesField(1, encodeSemanticVersion(input.hapiVersion))
    .bytesField(2, encodeHashObject(input.startRunningHash));
  for (const item of input.items) {
    file.bytesField(
      3,
      new WireWriter().bytesField(1, item.transactionBytes).bytesField(2, item.recordBytes).finish(),
    );
  }
  file.bytesField(4, encodeHashObject(endRunningHash));
  if (input.blockNumber !== 0n) file.varintField(5, input.blockNumber);

  const message = file.finish();
  const bytes = new Uint8Array(VERSION_6.length + message.length);
  bytes.set(VERSION_6, 0);
  bytes.set(message, VERSION_6.length);
  return {
    bytes,
    gzipBytes: gzipDeterministic(bytes),
    endRunningHash,
    fileHash: sha384(bytes),
    metadataHash: computeMetadataHashV6(
      input.hapiVersion,
      input.startRunningHash,
      endRunningHash,
      input.blockNumber,
    ),
  };
}

function encodeSemanticVersion(version: HapiVersion): Uint8Array {
  const writer = new WireWriter();
  if (version.major !== 0) writer.varintField(1, version.major);
  if (version.minor !== 0) writer.varintField(2, version.minor);
  if (version.patch !== 0) writer.varintField(3, version.patch);
  return writer.finish();
}

function encodeHashObject(hash: Uint8Array): Uint8Array {
  return new WireWriter()
    .varintField(1, HASH_ALGORITHM_SHA_384)
    .varintField(2, HASH_LENGTH)
    .bytesField(3, hash)
    .finish();
}

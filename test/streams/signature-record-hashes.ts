/**
 * Test helpers: where the real stream files live, and the hashes a signature file signs, recomputed here
 * from a record file's bytes (the record-file readers are tested on their own).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";

export const REAL_STREAMS = new URL("../../fixtures/real/", import.meta.url);
export const FIXTURE_KEYS = new URL("../../fixtures/keys/", import.meta.url);

export function readReal(relativePath: string): Buffer {
  return readFileSync(new URL(relativePath, REAL_STREAMS));
}

/** Paths (relative to fixtures/real/) of every file under `folder` whose name ends with `suffix`, sorted. */
export function listReal(folder: string, suffix: string): string[] {
  const entries = readdirSync(new URL(folder, REAL_STREAMS), { recursive: true, encoding: "utf8" });
  return entries
    .filter((entry) => entry.endsWith(suffix))
    .map((entry) => `${folder}${entry}`)
    .sort();
}

export function sha384(...parts: Uint8Array[]): Buffer {
  const hash = createHash("sha384");
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** The uncompressed bytes of a record file beside a signature file (`x.rcd_sig` → `x.rcd` or `x.rcd.gz`). */
export function readRecordFor(signaturePath: string): Buffer {
  const recordPath = signaturePath.replace(/_sig$/, "");
  return recordPath.includes("v6/") ? gunzipSync(readReal(`${recordPath}.gz`)) : readReal(recordPath);
}

const V2_HEADER_BYTES = 4 + 4 + 1 + 48; // version, HAPI version, previous-hash marker, previous hash
const V5_HASH_OBJECT_BYTES = 8 + 4 + 4 + 4 + 48; // class id, class version, digest type, length, digest
const V5_METADATA_HEAD_BYTES = 4 + 12 + 4 + V5_HASH_OBJECT_BYTES; // version, HAPI, stream version, start hash

/** The file hash and metadata hash a node signs for a record file of the given version. */
export function signedHashes(
  version: 2 | 5 | 6,
  bytes: Uint8Array,
): { fileHash: Buffer; metadataHash: Buffer | null } {
  if (version === 2) {
    // v2 signs SHA-384(header || SHA-384(body)), not the plain file hash.
    const header = bytes.subarray(0, V2_HEADER_BYTES);
    return { fileHash: sha384(header, sha384(bytes.subarray(V2_HEADER_BYTES))), metadataHash: null };
  }
  if (version === 5) {
    const head = bytes.subarray(0, V5_METADATA_HEAD_BYTES);
    const endHashObject = bytes.subarray(bytes.length - V5_HASH_OBJECT_BYTES);
    return { fileHash: sha384(bytes), metadataHash: sha384(head, endHashObject) };
  }
  const file = proto.RecordStreamFile.decode(bytes.subarray(4));
  const metadata = Buffer.alloc(4 * 4 + 48 + 48 + 8);
  metadata.writeInt32BE(6, 0);
  metadata.writeInt32BE(file.hapiProtoVersion?.major ?? 0, 4);
  metadata.writeInt32BE(file.hapiProtoVersion?.minor ?? 0, 8);
  metadata.writeInt32BE(file.hapiProtoVersion?.patch ?? 0, 12);
  metadata.set(file.startObjectRunningHash?.hash ?? [], 16);
  metadata.set(file.endObjectRunningHash?.hash ?? [], 64);
  metadata.writeBigInt64BE(toBigInt(file.blockNumber), 112);
  return { fileHash: sha384(bytes), metadataHash: sha384(metadata) };
}

export function versionOfPath(path: string): 2 | 5 | 6 {
  if (/(^|\/)v2\//.test(path) || path.startsWith("balances/")) return 2;
  if (/(^|\/)v5(-contracts)?\//.test(path)) return 5;
  if (/(^|\/)v6\//.test(path)) return 6;
  throw new Error(`no version known for ${path}`);
}

/** A copy of `bytes` with the byte at `index` XOR-ed with `mask`. */
export function flipByte(bytes: Uint8Array, index: number, mask = 0x01): Buffer {
  const copy = Buffer.from(bytes);
  copy[index] = (copy[index] ?? 0) ^ mask;
  return copy;
}

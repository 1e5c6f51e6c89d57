/**
 * Sidecar files of v6 record files (HIP-435): `sidecar/<record file name without .rcd[.gz]>_<id, 2 digits>.rcd.gz`
 * beside the record file, a gzip of a `SidecarFile` protobuf (no version prefix) whose SHA-384 over the
 * decompressed bytes is the hash the record file lists for it. Each `TransactionSidecarRecord` belongs to the
 * record item with the same consensus timestamp: contract state changes, actions and bytecode.
 */
import { CorruptFileError } from "../errors.ts";
import { timestampToNs } from "../time.ts";
import { FileTooLargeError, gunzipBounded, MAX_DECOMPRESSED_BYTES, TOO_LARGE_HINT } from "./decompress.ts";
import { bytesEqual, toHex } from "./hex.ts";
import { proto } from "./proto.ts";
import { sha384 } from "./running-hash.ts";
import type { SidecarMetadata } from "./types.ts";

/** The folder beside the record files that holds their sidecars. */
export const SIDECAR_FOLDER = "sidecar";

/** The sidecar records of one record file, by consensus time. */
export type SidecarRecords = ReadonlyMap<bigint, readonly proto.ITransactionSidecarRecord[]>;

/** The sidecar file's name (inside `sidecar/`) for sidecar `id` of record file `recordName`. */
export function sidecarFileName(recordName: string, id: number): string {
  const base = recordName.replace(/\.rcd(\.gz)?$/, "");
  return `${base}_${String(id).padStart(2, "0")}.rcd.gz`;
}

/**
 * Reads one sidecar file's bytes as on disk: gunzips them (bounded), checks them against the hash the record file
 * lists and decodes the records. Any failure is a CorruptFileError naming `name` and what was expected.
 */
export function readSidecarFile(
  name: string,
  bytes: Uint8Array,
  metadata: SidecarMetadata,
  maxBytes = MAX_DECOMPRESSED_BYTES,
): proto.TransactionSidecarRecord[] {
  return decodeSidecarContent(name, checkedSidecarContent(name, bytes, metadata, maxBytes));
}

/**
 * The first half of `readSidecarFile`: the sidecar file's decompressed bytes, checked against the hash the record
 * file lists (a reader thread does this ahead of the ingest thread, which decodes them).
 */
export function checkedSidecarContent(
  name: string,
  bytes: Uint8Array,
  metadata: SidecarMetadata,
  maxBytes = MAX_DECOMPRESSED_BYTES,
): Uint8Array {
  let content: Uint8Array;
  try {
    content = gunzipBounded(bytes, maxBytes);
  } catch (error) {
    if (error instanceof FileTooLargeError)
      throw new CorruptFileError(name, `${error.message}${TOO_LARGE_HINT}`, { cause: error });
    const reason = error instanceof Error ? error.message : String(error);
    throw new CorruptFileError(name, `bad gzip: ${reason}; expected a complete gzip stream`, {
      cause: error,
    });
  }
  const hash = sha384(content);
  if (!bytesEqual(hash, metadata.hash)) {
    throw new CorruptFileError(
      name,
      `sidecar hash mismatch: the file hashes to ${toHex(hash)}, but its record file lists ${toHex(metadata.hash)}`,
    );
  }
  return content;
}

/** The second half of `readSidecarFile`: the records of a checked sidecar file's content. */
export function decodeSidecarContent(name: string, content: Uint8Array): proto.TransactionSidecarRecord[] {
  try {
    return proto.SidecarFile.decode(content).sidecarRecords as proto.TransactionSidecarRecord[];
  } catch (cause) {
    throw new CorruptFileError(name, `SidecarFile does not decode: ${(cause as Error).message}`, { cause });
  }
}

/** Groups sidecar records by their consensus time, in the order read. */
export function groupSidecarRecords(records: readonly proto.ITransactionSidecarRecord[]): SidecarRecords {
  const byTime = new Map<bigint, proto.ITransactionSidecarRecord[]>();
  for (const record of records) {
    const t = timestampToNs(record.consensusTimestamp);
    const list = byTime.get(t);
    if (list === undefined) byTime.set(t, [record]);
    else list.push(record);
  }
  return byTime;
}

/**
 * A block made ready to apply, in a form that crosses threads cheaply: everything the index needs from a block
 * file (its number, root, chain values, proof) and its transactions as the records the record path would have
 * read, serialized. Preparing is the costly, index-free part of block ingest (decompression, the root hash,
 * grouping, the transformers), so a reader thread can do it for the next blocks while the ingest thread applies
 * the current one (ingest/block-reader.ts). The records travel as the protobuf bytes a record file would hold:
 * one transferable buffer, decoded on the ingest thread exactly as record file items are.
 */
import { type BlockFile, type BlockProofInfo, readBlockFile } from "./block-file.ts";
import { type SerializedRecords, serializeRecords } from "./block-record-bytes.ts";
import { blockRecordParts } from "./block-records.ts";
import type { HapiVersion } from "./types.ts";

export type { SerializedRecords };

/** What a block's file says about the block, beside its transactions. */
export type PreparedBlockHead = {
  /** The path below the block folder it was read from (errors reading it name it). */
  path: string;
  /** The name it is indexed and chained under (the mirror node's name for it). */
  name: string;
  number: bigint;
  hapiVersion: HapiVersion;
  /** The recomputed root hash (48 bytes). */
  hash: Uint8Array;
  /** The footer's previous block root (48 bytes). */
  previousHash: Uint8Array;
  sizeBytes: number;
  consensusStart: bigint;
  consensusEnd: bigint;
  proof: BlockProofInfo;
};

/**
 * A block read and transformed. A block whose file reads but whose transactions cannot be turned into records
 * carries the error instead of its records: the chain is checked first, as when a block is read and applied in
 * one go, so a block out of chain is reported as such even when its content is also bad.
 */
export type PreparedBlock = PreparedBlockHead & { records: SerializedRecords | Error };

/**
 * Reads the file bytes of block `path` (named `name` once read), recomputes its root and turns its transactions
 * into serialized records. Throws `CorruptFileError` naming `path` when the file does not read as a block.
 */
export function prepareBlock(
  path: string,
  name: string,
  fileBytes: Uint8Array,
  maxBytes: number,
): PreparedBlock {
  const block = { ...readBlockFile(path, fileBytes, maxBytes), name };
  let records: SerializedRecords | Error;
  try {
    records = serializeRecords(blockRecordParts(block));
  } catch (error) {
    records = error instanceof Error ? error : new Error(String(error));
  }
  return { ...headOf(path, block), records };
}

function headOf(path: string, block: BlockFile): PreparedBlockHead {
  return {
    path,
    name: block.name,
    number: block.number,
    hapiVersion: block.hapiVersion,
    hash: block.hash,
    previousHash: block.previousHash,
    sizeBytes: block.sizeBytes,
    consensusStart: block.consensusStart,
    consensusEnd: block.consensusEnd,
    proof: block.proof,
  };
}

/** The buffers a `PreparedBlock` can hand over to another thread instead of copying them. */
export function transferablesOf(block: PreparedBlock): ArrayBuffer[] {
  if (block.records instanceof Error) return [];
  const { records, bodies, recordEnds, bodyEnds, sidecars } = block.records;
  return [
    records.buffer,
    bodies.buffer,
    recordEnds.buffer,
    bodyEnds.buffer,
    sidecars.buffer,
  ] as ArrayBuffer[];
}

/** Bytes a prepared block holds (what the reader's look-ahead budget counts). */
export function preparedBytes(block: PreparedBlock): number {
  if (block.records instanceof Error) return 0;
  const { records, bodies, recordEnds, bodyEnds, sidecars } = block.records;
  return records.length + bodies.length + recordEnds.byteLength + bodyEnds.byteLength + sidecars.length;
}

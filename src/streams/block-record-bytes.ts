/**
 * A block's records in bytes: the form in which they cross from the block reader thread to the ingest thread
 * (streams/prepared-block.ts). They travel as the `TransactionRecord` bytes a record file would hold, in one
 * transferable buffer, and are decoded on the ingest thread exactly as record file items are.
 */
import protobuf from "protobufjs/minimal.js";
import { CorruptFileError } from "../errors.ts";
import type { BlockRecord, BlockRecordParts } from "./block-records.ts";
import { proto } from "./proto.ts";
import { WIRE_LENGTH_DELIMITED } from "./protobuf-wire.ts";

/** A block's records, serialized (see `serializeRecords`). */
export type SerializedRecords = {
  /** Every record's `TransactionRecord` bytes, one after the other. */
  records: Uint8Array;
  /** Every transaction's `TransactionBody` bytes, one after the other. */
  bodies: Uint8Array;
  /** Record i is `records[recordEnds[i-1], recordEnds[i])` (from 0 for the first); bodies likewise. */
  recordEnds: Int32Array;
  bodyEnds: Int32Array;
  /** Each body's `data` member (`"tokenMint"`…), as the reader found it. */
  bodyCases: Array<string | undefined>;
  /** `accountEthereumNonce` of the records that carry one, by index. */
  ethereumNonces: Array<[number, bigint]>;
  /** Every record's rebuilt sidecar records, as one `SidecarFile` (empty: none). */
  sidecars: Uint8Array;
};

/**
 * Serializes records into two buffers (records, bodies), each written once, and their boundaries. A record is its
 * transformed fields followed by the fields copied from the block as they are.
 */
export function serializeRecords(list: readonly BlockRecordParts[]): SerializedRecords {
  const writer = protobuf.Writer.create();
  const recordEnds = new Int32Array(list.length);
  const bodyEnds = new Int32Array(list.length);
  const bodyCases = new Array<string | undefined>(list.length);
  const ethereumNonces: Array<[number, bigint]> = [];
  const sidecarRecords: proto.ITransactionSidecarRecord[] = [];
  let bodyBytes = 0;
  for (let i = 0; i < list.length; i++) {
    const record = list[i]!;
    // A record's fields written straight after the previous record's: no length prefix, no copy per record.
    proto.TransactionRecord.encode(record.record, writer);
    for (const raw of record.rawFields)
      writer.uint32((raw.field << 3) | WIRE_LENGTH_DELIMITED).bytes(raw.bytes);
    recordEnds[i] = writer.len;
    bodyBytes += record.bodyBytes.length;
    bodyEnds[i] = bodyBytes;
    bodyCases[i] = record.bodyCase;
    if (record.accountEthereumNonce !== undefined) ethereumNonces.push([i, record.accountEthereumNonce]);
    if (record.sidecars !== undefined) sidecarRecords.push(...record.sidecars);
  }
  const bodies = new Uint8Array(bodyBytes);
  let at = 0;
  for (const record of list) {
    bodies.set(record.bodyBytes, at);
    at += record.bodyBytes.length;
  }
  // A fresh buffer of its own (not a slice of protobufjs's pool), so that it can be transferred whole.
  const written = writer.finish();
  const records = new Uint8Array(written.length);
  records.set(written);
  const sidecars =
    sidecarRecords.length === 0
      ? new Uint8Array()
      : Uint8Array.from(proto.SidecarFile.encode({ sidecarRecords }).finish());
  return { records, bodies, recordEnds, bodyEnds, bodyCases, ethereumNonces, sidecars };
}

/** The rebuilt sidecar records of a block's records (see `SerializedRecords.sidecars`). */
export function deserializeSidecars(
  name: string,
  serialized: SerializedRecords,
): proto.TransactionSidecarRecord[] {
  if (serialized.sidecars.length === 0) return [];
  try {
    return proto.SidecarFile.decode(serialized.sidecars).sidecarRecords as proto.TransactionSidecarRecord[];
  } catch (cause) {
    throw new CorruptFileError(name, `rebuilt sidecar records do not decode: ${(cause as Error).message}`, {
      cause,
    });
  }
}

/**
 * The records again, decoded as record file items are (bodies are views into the buffer: no copies). Throws
 * `CorruptFileError` naming block `name` when a record does not decode: its copied fields come from the block
 * unread.
 */
export function deserializeRecords(name: string, serialized: SerializedRecords): BlockRecord[] {
  const { records, bodies, recordEnds, bodyEnds, bodyCases } = serialized;
  const list = new Array<BlockRecord>(recordEnds.length);
  let recordStart = 0;
  let bodyStart = 0;
  for (let i = 0; i < recordEnds.length; i++) {
    const recordEnd = recordEnds[i]!;
    const bodyEnd = bodyEnds[i]!;
    let record: proto.TransactionRecord;
    try {
      record = proto.TransactionRecord.decode(records.subarray(recordStart, recordEnd));
    } catch (cause) {
      throw new CorruptFileError(name, `a transaction result does not decode: ${(cause as Error).message}`, {
        cause,
      });
    }
    list[i] = { bodyBytes: bodies.subarray(bodyStart, bodyEnd), bodyCase: bodyCases[i], record };
    recordStart = recordEnd;
    bodyStart = bodyEnd;
  }
  for (const [index, nonce] of serialized.ethereumNonces) list[index]!.accountEthereumNonce = nonce;
  return list;
}

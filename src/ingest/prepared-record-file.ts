/**
 * A record file made ready to apply, in a form that crosses threads cheaply: everything reading it costs (reading
 * the file and its signature and sidecar files, gunzip, the running hash and file hash, the sidecar hash checks,
 * finding each transaction's body) is done, by the reader thread ahead of the ingest thread (file-reader.ts), and
 * what the ingest thread needs travels as a few transferable buffers, not as an object per transaction.
 *
 * Errors keep the order in which reading a file in one go meets them: a file that does not read is the error of
 * the whole; a signature file or a sidecar that does not read is carried and thrown by the ingest thread where it
 * used to be met (the signature before the chain check, sidecars after it); a transaction whose body is not found
 * is left for the ingest thread to look at again, where it fails with the same message as before.
 */
import { join } from "node:path";
import { CorruptFileError } from "../errors.ts";
import { FileTooLargeError, readFileBounded, TOO_LARGE_HINT } from "../streams/decompress.ts";
import { readRecordFile } from "../streams/read-record-file.ts";
import { transactionBodyBytes } from "../streams/transaction-body-bytes.ts";
import type { RecordFile, RecordItem } from "../streams/types.ts";
import { signatureNameOf } from "./files.ts";
import { readSidecarContents, type SidecarContents, type SidecarMode } from "./sidecars.ts";

/** Every item's bytes, one after the other, with where each ends. */
export type PackedItems = {
  /** Every item's serialized `Transaction`, one after the other; item i ends at `transactionEnds[i]`. */
  transactions: Uint8Array;
  /** Every item's serialized `TransactionRecord`; item i ends at `recordEnds[i]`. */
  records: Uint8Array;
  transactionEnds: Int32Array;
  recordEnds: Int32Array;
  /**
   * Where item i's `TransactionBody` lies within `transactions` (`bodyStarts[i]` to `bodyEnds[i]`); -1 when it
   * was not found (the ingest thread looks again, and fails naming the item).
   */
  bodyStarts: Int32Array;
  bodyEnds: Int32Array;
};

/** What the reader makes of a record file (its items aside, the `RecordFile` as read). */
export type PreparedRecordFile = {
  head: Omit<RecordFile, "items">;
  items: PackedItems;
  /** The signature file's bytes (what reading it threw); null when signatures are not checked. */
  signature: Uint8Array | Error | null;
  sidecars: SidecarContents;
};

export type RecordReadOptions = {
  /** The most bytes a file may hold, on disk or decompressed (`--max-file-mb`). */
  maxFileBytes: number;
  sidecars: SidecarMode;
  /** Read each record file's signature file too (`--verify-signatures`). */
  signatures: boolean;
};

/** A stream file's bytes (`path` below `dir`), refused unread (as corrupt, naming `path`) when larger than the bound. */
export function readBounded(dir: string, path: string, maxFileBytes: number): Uint8Array {
  try {
    return readFileBounded(join(dir, path), maxFileBytes);
  } catch (error) {
    if (!(error instanceof FileTooLargeError)) throw error;
    throw new CorruptFileError(path, `${error.message}${TOO_LARGE_HINT}`, { cause: error });
  }
}

/**
 * Record file `name` in `dir`, read and checked (see `readRecordFile`) with its signature and sidecar files. Throws
 * what reading the record file itself throws (`CorruptFileError` naming it, or an I/O error).
 */
export function prepareRecordFile(dir: string, name: string, options: RecordReadOptions): PreparedRecordFile {
  const read = (path: string) => readBounded(dir, path, options.maxFileBytes);
  const { items, ...head } = readRecordFile(name, read(name), options.maxFileBytes);
  let signature: Uint8Array | Error | null = null;
  if (options.signatures) {
    try {
      signature = read(signatureNameOf(name));
    } catch (error) {
      signature = error instanceof Error ? error : new Error(String(error));
    }
  }
  const sidecars = readSidecarContents(dir, { ...head, items }, options.sidecars, read);
  return { head, items: packItems(items), signature, sidecars };
}

/** The items in two fresh buffers (so that each can be transferred whole), with each body located. */
export function packItems(items: readonly RecordItem[]): PackedItems {
  let transactionBytes = 0;
  let recordBytes = 0;
  for (const item of items) {
    transactionBytes += item.transactionBytes.length;
    recordBytes += item.recordBytes.length;
  }
  const packed: PackedItems = {
    transactions: new Uint8Array(transactionBytes),
    records: new Uint8Array(recordBytes),
    transactionEnds: new Int32Array(items.length),
    recordEnds: new Int32Array(items.length),
    bodyStarts: new Int32Array(items.length),
    bodyEnds: new Int32Array(items.length),
  };
  let transactionAt = 0;
  let recordAt = 0;
  for (let i = 0; i < items.length; i++) {
    const { transactionBytes: transaction, recordBytes: record } = items[i]!;
    packed.transactions.set(transaction, transactionAt);
    packed.records.set(record, recordAt);
    const [start, end] = bodyWithin(transaction);
    packed.bodyStarts[i] = start < 0 ? -1 : transactionAt + start;
    packed.bodyEnds[i] = start < 0 ? -1 : transactionAt + end;
    transactionAt += transaction.length;
    recordAt += record.length;
    packed.transactionEnds[i] = transactionAt;
    packed.recordEnds[i] = recordAt;
  }
  return packed;
}

/** Where the transaction's body lies within its bytes ([0, 0] for an empty one); [-1, -1] when it is not found. */
function bodyWithin(transaction: Uint8Array): [number, number] {
  let body: Uint8Array;
  try {
    body = transactionBodyBytes(transaction);
  } catch {
    return [-1, -1];
  }
  if (body.length === 0) return [0, 0];
  const start = body.byteOffset - transaction.byteOffset;
  // Always a view into the transaction's bytes; anything else is looked for again by the ingest thread.
  if (body.buffer !== transaction.buffer || start < 0 || start + body.length > transaction.length)
    return [-1, -1];
  return [start, start + body.length];
}

/** The record file again, its items views into the packed buffers, each with its body when it was found. */
export function recordFileOf(prepared: PreparedRecordFile): RecordFile {
  const { transactions, records, transactionEnds, recordEnds, bodyStarts, bodyEnds } = prepared.items;
  const items = new Array<RecordItem>(transactionEnds.length);
  let transactionAt = 0;
  let recordAt = 0;
  for (let i = 0; i < items.length; i++) {
    const transactionEnd = transactionEnds[i]!;
    const recordEnd = recordEnds[i]!;
    const bodyStart = bodyStarts[i]!;
    const item: RecordItem = {
      transactionBytes: transactions.subarray(transactionAt, transactionEnd),
      recordBytes: records.subarray(recordAt, recordEnd),
    };
    if (bodyStart >= 0) item.bodyBytes = transactions.subarray(bodyStart, bodyEnds[i]!);
    items[i] = item;
    transactionAt = transactionEnd;
    recordAt = recordEnd;
  }
  return { ...prepared.head, items };
}

/** The buffers a prepared record file hands over to another thread instead of copying them. */
export function recordTransferables(prepared: PreparedRecordFile): ArrayBuffer[] {
  const { items, sidecars } = prepared;
  const buffers = new Set<ArrayBuffer>([
    items.transactions.buffer as ArrayBuffer,
    items.records.buffer as ArrayBuffer,
    items.transactionEnds.buffer as ArrayBuffer,
    items.recordEnds.buffer as ArrayBuffer,
    items.bodyStarts.buffer as ArrayBuffer,
    items.bodyEnds.buffer as ArrayBuffer,
  ]);
  // Sidecar contents are gunzip's own buffers, one per sidecar file (never a pooled slice: gunzip allocates).
  for (const { content } of sidecars.files) {
    if (content.byteOffset === 0 && content.byteLength === content.buffer.byteLength)
      buffers.add(content.buffer as ArrayBuffer);
  }
  return [...buffers];
}

/** Bytes a prepared record file holds (what the reader's look-ahead budget counts). */
export function preparedRecordBytes(prepared: PreparedRecordFile): number {
  const { items, sidecars } = prepared;
  let bytes = items.transactions.length + items.records.length + items.transactionEnds.byteLength * 4;
  for (const { content } of sidecars.files) bytes += content.length;
  return bytes;
}

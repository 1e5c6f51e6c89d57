/**
 * The reader thread: reads and prepares the stream files the ingest thread asks for, in the order asked, and posts
 * each back, so that the ingest thread applies one file while the next are prepared. A block is read,
 * decompressed, checked, root-hashed and transformed (streams/prepared-block.ts); a record file is read with its
 * signature and sidecar files, gunzipped, hashed and its transactions' bodies found (prepared-record-file.ts).
 * Nothing here touches the index: the chain is checked, and every file applied, by the ingest thread in order
 * (block-reader.ts is its side).
 *
 * Memory stays bounded: the ingest thread asks for a few files ahead only, and the reader starts no file while
 * the prepared files posted and not yet taken hold more than the budget (counted in shared memory).
 */
import { join } from "node:path";
import { CorruptFileError } from "../errors.ts";
import { FileTooLargeError, readFileBounded, TOO_LARGE_HINT } from "../streams/decompress.ts";
import {
  type PreparedBlock,
  type PreparedBlockHead,
  prepareBlock,
  preparedBytes,
  type SerializedRecords,
  transferablesOf,
} from "../streams/prepared-block.ts";
import { blockDisplayName, blockNumberOf } from "./block-files.ts";
import {
  type PreparedRecordFile,
  preparedRecordBytes,
  prepareRecordFile,
  type RecordReadOptions,
  recordTransferables,
} from "./prepared-record-file.ts";
import type { SidecarMode } from "./sidecars.ts";
import { fromThreadError, type ThreadError, toThreadError } from "./thread-errors.ts";

/** Which folder a requested file is in, and so how it is read. */
export type FileKind = "record" | "block";

/** A stream file prepared, whichever its kind. */
export type PreparedFile =
  | { kind: "block"; block: PreparedBlock }
  | { kind: "record"; file: PreparedRecordFile };

/** Where files are read from and within which bounds (the reader thread's and the ingest thread's alike). */
export type ReadSettings = {
  /** The block stream folder; block requests name paths below it (null: none). */
  blocksDir: string | null;
  /** The record stream folder; record requests name files in it (null: none). */
  recordsDir: string | null;
  /** The most bytes a file may hold on disk (`--max-file-mb`), and a record file decompressed. */
  maxFileBytes: number;
  /** The most bytes a block may hold uncompressed. */
  maxBlockBytes: number;
  /** Sidecar files of record files (`--sidecars`). */
  sidecars: SidecarMode;
  /** Read each record file's signature file (`--verify-signatures`). */
  signatures: boolean;
};

/** What the ingest thread hands the reader thread. */
export type BlockReaderData = ReadSettings & {
  /** Prepared files posted and not taken may hold this many KiB before the reader waits. */
  budgetKib: number;
  /** Int32 slots shared with the ingest thread (see `SIGNAL`). */
  signal: SharedArrayBuffer;
};

/** Slots of `BlockReaderData.signal`. */
export const SIGNAL = {
  /** Results posted so far: the ingest thread waits on it for the next one. */
  posted: 0,
  /** KiB of prepared blocks posted and not yet taken (or dropped) by the ingest thread. */
  heldKib: 1,
  /** Results the ingest thread took or dropped so far: the reader waits on it while over budget. */
  taken: 2,
} as const;
export const SIGNAL_SLOTS = 3;

/** Ingest thread → reader. Ids increase; `drop` forgets every request up to `upTo` not yet started. */
export type BlockReaderRequest =
  | { type: "read"; id: number; kind: FileKind; path: string }
  | { type: "drop"; upTo: number };

/** A prepared block as it crosses threads: records that could not be derived travel as their error. */
export type WireBlock = PreparedBlockHead & { records: SerializedRecords | { error: ThreadError } };

/** A prepared record file as it crosses threads: what could not be read travels as its error. */
export type WireRecordFile = Omit<PreparedRecordFile, "signature" | "sidecars"> & {
  signature: Uint8Array | { error: ThreadError } | null;
  sidecars: { files: PreparedRecordFile["sidecars"]["files"]; error: ThreadError | null };
};

export type WireFile = { kind: "block"; block: WireBlock } | { kind: "record"; file: WireRecordFile };

/** Reader → ingest thread, one per request not dropped, in request order. */
export type BlockReaderResult =
  | { id: number; ok: true; file: WireFile; heldKib: number }
  | { id: number; ok: false; error: ThreadError; heldKib: 0 };

/** The side of a message channel the reader talks through. */
export type BlockReaderPort = {
  postMessage(message: BlockReaderResult, transfer?: ArrayBuffer[]): void;
  on(event: "message", listener: (request: BlockReaderRequest) => void): unknown;
};

/**
 * Block `path` below `dir`, read (bounded on disk by `maxFileBytes`) and prepared. Throws `CorruptFileError`
 * naming `path` when it does not read as a block; other I/O errors (a file removed meanwhile) as they are.
 */
export function readAndPrepareBlock(
  dir: string,
  path: string,
  limits: { maxFileBytes: number; maxBlockBytes: number },
): PreparedBlock {
  let bytes: Uint8Array;
  try {
    bytes = readFileBounded(join(dir, path), limits.maxFileBytes);
  } catch (error) {
    if (!(error instanceof FileTooLargeError)) throw error;
    throw new CorruptFileError(path, `${error.message}${TOO_LARGE_HINT}`, { cause: error });
  }
  return prepareBlock(path, blockDisplayName(path, blockNumberOf(path)), bytes, limits.maxBlockBytes);
}

/** File `path` of `kind`, read and prepared (see `readAndPrepareBlock` and `prepareRecordFile`). */
export function readAndPrepare(settings: ReadSettings, kind: FileKind, path: string): PreparedFile {
  const dir = kind === "block" ? settings.blocksDir : settings.recordsDir;
  if (dir === null) throw new Error(`no ${kind} folder to read ${path} from`);
  if (kind === "block") return { kind, block: readAndPrepareBlock(dir, path, settings) };
  return { kind, file: prepareRecordFile(dir, path, recordReadOptions(settings)) };
}

function recordReadOptions(settings: ReadSettings): RecordReadOptions {
  return {
    maxFileBytes: settings.maxFileBytes,
    sidecars: settings.sidecars,
    signatures: settings.signatures,
  };
}

/** A prepared file ready to post, the buffers it hands over, and the bytes it holds. */
function toWire(prepared: PreparedFile): { file: WireFile; transfer: ArrayBuffer[]; bytes: number } {
  if (prepared.kind === "block") {
    const { block } = prepared;
    return {
      file: { kind: "block", block: toWireBlock(block) },
      transfer: transferablesOf(block),
      bytes: preparedBytes(block),
    };
  }
  const { file } = prepared;
  const { signature, sidecars } = file;
  const wire: WireRecordFile = {
    ...file,
    signature: signature instanceof Error ? { error: toThreadError(signature) } : signature,
    sidecars: {
      files: sidecars.files,
      error: sidecars.error === null ? null : toThreadError(sidecars.error),
    },
  };
  return {
    file: { kind: "record", file: wire },
    transfer: recordTransferables(file),
    bytes: preparedRecordBytes(file),
  };
}

/** A posted file as the ingest thread takes it: errors made again, of the class they were. */
export function fromWire(file: WireFile): PreparedFile {
  if (file.kind === "block") {
    const { records } = file.block;
    return {
      kind: "block",
      block: { ...file.block, records: "error" in records ? fromThreadError(records.error) : records },
    };
  }
  const { signature, sidecars } = file.file;
  return {
    kind: "record",
    file: {
      ...file.file,
      signature:
        signature === null || signature instanceof Uint8Array ? signature : fromThreadError(signature.error),
      sidecars: {
        files: sidecars.files,
        error: sidecars.error === null ? null : fromThreadError(sidecars.error),
      },
    },
  };
}

/** `block` ready to post. */
export function toWireBlock(block: PreparedBlock): WireBlock {
  const { records } = block;
  return { ...block, records: records instanceof Error ? { error: toThreadError(records) } : records };
}

type AtomicsWithWaitAsync = typeof Atomics & {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs?: number,
  ): { async: false; value: string } | { async: true; value: Promise<string> };
};

/**
 * Runs the reader on `port` until its thread is terminated. Requests are served one at a time, in order; the
 * event loop turns between blocks, so that a `drop` is seen before the next block is started.
 */
export function runBlockReader(data: BlockReaderData, port: BlockReaderPort): void {
  const signal = new Int32Array(data.signal);
  const queue: Array<{ id: number; kind: FileKind; path: string }> = [];
  let running = false;

  const overBudget = () => Atomics.load(signal, SIGNAL.heldKib) >= data.budgetKib;

  const serve = (request: { id: number; kind: FileKind; path: string }): void => {
    let result: BlockReaderResult;
    let transfer: ArrayBuffer[] = [];
    try {
      const wire = toWire(readAndPrepare(data, request.kind, request.path));
      const heldKib = Math.ceil(wire.bytes / 1024);
      result = { id: request.id, ok: true, file: wire.file, heldKib };
      transfer = wire.transfer;
      Atomics.add(signal, SIGNAL.heldKib, heldKib);
    } catch (error) {
      result = { id: request.id, ok: false, error: toThreadError(error), heldKib: 0 };
    }
    port.postMessage(result, transfer);
    // After the message is queued: a waiting ingest thread that wakes up finds it.
    Atomics.add(signal, SIGNAL.posted, 1);
    Atomics.notify(signal, SIGNAL.posted);
  };

  const drain = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        while (overBudget() && queue.length > 0) {
          const taken = Atomics.load(signal, SIGNAL.taken);
          const wait = (Atomics as AtomicsWithWaitAsync).waitAsync(signal, SIGNAL.taken, taken, 1000);
          if (wait.async) await wait.value;
          // Requests dropped meanwhile are gone from the queue once the event loop turns.
          await new Promise((resolve) => setImmediate(resolve));
        }
        const request = queue.shift();
        if (request === undefined) break;
        serve(request);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      running = false;
    }
  };

  port.on("message", (request: BlockReaderRequest) => {
    if (request.type === "read") queue.push({ id: request.id, kind: request.kind, path: request.path });
    else {
      const keep = queue.filter((queued) => queued.id > request.upTo);
      queue.length = 0;
      queue.push(...keep);
    }
    void drain();
  });
}

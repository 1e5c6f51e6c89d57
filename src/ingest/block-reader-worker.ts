/**
 * The block reader thread: reads, decompresses, checks, root-hashes and transforms the blocks the ingest thread
 * asks for, in the order asked, and posts each prepared block back (streams/prepared-block.ts), so that the
 * ingest thread applies one block while the next are prepared. Nothing here touches the index: the chain is
 * checked, and every block applied, by the ingest thread in order (block-reader.ts is its side).
 *
 * Memory stays bounded: the ingest thread asks for a few blocks ahead only, and the reader starts no block while
 * the prepared blocks posted and not yet taken hold more than the budget (counted in shared memory).
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
import { type ThreadError, toThreadError } from "./thread-errors.ts";

/** What the ingest thread hands the reader thread. */
export type BlockReaderData = {
  /** The block stream folder; requests name paths below it. */
  dir: string;
  /** The most bytes a block file may hold on disk (`--max-file-mb`). */
  maxFileBytes: number;
  /** The most bytes a block may hold uncompressed. */
  maxBlockBytes: number;
  /** Prepared blocks posted and not taken may hold this many KiB before the reader waits. */
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
export type BlockReaderRequest = { type: "read"; id: number; path: string } | { type: "drop"; upTo: number };

/** A prepared block as it crosses threads: records that could not be derived travel as their error. */
export type WireBlock = PreparedBlockHead & { records: SerializedRecords | { error: ThreadError } };

/** Reader → ingest thread, one per request not dropped, in request order. */
export type BlockReaderResult =
  | { id: number; ok: true; block: WireBlock; heldKib: number }
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
  const limits = { maxFileBytes: data.maxFileBytes, maxBlockBytes: data.maxBlockBytes };
  const queue: Array<{ id: number; path: string }> = [];
  let running = false;

  const overBudget = () => Atomics.load(signal, SIGNAL.heldKib) >= data.budgetKib;

  const serve = (request: { id: number; path: string }): void => {
    let result: BlockReaderResult;
    let transfer: ArrayBuffer[] = [];
    try {
      const block = readAndPrepareBlock(data.dir, request.path, limits);
      const heldKib = Math.ceil(preparedBytes(block) / 1024);
      result = { id: request.id, ok: true, block: toWireBlock(block), heldKib };
      transfer = transferablesOf(block);
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
    if (request.type === "read") queue.push({ id: request.id, path: request.path });
    else {
      const keep = queue.filter((queued) => queued.id > request.upTo);
      queue.length = 0;
      queue.push(...keep);
    }
    void drain();
  });
}

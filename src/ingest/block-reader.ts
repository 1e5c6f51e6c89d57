/**
 * The ingest thread's side of block reading: blocks are prepared (read, decompressed, checked, root-hashed and
 * transformed, see streams/prepared-block.ts) by a reader thread a few blocks ahead of the one being applied,
 * and taken here in order. The ingest thread stays synchronous, as file application is: it takes a result with
 * `receiveMessageOnPort` and sleeps on a shared counter while the next one is not ready, never on the event
 * loop. Nothing about the index changes: the chain is checked and each block applied by the caller, in order,
 * and a block that does not read surfaces here as the same error, naming the same file, as when read in place.
 *
 * Without a reader thread (it could not start, or stopped answering) blocks are prepared on the ingest thread
 * itself: slower, never different.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Logger } from "../log.ts";
import { blockReaderWorkerSource } from "../runtime/assets.ts";
import type { PreparedBlock } from "../streams/prepared-block.ts";
import { AbandonedError } from "./apply.ts";
import {
  type BlockReaderData,
  type BlockReaderRequest,
  type BlockReaderResult,
  readAndPrepareBlock,
  SIGNAL,
  SIGNAL_SLOTS,
  type WireBlock,
} from "./block-reader-worker.ts";
import { fromThreadError } from "./thread-errors.ts";

export type BlockReader = {
  /** The blocks the next `take`s will ask for, in order: the reader starts on the first few now. */
  plan(paths: readonly string[]): void;
  /**
   * Block `path` prepared (waiting for the reader thread when it is not yet). Throws what reading it threw
   * (`CorruptFileError` naming the path…); `AbandonedError` when a stop is asked for while waiting.
   */
  take(path: string): PreparedBlock;
  /** Ends the reader thread. */
  close(): void;
};

export type BlockReaderOptions = {
  dir: string;
  maxFileBytes: number;
  maxBlockBytes: number;
  log: Logger;
  shouldStop?: () => boolean;
  /** Prepare blocks on a reader thread (default) or on the calling thread. */
  thread?: boolean;
};

/**
 * Blocks asked for ahead of the one being taken. Two keep the reader busy while a block is applied (preparing
 * one costs well under what applying it does); a few more absorb blocks of uneven size.
 */
export const LOOK_AHEAD_BLOCKS = 4;
/**
 * Prepared blocks waiting to be taken may hold this much before the reader starts no other: memory stays within
 * this plus the block being prepared (itself bounded by `--max-file-mb`). Mainnet blocks are a few MB.
 */
export const LOOK_AHEAD_BYTES = 32 * 1024 * 1024;
/** How long the ingest thread sleeps at a time while waiting, so that a stop is seen promptly. */
const WAIT_SLICE_MS = 50;
/**
 * A reader that has posted nothing for this long while a block is awaited is taken to be gone (a thread can die
 * without a word, e.g. out of memory): the block is prepared here instead. Preparing a block takes milliseconds
 * to a second or two for the largest.
 */
const STALL_MS = 60_000;

type Pending = { id: number; path: string };

export function createBlockReader(options: BlockReaderOptions): BlockReader {
  const { dir, log } = options;
  const limits = { maxFileBytes: options.maxFileBytes, maxBlockBytes: options.maxBlockBytes };
  const prepareHere = (path: string) => readAndPrepareBlock(dir, path, limits);

  let thread: {
    worker: Worker;
    port: MessagePort;
    signal: Int32Array;
    /** Set once the thread failed or exited: blocks are prepared here from then on. */
    gone: boolean;
  } | null = null;
  let planned: readonly string[] = [];
  /** Requested from the reader and not yet taken, in order. */
  let pending: Pending[] = [];
  /** Results received for pending requests, by id. */
  const received = new Map<number, BlockReaderResult>();
  let nextId = 1;

  const start = (): typeof thread => {
    if (options.thread === false) return null;
    try {
      const source = blockReaderWorkerSource();
      const channel = new MessageChannel();
      const signal = new SharedArrayBuffer(SIGNAL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
      const data: BlockReaderData = {
        dir,
        ...limits,
        budgetKib: LOOK_AHEAD_BYTES / 1024,
        signal,
      };
      const worker = new Worker(source.kind === "file" ? source.url : source.code, {
        eval: source.kind === "eval",
        workerData: { ...data, port: channel.port2 },
        transferList: [channel.port2],
        // The reader keeps only the blocks it prepares; its heap bounds a hostile block too (past it the thread
        // dies, and blocks are prepared on the ingest thread, under that thread's own cap).
        resourceLimits: { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 512 },
      });
      // Never what keeps the ingest thread alive: it ends when the ingest worker finishes.
      worker.unref();
      const started = { worker, port: channel.port1, signal: new Int32Array(signal), gone: false };
      const lost = (why: string) => {
        if (started.gone) return;
        started.gone = true;
        log.warn({ reason: why }, "the block reader thread stopped; blocks are read on the ingest thread");
      };
      worker.on("error", (error) => lost(error.message));
      worker.on("exit", (code) => lost(`exited with code ${code}`));
      return started;
    } catch (error) {
      log.warn(
        { reason: (error as Error).message },
        "no block reader thread; blocks are read on the ingest thread",
      );
      return null;
    }
  };

  const usable = () => thread !== null && !thread.gone;

  /** What the reader posted so far: results of pending requests kept, others (dropped) released at once. */
  const receive = (): void => {
    if (thread === null) return;
    for (let message = receiveMessageOnPort(thread.port); message !== undefined; ) {
      const result = message.message as BlockReaderResult;
      if (pending.some((p) => p.id === result.id)) received.set(result.id, result);
      else release(result);
      message = receiveMessageOnPort(thread.port);
    }
  };

  /** Gives a result's bytes back to the reader's budget. */
  const release = (result: BlockReaderResult): void => {
    if (thread === null) return;
    if (result.heldKib > 0) Atomics.sub(thread.signal, SIGNAL.heldKib, result.heldKib);
    Atomics.add(thread.signal, SIGNAL.taken, 1);
    Atomics.notify(thread.signal, SIGNAL.taken);
  };

  /** Forgets every request not taken: their results are released as they arrive. */
  const dropPending = (): void => {
    if (thread === null || pending.length === 0) return;
    const upTo = pending.at(-1)!.id;
    thread.port.postMessage({ type: "drop", upTo } satisfies BlockReaderRequest);
    for (const result of received.values()) release(result);
    received.clear();
    pending = [];
  };

  /** Asks for the planned blocks after the last one pending, up to the look-ahead. */
  const topUp = (from: number): void => {
    if (!usable()) return;
    for (let at = from + pending.length; at < planned.length && pending.length < LOOK_AHEAD_BLOCKS; at++) {
      const request = { id: nextId++, path: planned[at]! };
      pending.push(request);
      thread!.port.postMessage({ type: "read", ...request } satisfies BlockReaderRequest);
    }
  };

  /** Waits for the result of `request`; null when the reader is gone (or stalled) and the block is read here. */
  const await_ = (request: Pending): BlockReaderResult | null => {
    const started = performance.now();
    for (;;) {
      const seen = Atomics.load(thread!.signal, SIGNAL.posted);
      receive();
      const result = received.get(request.id);
      if (result !== undefined) return result;
      if (thread!.gone) return null;
      if (options.shouldStop?.()) throw new AbandonedError(request.path);
      if (performance.now() - started > STALL_MS) {
        log.warn(
          { file: request.path },
          "the block reader thread does not answer; blocks are read on the ingest thread",
        );
        thread!.gone = true;
        void thread!.worker.terminate();
        return null;
      }
      Atomics.wait(thread!.signal, SIGNAL.posted, seen, WAIT_SLICE_MS);
    }
  };

  return {
    plan(paths) {
      dropPending();
      planned = [...paths];
      if (planned.length === 0) return;
      thread ??= start();
      topUp(0);
    },
    take(path) {
      if (!usable()) return prepareHere(path);
      let at = planned.indexOf(path);
      if (pending[0]?.path !== path) {
        // Not the block asked for next (a group is tried again, or applied without a plan): start over from it.
        dropPending();
        if (at < 0) {
          planned = [path];
          at = 0;
        }
        topUp(at);
      }
      const request = pending[0]!;
      const result = await_(request);
      if (result === null) {
        dropPending();
        return prepareHere(path);
      }
      pending.shift();
      received.delete(request.id);
      release(result);
      topUp(at + 1);
      if (!result.ok) throw fromThreadError(result.error);
      return fromWireBlock(result.block);
    },
    close() {
      if (thread === null) return;
      thread.gone = true;
      void thread.worker.terminate();
      thread.port.close();
    },
  };
}

function fromWireBlock(block: WireBlock): PreparedBlock {
  const { records } = block;
  return { ...block, records: "error" in records ? fromThreadError(records.error) : records };
}

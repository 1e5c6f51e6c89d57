/**
 * The ingest thread's side of reading stream files: blocks and record files are prepared (blocks read,
 * decompressed, checked, root-hashed and transformed, see streams/prepared-block.ts; record files read with their
 * signature and sidecar files, gunzipped and hashed, see prepared-record-file.ts) by a reader thread a few files
 * ahead of the one being applied, and taken here in order. The ingest thread stays synchronous, as file application is: it takes a result with
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
  type FileKind,
  fromWire,
  type PreparedFile,
  type ReadSettings,
  readAndPrepare,
  SIGNAL,
  SIGNAL_SLOTS,
} from "./block-reader-worker.ts";
import type { PreparedRecordFile } from "./prepared-record-file.ts";
import { fromThreadError } from "./thread-errors.ts";

export type FileReader = {
  /** The files the next `take`s will ask for, in order: the reader starts on the first few now. */
  plan(kind: FileKind, paths: readonly string[]): void;
  /**
   * Block `path` prepared (waiting for the reader thread when it is not yet). Throws what reading it threw
   * (`CorruptFileError` naming the path…); `AbandonedError` when a stop is asked for while waiting.
   */
  takeBlock(path: string): PreparedBlock;
  /** The same for record file `name`. */
  takeRecord(name: string): PreparedRecordFile;
  /** Ends the reader thread. */
  close(): void;
};

export type FileReaderOptions = Omit<ReadSettings, "sidecars" | "signatures"> &
  Partial<Pick<ReadSettings, "sidecars" | "signatures">> & {
    log: Logger;
    shouldStop?: () => boolean;
    /** Prepare files on a reader thread (default) or on the calling thread. */
    thread?: boolean;
  };

/** A block reader alone (what the block path used before record files were read ahead too). */
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
 * Record files asked for ahead: they are smaller than blocks (two seconds of transactions each) and come in
 * larger numbers, so the reader is kept further ahead; the byte budget bounds memory all the same.
 */
export const LOOK_AHEAD_RECORD_FILES = 16;
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

type Pending = { id: number; kind: FileKind; path: string };

export function createBlockReader(options: BlockReaderOptions): BlockReader {
  const { dir, ...rest } = options;
  const reader = createFileReader({ ...rest, blocksDir: dir, recordsDir: null });
  return {
    plan: (paths) => reader.plan("block", paths),
    take: (path) => reader.takeBlock(path),
    close: () => reader.close(),
  };
}

export function createFileReader(options: FileReaderOptions): FileReader {
  const { log } = options;
  const settings: ReadSettings = {
    blocksDir: options.blocksDir,
    recordsDir: options.recordsDir,
    maxFileBytes: options.maxFileBytes,
    maxBlockBytes: options.maxBlockBytes,
    sidecars: options.sidecars ?? "optional",
    signatures: options.signatures ?? false,
  };
  const prepareHere = (kind: FileKind, path: string) => readAndPrepare(settings, kind, path);

  let thread: {
    worker: Worker;
    port: MessagePort;
    signal: Int32Array;
    /** Set once the thread failed or exited: blocks are prepared here from then on. */
    gone: boolean;
  } | null = null;
  let plannedKind: FileKind = "block";
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
        ...settings,
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
        log.warn({ reason: why }, "the reader thread stopped; files are read on the ingest thread");
      };
      worker.on("error", (error) => lost(error.message));
      worker.on("exit", (code) => lost(`exited with code ${code}`));
      return started;
    } catch (error) {
      log.warn({ reason: (error as Error).message }, "no reader thread; files are read on the ingest thread");
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

  /** Asks for the planned files after the last one pending, up to the look-ahead. */
  const topUp = (from: number): void => {
    if (!usable()) return;
    const lookAhead = plannedKind === "block" ? LOOK_AHEAD_BLOCKS : LOOK_AHEAD_RECORD_FILES;
    for (let at = from + pending.length; at < planned.length && pending.length < lookAhead; at++) {
      const request = { id: nextId++, kind: plannedKind, path: planned[at]! };
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
          "the reader thread does not answer; files are read on the ingest thread",
        );
        thread!.gone = true;
        void thread!.worker.terminate();
        return null;
      }
      Atomics.wait(thread!.signal, SIGNAL.posted, seen, WAIT_SLICE_MS);
    }
  };

  const take = (kind: FileKind, path: string): PreparedFile => {
    if (!usable()) return prepareHere(kind, path);
    let at = plannedKind === kind ? planned.indexOf(path) : -1;
    if (pending[0]?.path !== path || pending[0]?.kind !== kind) {
      // Not the file asked for next (a group is tried again, or applied without a plan): start over from it.
      dropPending();
      if (at < 0) {
        plannedKind = kind;
        planned = [path];
        at = 0;
      }
      topUp(at);
    }
    const request = pending[0]!;
    const result = await_(request);
    if (result === null) {
      dropPending();
      return prepareHere(kind, path);
    }
    pending.shift();
    received.delete(request.id);
    release(result);
    topUp(at + 1);
    if (!result.ok) throw fromThreadError(result.error);
    return fromWire(result.file);
  };

  return {
    plan(kind, paths) {
      dropPending();
      plannedKind = kind;
      planned = [...paths];
      if (planned.length === 0) return;
      thread ??= start();
      topUp(0);
    },
    takeBlock(path) {
      const prepared = take("block", path);
      if (prepared.kind !== "block") throw new Error(`${path} was read as a ${prepared.kind}`);
      return prepared.block;
    },
    takeRecord(name) {
      const prepared = take("record", name);
      if (prepared.kind !== "record") throw new Error(`${name} was read as a ${prepared.kind}`);
      return prepared.file;
    },
    close() {
      if (thread === null) return;
      thread.gone = true;
      void thread.worker.terminate();
      thread.port.close();
    },
  };
}

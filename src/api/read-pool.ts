/**
 * The read-worker pool: the front's way to answer what its response cache does not have, without running a
 * query on its own thread. Each worker (read-worker.ts) has its own read-only connection and route table; the
 * front sends it a job and gets back rendered bytes or a failure.
 *
 * - A job waits in a queue (bounded by count and bytes: beyond that it is answered `unavailable` at once) until
 *   a worker has room; each worker holds at most `PIPELINE` jobs, answering them in order, so that it never
 *   idles while an answer travels back. Jobs go out once per turn of the event loop, all those a worker takes
 *   in one message: the requests that one read from the sockets cost one message, not one each.
 * - The deadline (`queryTimeoutMs`): a job running longer than that on its worker costs the worker. The job is
 *   answered `timeout`, the jobs queued behind it on that worker go back to the front of the queue, and the
 *   worker is terminated and replaced at once. A job that waits longer than the deadline for its turn (in the
 *   queue, or behind others on a worker) while workers are busy is answered `timeout` too, without costing
 *   any worker (as a pool connection that never comes); while every worker is still starting (replacements),
 *   it may wait up to three deadlines.
 * - Termination takes effect when SQLite hands control back to JavaScript: between rows for a statement that
 *   calls a JavaScript function, otherwise when the statement ends. Until then the old thread keeps its core;
 *   at most as many such threads as the pool has workers are kept, after which a replacement waits for one of
 *   them to end, so no input can grow the number of threads.
 * - A worker that dies on its own (a crash) fails its running job (500) and is replaced; jobs queued behind it
 *   go back to the queue.
 */
import { Worker } from "node:worker_threads";
import type { Logger } from "../log.ts";
import { readWorkerSource } from "../runtime/assets.ts";
import {
  failureOf,
  fromWireOutcome,
  type ReadJob,
  type ReadOutcome,
  type ReadWorkerCommand,
  type ReadWorkerMessage,
  toWireJob,
  type WireJob,
} from "./read-protocol.ts";
import type { ReadWorkerData } from "./read-worker.ts";

/** What the front needs from the pool (tests may give another answerer). */
export type ReadAnswerer = {
  /** Resolves with the job's outcome; never rejects. */
  run(job: ReadJob): Promise<ReadOutcome>;
};

export type ReadPoolStats = {
  /** Workers that answer jobs (starting ones included). */
  workers: number;
  /** Workers with at least one job. */
  busy: number;
  /** Jobs waiting for a worker. */
  queued: number;
  /** Terminated workers whose thread has not ended yet (inside a long native SQLite call). */
  retiring: number;
  /** Jobs answered `timeout` since start (running past the deadline, or waiting that long). */
  timeouts: number;
  /** Workers replaced since start (after a timeout or a crash). */
  restarts: number;
  /** Jobs refused because the queue was full. */
  rejected: number;
};

export type ReadPool = ReadAnswerer & {
  /** Resolves once every worker has opened the index; rejects when one cannot (start-up failure). */
  readonly ready: Promise<void>;
  stats(): ReadPoolStats;
  /** Answers queued jobs `unavailable` and ends every worker. Idempotent. */
  close(): Promise<void>;
};

export type ReadPoolOptions = {
  workers: number;
  /** The deadline of one job on its worker, and of its wait for one, in ms. */
  queryTimeoutMs: number;
  data: ReadWorkerData;
  log: Logger;
  /** Most jobs waiting for a worker (default 10,000). */
  maxQueued?: number;
  /** Most bytes of URLs and bodies waiting for a worker (default 64 MiB). */
  maxQueuedBytes?: number;
  /**
   * The clock deadlines are measured on (ms, monotonic; default `performance.now`): tests move it on instead of
   * waiting, so that a loaded machine cannot make a query look late or early.
   */
  now?: () => number;
};

/**
 * Jobs one worker holds at once: the one it runs and those already in its message queue, so that it has work
 * while the front is busy writing answers and reading requests (2 measured about 10% fewer answers per second
 * than 8 with one worker under wrk). Those not started when the worker is replaced go back to the queue.
 */
const PIPELINE = 8;

type Pending = {
  readonly id: number;
  readonly job: ReadJob;
  readonly bytes: number;
  readonly resolve: (outcome: ReadOutcome) => void;
  /** When it entered the queue (ms, monotonic). */
  readonly queuedAt: number;
  /** Answered already (a wait past the deadline while still in a worker's hands): its result is dropped. */
  settled: boolean;
};

/** Answers a job once; a later outcome for it (its worker's, after a timeout) is dropped. */
function settle(pending: Pending, outcome: ReadOutcome): void {
  if (pending.settled) return;
  pending.settled = true;
  pending.resolve(outcome);
}

type Slot = {
  readonly worker: Worker;
  ready: boolean;
  /** Jobs sent to this worker, in the order it answers them: the first is the one it runs. */
  readonly inFlight: Pending[];
  /** Since when the first job in flight has been running (ms, monotonic). */
  headSince: number;
  /** Terminated (timeout) or dead: whatever it still sends is ignored. */
  gone: boolean;
};

export function createReadPool(options: ReadPoolOptions): ReadPool {
  const { queryTimeoutMs, data, log } = options;
  const size = Math.max(1, Math.floor(options.workers));
  const maxQueued = options.maxQueued ?? 10_000;
  const maxQueuedBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? (() => performance.now());
  const source = readWorkerSource(data.routeModules.some((module) => /\.[cm]?ts$/.test(module)));
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let queuedBytes = 0;
  let nextId = 1;
  let retiring = 0;
  let timeouts = 0;
  let restarts = 0;
  let rejected = 0;
  let closed = false;
  /** Replacements owed: spawned when a retiring thread ends. */
  let owed = 0;

  let startsPending = size;
  let resolveReady!: () => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // A caller that stops before awaiting `ready` must not see an unhandled rejection.
  ready.catch(() => {});
  let started = false;

  const spawn = (): void => {
    const worker = new Worker(source.kind === "file" ? source.url : source.code, {
      eval: source.kind === "eval",
      workerData: data,
    });
    const slot: Slot = { worker, ready: false, inFlight: [], headSince: 0, gone: false };
    slots.push(slot);
    worker.on("message", (message: ReadWorkerMessage) => onMessage(slot, message));
    worker.on("error", (error) => {
      if (!slot.gone) log.error({ err: error }, "read worker failed");
    });
    worker.on("exit", (code) => onExit(slot, code));
  };

  const onMessage = (slot: Slot, message: ReadWorkerMessage): void => {
    if (slot.gone) return;
    switch (message.type) {
      case "ready":
        slot.ready = true;
        if (!started && --startsPending === 0) {
          started = true;
          resolveReady();
        }
        dispatch();
        return;
      case "start-failed":
        if (!started) rejectReady(new Error(`a read worker cannot open the index: ${message.reason}`));
        else log.error({ reason: message.reason }, "a read worker could not start");
        return;
      case "done": {
        for (const wire of message.results) {
          const head = slot.inFlight[0];
          if (head === undefined || head.id !== wire[0]) break;
          slot.inFlight.shift();
          settle(head, fromWireOutcome(wire));
        }
        slot.headSince = now();
        scheduleDispatch();
        return;
      }
    }
  };

  /** Takes a worker out of the pool; the jobs it had not started go back first in line, in their order. */
  const remove = (slot: Slot): void => {
    slot.gone = true;
    const at = slots.indexOf(slot);
    if (at !== -1) slots.splice(at, 1);
    const waiting = slot.inFlight.splice(0).slice(1);
    for (const pending of waiting.reverse()) if (!pending.settled) requeue(pending);
  };

  const onExit = (slot: Slot, code: number): void => {
    if (slot.gone) {
      // A terminated worker's thread has ended: its core is free again.
      retiring--;
      if (owed > 0 && !closed) {
        owed--;
        spawn();
      }
      return;
    }
    const head = slot.inFlight[0];
    remove(slot);
    if (closed) return;
    if (!slot.ready && !started) {
      rejectReady(new Error(`a read worker exited with code ${code} while starting`));
      return;
    }
    log.error({ code }, "a read worker exited; starting another");
    if (head !== undefined)
      settle(head, {
        ok: false,
        failure: {
          kind: "unexpected",
          name: "ReadWorkerExit",
          message: `the read worker exited with code ${code}`,
          stack: undefined,
          code: undefined,
        },
      });
    restarts++;
    // A worker that died before it could answer anything would die again at once: wait before the next.
    if (slot.ready) spawn();
    else setTimeout(() => !closed && spawn(), 1000).unref();
    dispatch();
  };

  const requeue = (pending: Pending): void => {
    queue.unshift(pending);
    queuedBytes += pending.bytes;
  };

  /**
   * Dispatches once the event loop has run what it has in hand (the requests and answers read in this turn), so
   * that they leave in one message per worker.
   */
  let dispatchScheduled = false;
  const scheduleDispatch = (): void => {
    if (dispatchScheduled) return;
    dispatchScheduled = true;
    setImmediate(() => {
      dispatchScheduled = false;
      dispatch();
    });
  };

  /** Sends queued jobs to workers with room, the least loaded first; one message per worker. */
  const dispatch = (): void => {
    const batches = new Map<Slot, WireJob[]>();
    while (queue.length > 0) {
      let best: Slot | undefined;
      for (const slot of slots) {
        if (!slot.ready || slot.inFlight.length >= PIPELINE) continue;
        if (best === undefined || slot.inFlight.length < best.inFlight.length) best = slot;
        if (best.inFlight.length === 0) break;
      }
      if (best === undefined) break;
      const pending = queue.shift()!;
      queuedBytes -= pending.bytes;
      if (best.inFlight.length === 0) best.headSince = now();
      best.inFlight.push(pending);
      const wire = toWireJob(pending.id, pending.job);
      const batch = batches.get(best);
      if (batch === undefined) batches.set(best, [wire]);
      else batch.push(wire);
    }
    for (const [slot, jobs] of batches) send(slot, jobs);
  };

  /**
   * Posts jobs to a worker. A job whose parsed query cannot be cloned (a route whose `parse` returned a function
   * or a class instance: a bug) fails alone, answered 500, instead of staying in the worker's hands unanswered.
   */
  const send = (slot: Slot, jobs: WireJob[]): void => {
    try {
      slot.worker.postMessage({ type: "jobs", jobs } satisfies ReadWorkerCommand);
      return;
    } catch {
      // One by one below, to find the job that cannot travel.
    }
    for (const one of jobs) {
      try {
        slot.worker.postMessage({ type: "jobs", jobs: [one] } satisfies ReadWorkerCommand);
      } catch (error) {
        const at = slot.inFlight.findIndex((pending) => pending.id === one[0]);
        const [pending] = slot.inFlight.splice(at, 1);
        if (at === 0) slot.headSince = now();
        if (pending !== undefined) settle(pending, { ok: false, failure: failureOf(error) });
      }
    }
  };

  /** Times out what has waited or run past the deadline. */
  const sweep = (): void => {
    const instant = now();
    for (const slot of [...slots]) {
      const head = slot.inFlight[0];
      if (head === undefined || instant - slot.headSince < queryTimeoutMs) continue;
      log.warn(
        { template: head.job.template, url: head.job.request.url, timeoutMs: queryTimeoutMs },
        "a query ran past its deadline; replacing its read worker",
      );
      remove(slot);
      timeouts++;
      restarts++;
      settle(head, { ok: false, failure: { kind: "timeout" } });
      retiring++;
      void slot.worker.terminate();
      // Replace at once unless as many old threads are still busy ending as the pool has workers.
      if (retiring <= size) spawn();
      else owed++;
    }
    // Waiting is the job's own deadline only while some worker could have taken it; a pool whose workers are all
    // starting (replacements) gets longer, but not unbounded.
    const limit = slots.some((slot) => slot.ready) ? queryTimeoutMs : 3 * queryTimeoutMs;
    while (queue.length > 0 && instant - queue[0]!.queuedAt >= limit) {
      const pending = queue.shift()!;
      queuedBytes -= pending.bytes;
      timeouts++;
      settle(pending, { ok: false, failure: { kind: "timeout" } });
    }
    // Jobs behind another on a worker wait too: answered now, their worker's answer later dropped.
    for (const slot of slots) {
      for (const pending of slot.inFlight.slice(1)) {
        if (pending.settled || instant - pending.queuedAt < limit) continue;
        timeouts++;
        settle(pending, { ok: false, failure: { kind: "timeout" } });
      }
    }
    dispatch();
  };
  // Checks a few times per deadline: a job is answered at most a tenth of the deadline late (within 5–250 ms).
  const sweeper = setInterval(sweep, Math.min(250, Math.max(5, Math.floor(queryTimeoutMs / 10))));
  sweeper.unref();

  for (let i = 0; i < size; i++) spawn();

  return {
    ready,
    run(job) {
      if (closed) return Promise.resolve({ ok: false, failure: { kind: "unavailable" } });
      const body = (job.query as { body?: unknown } | null)?.body;
      const bytes = job.request.url.length + (body instanceof Uint8Array ? body.byteLength : 0);
      if (queue.length >= maxQueued || queuedBytes + bytes > maxQueuedBytes) {
        rejected++;
        return Promise.resolve({ ok: false, failure: { kind: "unavailable" } });
      }
      return new Promise((resolve) => {
        queue.push({ id: nextId++, job, bytes, resolve, queuedAt: now(), settled: false });
        queuedBytes += bytes;
        scheduleDispatch();
      });
    },
    stats: () => ({
      workers: slots.length,
      busy: slots.filter((slot) => slot.inFlight.length > 0).length,
      queued: queue.length,
      retiring,
      timeouts,
      restarts,
      rejected,
    }),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      for (const pending of queue.splice(0)) settle(pending, { ok: false, failure: { kind: "unavailable" } });
      queuedBytes = 0;
      const ending = slots.splice(0).map((slot) => {
        slot.gone = true;
        for (const pending of slot.inFlight.splice(0))
          settle(pending, { ok: false, failure: { kind: "unavailable" } });
        retiring++;
        return slot.worker.terminate();
      });
      if (!started) rejectReady(new Error("the read pool closed before it started"));
      await Promise.all(ending);
    },
  };
}

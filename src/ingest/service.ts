import { Worker } from "node:worker_threads";
import type { Logger } from "../log.ts";
import { ingestWorkerSource } from "../runtime/assets.ts";
import type {
  BalanceCheckMessage,
  IngestWorkerCommand,
  IngestWorkerData,
  IngestWorkerMessage,
} from "./messages.ts";
import { createProgressMeter, type Progress } from "./progress.ts";

/** What a commit notice tells besides the file: where the index now ends, which topics got messages. */
export type CommitInfo = {
  consensusEndNs: bigint;
  /** Encoded topic ids that received messages in this commit (none on later files of a group); null: many. */
  topics: bigint[] | null;
};

export type CommitListener = (file: string, blockNumber: bigint, info: CommitInfo) => void;

/**
 * `retrying`: a transient failure is tried again with backoff; `stopped`: a refused file waits to be replaced
 * (ingestion resumes by itself when it changes).
 */
export type IngestState = "catching-up" | "ready" | "retrying" | "stopped";

/** One comparison of a later balance snapshot with the indexed balances. */
export type BalanceCheck = {
  file: string;
  consensusNs: bigint;
  accounts: number;
  differences: number;
  examples: string[];
};

/** Where the hbar balances start and how the later snapshots compared (the most recent checks only). */
export type BalanceStatus = {
  start: { source: string; consensusNs: bigint } | null;
  snapshotsChecked: number;
  snapshotsDisagreeing: number;
  recentChecks: BalanceCheck[];
};

const RECENT_CHECKS = 10;

/** A comparison as the worker sends it, its instant back to a bigint. */
function checkOf(message: BalanceCheckMessage): BalanceCheck {
  return { ...message, consensusNs: BigInt(message.consensusNs) };
}

export type IngestStatus = {
  state: IngestState;
  /** Why ingestion stopped (null while it runs). */
  reason: string | null;
  /** The file that stopped ingestion, when one did. */
  file: string | null;
  lastBlock: bigint | null;
  lastFile: string | null;
  /** Consensus time of the last transaction of the last applied file, in ns since the epoch. */
  lastConsensusEndNs: bigint | null;
  /** The newest complete record file, or newest block, seen in the folders (applied or not). */
  newestFile: string | null;
  /** The consensus start of the last applied file (ns since the epoch). */
  lastConsensusStartNs: bigint | null;
  /** A newest block's header time (block names carry none; null for a record file, or when unread). */
  newestStartNs: bigint | null;
  /** The oldest file a pass planned to apply since the last commit (null once one is committed). */
  oldestPendingFile: string | null;
  /** While retrying: failed attempts so far, and the delay before the next one in ms. */
  retry: { attempts: number; retryInMs: number } | null;
  /** Files that stopped ingestion or crashed the worker since start-up. */
  errors: number;
  balances: BalanceStatus;
};

export type IngestService = {
  status(): IngestStatus;
  /** Totals since start-up, the current pace and what is left (see `Progress`). */
  progress(): Progress;
  /** Resolves once the worker has opened (and migrated) the database, so readers can open it. */
  readonly dbReady: Promise<void>;
  /**
   * Resolves when the files present at start are applied (with how many), or ingestion stopped trying
   * (null: `status()` says why).
   */
  readonly settled: Promise<{ files: number; transactions: number } | null>;
  /**
   * Resolves with one line saying what happened if the worker dies without being asked to stop (an uncaught
   * error, out of memory). A corrupt file is not a crash: the worker reports it and stays up.
   */
  readonly crashed: Promise<string>;
  /** Called after each committed record file (list caches refresh here, topic subscriptions read here). */
  onCommitted(listener: CommitListener): void;
  /**
   * Stops the worker: it abandons the rest of its pass (a file being applied rolls back) and closes the
   * database. After `graceMs` (default 4 s) the thread is terminated; SQLite's journal keeps the index whole.
   */
  stop(graceMs?: number): Promise<void>;
};

/** The worker could not open (or migrate) the index: a start-up failure, not a crash. */
export class DbOpenError extends Error {
  override readonly name = "DbOpenError";
}

export type IngestLimits = {
  /** Cap on the worker's old-generation heap in MB. */
  heapMb?: number;
  /** How often to log a progress line while catching up, in ms (default 5000). */
  progressLogMs?: number;
};

/** Starts the ingest worker thread and tracks what it reports, for readiness, metrics and cache refreshes. */
export function startIngestService(
  data: Omit<IngestWorkerData, "stopFlag">,
  log: Logger,
  limits: IngestLimits = {},
): IngestService {
  const stopFlag = new SharedArrayBuffer(4);
  const source = ingestWorkerSource();
  const worker = new Worker(source.kind === "file" ? source.url : source.code, {
    eval: source.kind === "eval",
    workerData: { ...data, stopFlag } satisfies IngestWorkerData,
    // Memory is budgeted (issue 11 asks 256 MB peak for a catch-up, both threads). Decoding and applying files
    // allocate fast, so the heap settings trade memory for garbage-collection work. The young generation is
    // resident: 48 MB keeps scavenges from promoting most short-lived objects; 24 MB would save about 25 MB of
    // peak RSS for about 20% more CPU. V8 grows the old generation to a multiple of what is live, a multiple that
    // shrinks with the limit (about 1.4x at 512 MB, 4x at the default of several GB). What the worker keeps live
    // is bounded (versioned caches of 10,000 rows per table, one commit group's held-back rows), far below the
    // limit; handlers that cache must bound their caches too. `--worker-heap-mb` sets another cap.
    resourceLimits: { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: limits.heapMb ?? 512 },
  });
  const status: IngestStatus = {
    state: "catching-up",
    reason: null,
    file: null,
    lastBlock: null,
    lastFile: null,
    lastConsensusEndNs: null,
    newestFile: null,
    lastConsensusStartNs: null,
    newestStartNs: null,
    oldestPendingFile: null,
    retry: null,
    errors: 0,
    balances: { start: null, snapshotsChecked: 0, snapshotsDisagreeing: 0, recentChecks: [] },
  };
  const meter = createProgressMeter();
  let filesLeft = 0;
  const listeners: CommitListener[] = [];
  let resolveDb!: () => void;
  let rejectDb!: (error: Error) => void;
  let resolveSettled!: (outcome: { files: number; transactions: number } | null) => void;
  let resolveCrashed!: (line: string) => void;
  const dbReady = new Promise<void>((resolve, reject) => {
    resolveDb = resolve;
    rejectDb = reject;
  });
  // A caller that never awaits dbReady (it failed later) must not see an unhandled rejection.
  dbReady.catch(() => {});
  const settled = new Promise<{ files: number; transactions: number } | null>((resolve) => {
    resolveSettled = resolve;
  });
  const crashed = new Promise<string>((resolve) => {
    resolveCrashed = resolve;
  });
  let exited = false;
  let stopping = false;

  let caughtUp = false;
  const stopWith = (file: string | null, reason: string, state: "stopped" | "retrying" = "stopped") => {
    if (status.state !== state || status.reason !== reason) status.errors += 1;
    status.state = state;
    status.file = file;
    status.reason = reason;
    if (state === "stopped") status.retry = null;
    resolveSettled(null);
  };

  const progressTimer = setInterval(() => {
    if (status.state !== "catching-up") return;
    const p = meter.snapshot(filesLeft);
    log.info(
      {
        filesPerSecond: p.filesPerSecond,
        transactionsPerSecond: p.transactionsPerSecond,
        filesLeft: p.filesLeft,
        etaSeconds: p.etaSeconds,
        lastFile: status.lastFile,
      },
      "catching up",
    );
  }, limits.progressLogMs ?? 5000);
  progressTimer.unref();

  worker.on("message", (message: IngestWorkerMessage) => {
    switch (message.type) {
      case "db-ready":
        resolveDb();
        break;
      case "db-failed":
        // Expected to end the worker: not reported as a crash, start-up fails with this reason instead.
        stopping = true;
        rejectDb(new DbOpenError(message.reason));
        stopWith(null, `cannot open the database: ${message.reason}`);
        break;
      case "planned":
        filesLeft = message.files;
        status.newestFile = message.newest;
        status.newestStartNs = message.newestStartNs === undefined ? null : BigInt(message.newestStartNs);
        status.oldestPendingFile ??= message.oldest;
        break;
      case "committed": {
        const blockNumber = BigInt(message.blockNumber);
        status.lastBlock = blockNumber;
        status.lastFile = message.file;
        status.lastConsensusEndNs = BigInt(message.consensusEnd);
        status.lastConsensusStartNs = BigInt(message.consensusStart);
        status.oldestPendingFile = null;
        if (filesLeft > 0) filesLeft -= 1;
        meter.committed(message.transactions);
        const info: CommitInfo = {
          consensusEndNs: status.lastConsensusEndNs,
          topics: message.topics === null ? null : message.topics.map((id) => BigInt(id)),
        };
        for (const listener of listeners) listener(message.file, blockNumber, info);
        break;
      }
      case "caught-up":
        caughtUp = true;
        if (status.state === "catching-up") status.state = "ready";
        resolveSettled({ files: message.files, transactions: message.transactions });
        break;
      case "stopped":
        stopWith(message.file, message.reason);
        break;
      case "retrying":
        stopWith(message.file, message.reason, "retrying");
        status.retry = { attempts: message.attempts, retryInMs: message.retryInMs };
        break;
      case "resumed":
        if (exited) break;
        status.state = caughtUp ? "ready" : "catching-up";
        status.file = null;
        status.reason = null;
        status.retry = null;
        break;
      case "balances-start":
        status.balances.start = { source: message.source, consensusNs: BigInt(message.consensusNs) };
        break;
      case "balances-checked": {
        const balances = status.balances;
        balances.snapshotsChecked += 1;
        if (message.differences > 0) balances.snapshotsDisagreeing += 1;
        const { type: _type, ...check } = message;
        balances.recentChecks = [...balances.recentChecks, checkOf(check)].slice(-RECENT_CHECKS);
        break;
      }
      case "balances-history":
        status.balances.snapshotsChecked = message.checked;
        status.balances.snapshotsDisagreeing = message.disagreeing;
        status.balances.recentChecks = message.recent.map(checkOf).slice(-RECENT_CHECKS);
        break;
    }
  });
  worker.on("error", (error) => {
    const line = `ingest worker crashed: ${error.message}`;
    rejectDb(error);
    stopWith(null, line);
    if (!stopping) resolveCrashed(line);
  });
  worker.on("exit", (code) => {
    exited = true;
    clearInterval(progressTimer);
    if (stopping) return;
    const line = `ingest worker exited unexpectedly (code ${code})`;
    rejectDb(new Error(line));
    if (status.state !== "stopped") stopWith(null, line);
    resolveCrashed(line);
  });

  return {
    status: () => ({ ...status, balances: { ...status.balances } }),
    progress: () => meter.snapshot(filesLeft),
    dbReady,
    settled,
    crashed,
    onCommitted: (listener) => listeners.push(listener),
    async stop(graceMs = 4000) {
      stopping = true;
      clearInterval(progressTimer);
      if (exited) return;
      const exit = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      // The flag reaches a worker busy applying files; the message reaches one idling between passes.
      Atomics.store(new Int32Array(stopFlag), 0, 1);
      worker.postMessage({ type: "stop" } satisfies IngestWorkerCommand);
      const timeout = setTimeout(() => {
        log.warn({ graceMs }, "ingest worker did not stop in time; terminating it");
        void worker.terminate();
      }, graceMs);
      await exit;
      clearTimeout(timeout);
    },
  };
}

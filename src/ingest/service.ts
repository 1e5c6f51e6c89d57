import { Worker } from "node:worker_threads";
import type { Logger } from "../log.ts";
import type { IngestWorkerCommand, IngestWorkerData, IngestWorkerMessage } from "./messages.ts";

export type IngestState = "catching-up" | "ready" | "stopped";

export type IngestStatus = {
  state: IngestState;
  /** Why ingestion stopped (null while it runs). */
  reason: string | null;
  /** The file that stopped ingestion, when one did. */
  file: string | null;
  lastBlock: bigint | null;
  lastFile: string | null;
};

export type IngestService = {
  status(): IngestStatus;
  /** Resolves once the worker has opened (and migrated) the database, so readers can open it. */
  readonly dbReady: Promise<void>;
  /**
   * Resolves when the files present at start are applied (with how many), or ingestion stopped trying
   * (null: `status()` says why).
   */
  readonly settled: Promise<{ files: number; transactions: number } | null>;
  /** Called after each committed record file (list caches refresh here). */
  onCommitted(listener: (file: string, blockNumber: bigint) => void): void;
  stop(): Promise<void>;
};

/** Starts the ingest worker thread and tracks what it reports, for readiness and cache refreshes. */
export function startIngestService(data: IngestWorkerData, log: Logger): IngestService {
  const worker = new Worker(new URL("./worker-bootstrap.mjs", import.meta.url), {
    workerData: data,
    // Memory is budgeted (issue 11 asks 256 MB peak for a catch-up, both threads). Decoding and applying files
    // allocate fast, so the heap settings trade memory for garbage-collection work. The young generation is
    // resident: 48 MB (was 256) keeps scavenges from promoting most short-lived objects; 24 MB would save about
    // 25 MB of peak RSS for about 20% more CPU. V8 grows the old generation to a multiple of what is live, a
    // multiple that shrinks with the limit (about 1.4x at 512 MB, 4x at the default of several GB). What the
    // worker keeps live is bounded (versioned caches of 10,000 rows per table, one commit group's held-back
    // rows), far below the limit; handlers that cache must bound their caches too.
    resourceLimits: { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 512 },
  });
  const status: IngestStatus = {
    state: "catching-up",
    reason: null,
    file: null,
    lastBlock: null,
    lastFile: null,
  };
  const listeners: Array<(file: string, blockNumber: bigint) => void> = [];
  let resolveDb!: () => void;
  let rejectDb!: (error: Error) => void;
  let resolveSettled!: (outcome: { files: number; transactions: number } | null) => void;
  const dbReady = new Promise<void>((resolve, reject) => {
    resolveDb = resolve;
    rejectDb = reject;
  });
  const settled = new Promise<{ files: number; transactions: number } | null>((resolve) => {
    resolveSettled = resolve;
  });
  let exited = false;

  const stopWith = (file: string | null, reason: string) => {
    status.state = "stopped";
    status.file = file;
    status.reason = reason;
    resolveSettled(null);
  };

  worker.on("message", (message: IngestWorkerMessage) => {
    switch (message.type) {
      case "db-ready":
        resolveDb();
        break;
      case "committed": {
        const blockNumber = BigInt(message.blockNumber);
        status.lastBlock = blockNumber;
        status.lastFile = message.file;
        for (const listener of listeners) listener(message.file, blockNumber);
        break;
      }
      case "caught-up":
        if (status.state === "catching-up") status.state = "ready";
        resolveSettled({ files: message.files, transactions: message.transactions });
        break;
      case "stopped":
        stopWith(message.file, message.reason);
        break;
    }
  });
  worker.on("error", (error) => {
    log.error({ err: error }, "ingest worker failed");
    rejectDb(error);
    stopWith(null, `ingest worker failed: ${error.message}`);
  });
  worker.on("exit", (code) => {
    exited = true;
    if (status.state !== "stopped" && code !== 0) stopWith(null, `ingest worker exited with code ${code}`);
  });

  return {
    status: () => ({ ...status }),
    dbReady,
    settled,
    onCommitted: (listener) => listeners.push(listener),
    async stop() {
      if (exited) return;
      const exit = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.postMessage({ type: "stop" } satisfies IngestWorkerCommand);
      // A worker busy applying a big file answers after that file commits; don't wait forever on shutdown.
      const timeout = setTimeout(() => void worker.terminate(), 10_000);
      await exit;
      clearTimeout(timeout);
    },
  };
}

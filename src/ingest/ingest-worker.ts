import { createLogger } from "../log.ts";
import { dropReadIndexes, restoreReadIndexes } from "../store/catch-up-indexes.ts";
import { type Db, openWriter } from "../store/db.ts";
import { createWalGuard } from "../store/wal-guard.ts";
import { createWriteStore } from "../store/write-store.ts";
import { AbandonedError } from "./apply.ts";
import { createBalanceSnapshots } from "./balance-snapshots.ts";
import { fingerprintOf, isRefusal, RETRY_BASE_MS, retryDelayMs, type Trouble } from "./healing.ts";
import { createIngestor } from "./ingestor.ts";
import type { IngestWorkerCommand, IngestWorkerData, IngestWorkerMessage } from "./messages.ts";
import { DEFAULT_SETTLE_MS } from "./settle.ts";
import { loadSignatureCheck } from "./signature-check.ts";
import { describeStop } from "./stop-reason.ts";
import { watchDirectory } from "./watcher.ts";

/** The side of a message channel the worker talks through (`parentPort` in a thread, a `MessageChannel` port in tests). */
export type IngestWorkerPort = {
  postMessage(message: IngestWorkerMessage): void;
  on(event: "message", listener: (command: IngestWorkerCommand) => void): unknown;
  close(): void;
};

export type IngestWorker = {
  /** Resolves once the files present at start are applied (or ingestion stopped, or a stop was asked for). */
  started: Promise<void>;
  /** Closes the database and the port (what the `stop` command does). */
  finish(): void;
};

const WRITER_CACHE_KIB = 16 * 1024;
const MIN_BACKLOG_FOR_DROPPED_INDEXES = 20;

/**
 * The ingest worker: the only writer of the index. It applies the files present at start, reports that it has
 * caught up, then follows the directory until it is told to stop or a file cannot be applied. All its state
 * lives in this call, so a test can run it in its own thread with a `MessageChannel` port. Returns null when the
 * index cannot be opened (after posting `db-failed`): the caller ends the thread.
 */
export function runIngestWorker(data: IngestWorkerData, port: IngestWorkerPort): IngestWorker | null {
  const log = createLogger(data.logLevel, { format: data.logFormat, sync: true }).child({
    component: "ingest",
    dir: data.recordsDir ?? data.blocksDir,
  });
  const post = (message: IngestWorkerMessage) => port.postMessage(message);
  const stopFlag = new Int32Array(data.stopFlag);
  /** The main thread asked to stop: read between files and transactions, where no message can be. */
  const stopRequested = () => Atomics.load(stopFlag, 0) === 1;

  let db: Db;
  try {
    db = openWriter(data.dbPath, { durable: data.durable });
  } catch (error) {
    // Not a crash: the main thread reports it as a start-up failure naming the database.
    post({ type: "db-failed", reason: (error as Error).message });
    return null;
  }
  // The writer's page cache is resident memory: 16 MB holds the hot index pages of a catch-up; colder pages come
  // back from the operating system's file cache, which the process does not pay for.
  db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);

  let files = 0;
  let transactions = 0;
  let newestPlanned: string | null = null;
  const store = createWriteStore(db);
  const walGuard = createWalGuard(db, data.dbPath, {
    ...(data.walLimitBytes === undefined ? {} : { limitBytes: data.walLimitBytes }),
  });
  const snapshots = createBalanceSnapshots(
    data.balanceFiles ?? [],
    store,
    log,
    {
      onStart: (source, consensusNs) =>
        post({ type: "balances-start", source, consensusNs: consensusNs.toString() }),
      onCheck: (report) =>
        post({ type: "balances-checked", ...report, consensusNs: report.consensusNs.toString() }),
      onHistory: ({ checked, disagreeing, recent }) =>
        post({
          type: "balances-history",
          checked,
          disagreeing,
          recent: recent.map((check) => ({ ...check, consensusNs: check.consensusNs.toString() })),
        }),
    },
    // New snapshots are looked for every 40 polls (10 s by default): a node writes one every 15 minutes.
    {
      dir: data.follow ? data.balancesDir : null,
      intervalMs: data.pollMs * 40,
      maxFileBytes: data.maxFileBytes,
    },
  );
  const ingestor = createIngestor({
    dir: data.recordsDir,
    blocksDir: data.blocksDir ?? null,
    store,
    waitSignatures: data.waitSignatures,
    ...(data.settleMs === undefined ? {} : { settleMs: data.settleMs }),
    minFullListMs: data.pollMs,
    // Readers (serve) should see a catch-up progress every second; a one-shot ingest has none.
    commitMs: data.follow ? 1000 : Number.POSITIVE_INFINITY,
    ...(data.commitTransactions === undefined ? {} : { commitTransactions: data.commitTransactions }),
    maxFileBytes: data.maxFileBytes,
    ...(data.sidecars === undefined ? {} : { sidecars: data.sidecars }),
    ...(data.readerThread === undefined ? {} : { readerThread: data.readerThread }),
    log,
    checkSignature:
      data.addressBookPath && data.recordsDir !== null
        ? loadSignatureCheck(data.addressBookPath, data.recordsDir)
        : null,
    shouldStop: stopRequested,
    onPlanned: (names, pending, newestBlock) => {
      newestPlanned = newestBlock?.name ?? names.at(-1) ?? newestPlanned;
      if (newestPlanned === null) return;
      // A look at a block folder is reported also when no block is ready (blocks may be left all the same).
      const oldest = names[0] ?? newestPlanned;
      const startNs = newestBlock?.startNs;
      post({
        type: "planned",
        files: pending,
        oldest,
        newest: newestPlanned,
        ...(startNs == null ? {} : { newestStartNs: startNs.toString() }),
      });
    },
    beforeFirstFile: (file, blockNumber) => snapshots.beforeFirstFile(file, blockNumber),
    beforeFirstBlock: (first, blockNumber, previousHash) =>
      snapshots.beforeFirstItem(first, blockNumber, previousHash),
    onCommitted: (applied, durationMs) => {
      files += 1;
      transactions += applied.transactions;
      post({
        type: "committed",
        file: applied.name,
        blockNumber: applied.blockNumber.toString(),
        transactions: applied.transactions,
        consensusStart: applied.consensusStart.toString(),
        consensusEnd: applied.consensusEnd.toString(),
        durationMs,
        // The whole group is committed when its first file is announced: that notice names its topics.
        topics: store.topicMessages.takeTopics()?.map(String) ?? null,
      });
      // Comparisons with later balance snapshots wait until the pass is done (see pass): never between commits.
      snapshots.committed();
      walGuard.committed();
    },
  });

  const backlogWorthDroppingIndexes = (): boolean => {
    const pending = ingestor.pendingFiles();
    const indexed = Number(db.prepare("SELECT count(*) FROM record_file").pluck().get() as bigint);
    return pending >= MIN_BACKLOG_FOR_DROPPED_INDEXES && pending * 4 >= indexed;
  };

  let halted = false;
  let timer: NodeJS.Timeout | undefined;
  let watchers: Array<{ close(): Promise<void> }> = [];

  const selectIndexedEnd = db.prepare("SELECT consensus_end FROM ingest_cursor WHERE id = 1").pluck();
  /** Consensus end of the last committed file (-1 before any). */
  const indexedEnd = (): bigint => (selectIndexedEnd.get() as bigint | undefined) ?? -1n;

  const halt = (): void => {
    halted = true;
    clearInterval(timer);
    for (const watcher of watchers) void watcher.close();
  };

  /** Why the last pass failed, while it has not succeeded since (null: healthy). */
  let trouble: Trouble | null = null;
  const retryBaseMs = data.retryMs ?? RETRY_BASE_MS;
  const folders = [data.recordsDir, data.blocksDir ?? null, data.balancesDir];

  /**
   * A pass (or work outside one) failed. A one-shot ingest stops there. Following, the worker keeps watching: a
   * transient failure is tried again with backoff, a refused file once it changes. One error line per stop; the
   * attempts after the first are logged at debug level.
   */
  const troubled = (error: unknown): void => {
    const stop = describeStop(error);
    const refusal = isRefusal(error);
    const same = trouble !== null && trouble.reason === stop.reason;
    if (!same) log.error({ file: stop.file, reason: stop.reason }, "ingestion stopped");
    if (!data.follow) {
      post({ type: "stopped", file: stop.file, reason: stop.reason });
      halt();
      return;
    }
    if (refusal) {
      trouble = { kind: "refused", ...stop, fingerprint: fingerprintOf(stop.file, folders) };
      if (!same) post({ type: "stopped", file: stop.file, reason: stop.reason });
      return;
    }
    const attempts = trouble?.kind === "transient" ? trouble.attempts + 1 : 1;
    const delayMs = retryDelayMs(attempts, retryBaseMs);
    trouble = { kind: "transient", ...stop, attempts, retryAtMs: Date.now() + delayMs };
    if (same) log.debug({ attempts, retryInMs: delayMs }, "ingestion still failing");
    post({ type: "retrying", file: stop.file, reason: stop.reason, attempts, retryInMs: delayMs });
  };

  /**
   * Runs a pass, or work outside one: true when it succeeded. A file abandoned because a stop was asked for is not
   * a failure (it rolled back whole).
   */
  const guard = (work: () => void): boolean => {
    try {
      work();
      return true;
    } catch (error) {
      if (error instanceof AbandonedError) {
        log.info({ file: error.file }, "stopping: rolled back the file being applied");
        return false;
      }
      troubled(error);
      return false;
    }
  };

  let caughtUp = false;

  /** Applies everything ready; reports a failure once (see `troubled`), and a recovery. */
  const pass = (): void => {
    if (halted) return;
    const ok = guard(() => {
      while (!stopRequested() && ingestor.ingestReady().length > 0) {
        // keep going: applying files takes time, and more may have become complete meanwhile
      }
      // Balance snapshots the index now covers, compared once no record file is waiting: reading and comparing a
      // snapshot is not on the path of applying files.
      if (!stopRequested()) snapshots.checkUpTo(indexedEnd());
    });
    if (!ok || trouble === null) return;
    log.info({ file: trouble.file, after: trouble.reason }, "ingestion resumed");
    trouble = null;
    post({ type: "resumed" });
    if (!caughtUp && started) {
      caughtUp = true;
      post({ type: "caught-up", files, transactions });
    }
  };

  /** A poll or a file event: a pass, unless a failure is waiting for its retry time or for its file to change. */
  const tick = (): void => {
    if (halted || trouble === null) {
      pass();
      return;
    }
    if (trouble.kind === "transient" ? Date.now() >= trouble.retryAtMs : changed(trouble)) {
      log.info({ file: trouble.file }, "trying again");
      pass();
    }
  };
  const changed = (refused: Trouble & { kind: "refused" }): boolean =>
    fingerprintOf(refused.file, folders) !== refused.fingerprint;

  let scheduled = false;
  const schedulePass = (): void => {
    if (scheduled || halted) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      tick();
    }, 25);
  };

  /** Closes the database (no transaction is open between passes) and the port. */
  const finish = (): void => {
    halt();
    ingestor.close();
    if (db.open) db.close();
    port.close();
  };

  port.on("message", (command: IngestWorkerCommand) => {
    if (command.type === "stop") finish();
  });

  // A one-shot ingest has no reader: with a backlog at least a quarter the size of the index, it applies files
  // without the read-only indexes and builds them once at the end (rebuilding costs in proportion to the whole
  // index, so a small backlog keeps them). Otherwise, and after a one-shot ingest that was stopped or killed,
  // they must be there before anyone reads: every start restores them.
  const dropIndexes = !data.follow && backlogWorthDroppingIndexes();

  /** Set once the first passes of start are done: a recovery after that may complete the catch-up. */
  let started = false;

  const start = async (): Promise<void> => {
    try {
      if (dropIndexes) dropReadIndexes(db);
      else restoreReadIndexes(db);
    } catch (error) {
      // Start-up fails naming why (a full disk, say): serving without the indexes is not an option.
      post({ type: "db-failed", reason: `cannot build the read indexes: ${(error as Error).message}` });
      finish();
      return;
    }
    // Readers open the index on this message: only once the read indexes are there (a one-shot ingest that was
    // interrupted left them dropped), so that no query ever runs without them.
    post({ type: "db-ready" });
    // A resumed index reports its snapshots again (their files are read again anyway to be checked).
    guard(() => {
      snapshots.announce();
      snapshots.checkUpTo(indexedEnd());
    });
    pass();
    if (!data.waitSignatures && trouble === null && !stopRequested() && ingestor.pendingFiles() > 0) {
      // Without signatures a file written recently counts as complete only once it has looked the same for the
      // quiet period (files untouched for that long were applied on the first look).
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(data.pollMs, data.settleMs ?? DEFAULT_SETTLE_MS)),
      );
      pass();
    }
    started = true;
    if (halted || stopRequested()) return;
    if (dropIndexes && db.open) restoreReadIndexes(db);
    if (trouble === null) {
      caughtUp = true;
      post({ type: "caught-up", files, transactions });
    }
    if (data.follow) {
      // A bucket's nested folders are found by polling; a node's flat block folder also by events.
      // File events also tell the ingestor which names appeared, so that it lists a record folder or a node's flat
      // block folder in full only now and then (record-folder.ts, block-folder.ts).
      watchers = [data.recordsDir, data.blocksDir ?? null]
        .filter((dir): dir is string => dir !== null)
        .map((dir) =>
          watchDirectory(
            dir,
            (name) => {
              if (dir === data.recordsDir) ingestor.noted(name);
              else ingestor.notedBlock(name);
              schedulePass();
            },
            log,
          ),
        );
      timer = setInterval(tick, data.pollMs);
    }
  };

  return { started: start(), finish };
}

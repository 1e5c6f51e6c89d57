import { parentPort, workerData } from "node:worker_threads";
import { createLogger } from "../log.ts";
import { openWriter } from "../store/db.ts";
import { createWriteStore } from "../store/write-store.ts";
import { createBalanceSnapshots } from "./balance-snapshots.ts";
import { createIngestor } from "./ingestor.ts";
import type { IngestWorkerCommand, IngestWorkerData, IngestWorkerMessage } from "./messages.ts";
import { loadSignatureCheck } from "./signature-check.ts";
import { describeStop } from "./stop-reason.ts";
import { watchDirectory } from "./watcher.ts";

/**
 * The ingest worker: the only writer of the index. It applies the files present at start, reports that it has
 * caught up, then follows the directory until it is told to stop or a file cannot be applied.
 */
const data = workerData as IngestWorkerData;
const port = parentPort!;
const log = createLogger(data.logLevel).child({ component: "ingest", dir: data.recordsDir });
const post = (message: IngestWorkerMessage) => port.postMessage(message);

const db = openWriter(data.dbPath, { durable: data.durable });
post({ type: "db-ready" });

let files = 0;
let transactions = 0;
const store = createWriteStore(db);
const snapshots = createBalanceSnapshots(
  data.balanceFiles ?? [],
  store,
  log,
  {
    onStart: (source, consensusNs) =>
      post({ type: "balances-start", source, consensusNs: consensusNs.toString() }),
    onCheck: (report) =>
      post({ type: "balances-checked", ...report, consensusNs: report.consensusNs.toString() }),
  },
  // New snapshots are looked for every 40 polls (10 s by default): a node writes one every 15 minutes.
  { dir: data.follow ? data.balancesDir : null, intervalMs: data.pollMs * 40 },
);
const ingestor = createIngestor({
  dir: data.recordsDir,
  store,
  waitSignatures: data.waitSignatures,
  log,
  checkSignature: data.addressBookPath ? loadSignatureCheck(data.addressBookPath, data.recordsDir) : null,
  beforeFirstFile: (file, blockNumber) => snapshots.beforeFirstFile(file, blockNumber),
  onCommitted: (applied, durationMs) => {
    files += 1;
    transactions += applied.transactions;
    post({
      type: "committed",
      file: applied.name,
      blockNumber: applied.blockNumber.toString(),
      transactions: applied.transactions,
      consensusEnd: applied.consensusEnd.toString(),
      durationMs,
    });
    snapshots.checkUpTo(applied.consensusEnd);
  },
});

let halted = false;
let timer: NodeJS.Timeout | undefined;
let watcher: { close(): Promise<void> } | undefined;

/** Applies everything ready; on a fatal file, reports it once and stops following the directory. */
function pass(): void {
  if (halted) return;
  try {
    while (ingestor.ingestReady().length > 0) {
      // keep going: applying files takes time, and more may have become complete meanwhile
    }
    // Snapshots a node wrote since start-up, once the index covers them (also when no new record came).
    snapshots.checkUpTo(indexedEnd());
  } catch (error) {
    const stop = describeStop(error);
    log.error({ file: stop.file, reason: stop.reason }, "ingestion stopped");
    post({ type: "stopped", file: stop.file, reason: stop.reason });
    halt();
  }
}

const selectIndexedEnd = db.prepare("SELECT consensus_end FROM ingest_cursor WHERE id = 1").pluck();

/** Consensus end of the last committed file (-1 before any). */
function indexedEnd(): bigint {
  return (selectIndexedEnd.get() as bigint | undefined) ?? -1n;
}

/** Runs work outside a pass the way a pass runs: a failure stops ingestion with its reason. */
function guard(work: () => void): void {
  try {
    work();
  } catch (error) {
    const stop = describeStop(error);
    log.error({ file: stop.file, reason: stop.reason }, "ingestion stopped");
    post({ type: "stopped", file: stop.file, reason: stop.reason });
    halt();
  }
}

function halt(): void {
  halted = true;
  clearInterval(timer);
  void watcher?.close();
}

let scheduled = false;
function schedulePass(): void {
  if (scheduled || halted) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    pass();
  }, 25);
}

port.on("message", (command: IngestWorkerCommand) => {
  if (command.type === "stop") {
    halt();
    db.close();
    port.close();
  }
});

// A resumed index reports its snapshots again (their files are read again anyway to be checked).
guard(() => {
  snapshots.announce();
  snapshots.checkUpTo(indexedEnd());
});
pass();
if (!data.waitSignatures && !halted) {
  // Without signatures a file counts as complete only when its size is unchanged on a second look.
  await new Promise((resolve) => setTimeout(resolve, data.pollMs));
  pass();
}
if (!halted) {
  post({ type: "caught-up", files, transactions });
  if (data.follow) {
    watcher = watchDirectory(data.recordsDir, schedulePass, log);
    timer = setInterval(pass, data.pollMs);
  }
}

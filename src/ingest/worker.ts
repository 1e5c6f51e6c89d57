import { parentPort, workerData } from "node:worker_threads";
import { createLogger } from "../log.ts";
import { dropReadIndexes, restoreReadIndexes } from "../store/catch-up-indexes.ts";
import { openWriter } from "../store/db.ts";
import { createWriteStore } from "../store/write-store.ts";
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
const WRITER_CACHE_KIB = 16 * 1024;
const MIN_BACKLOG_FOR_DROPPED_INDEXES = 20;
const port = parentPort!;
const log = createLogger(data.logLevel).child({ component: "ingest", dir: data.recordsDir });
const post = (message: IngestWorkerMessage) => port.postMessage(message);

const db = openWriter(data.dbPath, { durable: data.durable });
// The writer's page cache is resident memory: 16 MB holds the hot index pages of a catch-up; colder pages come
// back from the operating system's file cache, which the process does not pay for.
db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
post({ type: "db-ready" });

let files = 0;
let transactions = 0;
const ingestor = createIngestor({
  dir: data.recordsDir,
  store: createWriteStore(db),
  waitSignatures: data.waitSignatures,
  // A file a writer has not touched for several polls is complete (its size would not change between looks).
  quietMs: Math.max(1000, 4 * data.pollMs),
  // Readers (serve) should see a catch-up progress every second; a one-shot ingest has none.
  commitMs: data.follow ? 1000 : Number.POSITIVE_INFINITY,
  ...(data.commitTransactions === undefined ? {} : { commitTransactions: data.commitTransactions }),
  log,
  checkSignature: data.addressBookPath ? loadSignatureCheck(data.addressBookPath, data.recordsDir) : null,
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
  },
});

function backlogWorthDroppingIndexes(): boolean {
  const pending = ingestor.pendingFiles();
  const indexed = Number(db.prepare("SELECT count(*) FROM record_file").pluck().get() as bigint);
  return pending >= MIN_BACKLOG_FOR_DROPPED_INDEXES && pending * 4 >= indexed;
}

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

// A one-shot ingest has no reader: with a backlog at least a quarter the size of the index, it applies files
// without the read-only indexes and builds them once at the end (rebuilding costs in proportion to the whole
// index, so a small backlog keeps them). Otherwise, and after a one-shot ingest that was killed, they must be
// there before anyone reads.
const dropIndexes = !data.follow && backlogWorthDroppingIndexes();
if (dropIndexes) dropReadIndexes(db);
else restoreReadIndexes(db);

pass();
if (!data.waitSignatures && !halted && ingestor.pendingFiles() > 0) {
  // Without signatures a file written recently counts as complete only when its size is unchanged on a second
  // look (files untouched for a while were applied on the first).
  await new Promise((resolve) => setTimeout(resolve, data.pollMs));
  pass();
}
if (dropIndexes && db.open) restoreReadIndexes(db);
if (!halted) {
  post({ type: "caught-up", files, transactions });
  if (data.follow) {
    watcher = watchDirectory(data.recordsDir, schedulePass, log);
    timer = setInterval(pass, data.pollMs);
  }
}

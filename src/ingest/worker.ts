import { parentPort, workerData } from "node:worker_threads";
import { runIngestWorker } from "./ingest-worker.ts";
import type { IngestWorkerData } from "./messages.ts";

/**
 * The ingest worker thread's entry: everything it does is `runIngestWorker` (a module of its own, testable
 * without spawning). Written without top-level await: the single executable bundles it as a CommonJS script.
 */
if (parentPort === null) throw new Error("the ingest worker runs in a worker thread");
if (runIngestWorker(workerData as IngestWorkerData, parentPort) === null) process.exit(1);

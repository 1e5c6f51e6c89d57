import { parentPort, workerData } from "node:worker_threads";
import { type ReadWorkerData, runReadWorker } from "./read-worker.ts";

/**
 * A read worker thread's entry: everything it does is `runReadWorker` (a module of its own, testable without
 * spawning). Written without top-level await: the single executable bundles it as a CommonJS script.
 */
const port = parentPort;
if (port === null) throw new Error("the read worker runs in a worker thread");
runReadWorker(workerData as ReadWorkerData, port).then(
  (started) => {
    if (!started) process.exit(1);
  },
  (error: unknown) => {
    throw error;
  },
);

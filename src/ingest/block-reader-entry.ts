import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { type BlockReaderData, type BlockReaderPort, runBlockReader } from "./block-reader-worker.ts";

/**
 * The block reader thread's entry (started by the ingest thread, see block-reader.ts): everything it does is
 * `runBlockReader`, on the message port it was handed. Written without top-level await: the single executable
 * bundles it as a CommonJS script.
 */
if (parentPort === null) throw new Error("the block reader runs in a worker thread");
const { port, ...data } = workerData as BlockReaderData & { port: MessagePort };
runBlockReader(data, port as unknown as BlockReaderPort);

/**
 * A read worker: one thread with its own read-only connection to the index and its own route table, built from
 * the same route modules as the front's. It answers the jobs the front sends, one after another, with rendered
 * bodies (see answer-job.ts). All its state lives in this call, so a test can run it in its own thread with a
 * `MessageChannel` port, as the thread entry (read-worker-entry.ts) does with `parentPort`.
 */
import type { MessagePort } from "node:worker_threads";
import { grpcReadJobs } from "../grpc/read-jobs.ts";
import { openReader } from "../store/db.ts";
import { createReadStore } from "../store/read-store.ts";
import { createJobAnswerer } from "./answer-job.ts";
import { apiRoutes } from "./app.ts";
import {
  fromWireJob,
  type ReadOutcome,
  type ReadWorkerCommand,
  type ReadWorkerMessage,
  toWireOutcome,
  type WireJob,
} from "./read-protocol.ts";
import { createParamsReader } from "./route-match.ts";
import type { RouteDef } from "./routes/route-table.ts";

/** What the front hands each read worker. */
export type ReadWorkerData = {
  /** The SQLite file of the index (the ingest worker has created it). */
  dbPath: string;
  /**
   * Modules whose `routes()` export adds routes after the API's own, loaded by URL (tests: a route that holds
   * a query open on purpose). Empty in production: nothing a client or an operator sets reaches it.
   */
  routeModules: readonly string[];
  /** The EVM's chain id (`--network`); 298 when absent. */
  chainId?: bigint;
};

/** The side of a message channel the worker talks through (`parentPort` in a thread, a port in tests). */
export type ReadWorkerPort = MessagePort;

/** Loads the `routes()` export of each module in `urls` (the same list on the front and in every worker). */
export async function loadRouteModules(urls: readonly string[]): Promise<RouteDef[]> {
  const routes: RouteDef[] = [];
  for (const url of urls) {
    const module = (await import(url)) as { routes?: () => RouteDef[] };
    if (typeof module.routes !== "function") throw new Error(`route module ${url} exports no routes()`);
    routes.push(...module.routes());
  }
  return routes;
}

/**
 * Opens the index, builds the route table and answers jobs until the port closes. Posts `ready` once it can
 * answer, or `start-failed` (and resolves to false) when it cannot: the caller ends the thread then.
 */
export async function runReadWorker(data: ReadWorkerData, port: ReadWorkerPort): Promise<boolean> {
  let answer: ReturnType<typeof createJobAnswerer>;
  try {
    const db = openReader(data.dbPath);
    // The gRPC API's reads ride on the same table under templates no HTTP path matches (grpc/read-jobs.ts).
    const routes = [
      ...apiRoutes(data.chainId),
      ...grpcReadJobs(),
      ...(await loadRouteModules(data.routeModules)),
    ];
    answer = createJobAnswerer(routes, createReadStore(db));
  } catch (error) {
    port.postMessage({ type: "start-failed", reason: (error as Error).message } satisfies ReadWorkerMessage);
    return false;
  }
  const post = (message: ReadWorkerMessage) => port.postMessage(message);
  const send = (id: number, outcome: ReadOutcome) => {
    const wire = toWireOutcome(id, outcome);
    const body = wire[2];
    // A body rendered as bytes moves to the front without a copy.
    if (body instanceof Uint8Array)
      port.postMessage({ type: "done", results: [wire] }, [body.buffer as ArrayBuffer]);
    else post({ type: "done", results: [wire] });
  };
  // Jobs are answered one after another. Most answers are synchronous; an asynchronous one (an EVM call) holds
  // the queue until it settles, so it keeps its read snapshot and the front's timing of the job in hand holds.
  const queue: WireJob[] = [];
  const paramsOf = createParamsReader();
  let waiting = false;
  const drain = () => {
    while (queue.length > 0) {
      const { id, job } = fromWireJob(queue.shift()!, paramsOf);
      const outcome = answer(job);
      if (outcome instanceof Promise) {
        waiting = true;
        void outcome.then((settled) => {
          send(id, settled);
          waiting = false;
          drain();
        });
        return;
      }
      // Each outcome goes back as soon as it is ready: the front times the job in hand from the previous answer.
      send(id, outcome);
    }
  };
  port.on("message", (command: ReadWorkerCommand) => {
    queue.push(...command.jobs);
    if (!waiting) drain();
  });
  post({ type: "ready" });
  return true;
}

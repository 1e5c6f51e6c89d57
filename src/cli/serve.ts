import type { Server } from "node:http";
import { availableParallelism } from "node:os";
import { type AppDeps, createApp } from "../api/app.ts";
import { createReadPool, type ReadPool } from "../api/read-pool.ts";
import { loadRouteModules } from "../api/read-worker.ts";
import { listen } from "../api/server.ts";
import { type Config, DEFAULT_QUERY_TIMEOUT_MS } from "../config.ts";
import { DbOpenError, type IngestLimits, type IngestService, startIngestService } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { createMetrics } from "../metrics/metrics.ts";
import { resolveDbLocation } from "../store/db.ts";
import { ingestWorkerData } from "./ingest-worker-data.ts";
import { StartupError } from "./startup-error.ts";

export type RunningService = {
  port: number;
  server: Server;
  ingest: IngestService;
  /** The read workers answering API requests. */
  reads: ReadPool;
  /**
   * Stops accepting connections, lets requests in flight finish (closing the rest after `drainMs`, default
   * 5 s) while the ingest worker abandons its pass, then closes the database. Idempotent.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
};

export type ServiceOptions = IngestLimits;

/**
 * Starts the ingest worker on the records folder and, once the index exists, the HTTP server. The server keeps
 * answering whatever happens to ingestion; readiness tells how ingestion is doing. Throws StartupError (with
 * nothing left running and no in-memory index left behind) when the database cannot be opened or the port
 * cannot be bound.
 */
/**
 * What a caller may add to the API: more Express routers, a request observer, and modules of more routes (their
 * `routes()` export, loaded on the front and in every read worker; tests use it for a route that holds a query
 * open on purpose). No flag or variable reaches these.
 */
export type ServiceExtras = Pick<AppDeps, "routers" | "observe"> & { routeModules?: readonly string[] };

/** The default number of read workers: one core for the front (and ingestion), the others for queries. */
export function defaultReadWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

export async function startService(
  config: Config,
  log: Logger,
  options: ServiceOptions = {},
  extras: ServiceExtras = {},
): Promise<RunningService> {
  const location = resolveDbLocation(config.db);
  let data: ReturnType<typeof ingestWorkerData>;
  try {
    data = ingestWorkerData(config, location, true);
  } catch (error) {
    location.dispose();
    throw error;
  }
  const ingest = startIngestService(data, log, { heapMb: config.workerHeapMb, ...options });
  let reads: ReadPool | undefined;
  let listening: { server: Server; port: number };
  try {
    try {
      await ingest.dbReady;
    } catch (error) {
      const message = (error as Error).message;
      throw new StartupError(
        error instanceof DbOpenError
          ? `cannot open the database ${config.db}: ${message}`
          : `ingest worker crashed while starting: ${message}`,
        error,
      );
    }
    const { routeModules = [], ...appExtras } = extras;
    const apiLog = log.child({ component: "api" });
    reads = createReadPool({
      workers: config.readWorkers ?? defaultReadWorkers(),
      queryTimeoutMs: config.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
      data: { dbPath: location.path, listStaleMs: config.listCacheMs, routeModules },
      log: apiLog,
    });
    try {
      await reads.ready;
    } catch (error) {
      throw new StartupError(`cannot serve the index ${config.db}: ${(error as Error).message}`, error);
    }
    const pool = reads;
    const metrics = createMetrics({ ingest, dbPath: location.path, reads: () => pool.stats() });
    const app = createApp({
      reads,
      extraRoutes: await loadRouteModules(routeModules),
      status: ingest.status,
      progress: ingest.progress,
      log: apiLog,
      listCacheMaxStaleMs: config.listCacheMs,
      metrics,
      ...appExtras,
    });
    try {
      listening = await listen(app.listener, config.host, config.port);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const what =
        code === "EADDRINUSE"
          ? "is in use"
          : code === "EACCES"
            ? "needs privileges this user lacks"
            : `cannot be bound (${(error as Error).message})`;
      throw new StartupError(`port ${config.port} on ${config.host} ${what}`, error);
    }
  } catch (error) {
    await Promise.all([ingest.stop(), reads?.close()]);
    location.dispose();
    throw error;
  }
  const { server, port } = listening;
  const pool = reads;
  log.info(
    {
      host: config.host,
      port,
      records: config.recordsDir,
      db: config.db,
      readWorkers: reads.stats().workers,
    },
    "serving the mirror node API",
  );

  let stopping: Promise<void> | undefined;
  const stop = ({ drainMs = 5000 } = {}) => {
    stopping ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections would hold close() open; busy ones finish their request first.
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), drainMs);
      await Promise.all([
        drained.finally(() => clearTimeout(deadline)).then(() => pool.close()),
        ingest.stop(),
      ]);
      location.dispose();
    })();
    return stopping;
  };
  return { port, server, ingest, reads: pool, stop };
}

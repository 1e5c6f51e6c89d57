import type { Server } from "node:http";
import { type AppDeps, createApp } from "../api/app.ts";
import { listen } from "../api/server.ts";
import type { Config } from "../config.ts";
import { DbOpenError, type IngestLimits, type IngestService, startIngestService } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { createMetrics } from "../metrics/metrics.ts";
import { listenMetrics } from "../metrics/server.ts";
import { openReader, resolveDbLocation } from "../store/db.ts";
import { createReadStore } from "../store/read-store.ts";
import { takeIndex } from "./index-lock.ts";
import { ingestWorkerData } from "./ingest-worker-data.ts";
import { StartupError } from "./startup-error.ts";

export type RunningService = {
  port: number;
  server: Server;
  /** The port `/metrics` is served on when `--metrics-port` is given (else it is on `port`). */
  metricsPort: number | null;
  ingest: IngestService;
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
/** What a caller may add to the API: more Express routers, a request observer. */
export type ServiceExtras = Pick<AppDeps, "routers" | "observe">;

export async function startService(
  config: Config,
  log: Logger,
  options: ServiceOptions = {},
  extras: ServiceExtras = {},
): Promise<RunningService> {
  const location = resolveDbLocation(config.db);
  let data: ReturnType<typeof ingestWorkerData>;
  let lock: ReturnType<typeof takeIndex>;
  try {
    lock = takeIndex(config.db, location, "serve");
    try {
      data = ingestWorkerData(config, location, true);
    } catch (error) {
      lock.release();
      throw error;
    }
  } catch (error) {
    location.dispose();
    throw error;
  }
  const ingest = startIngestService(data, log, { heapMb: config.workerHeapMb, ...options });
  let reader: ReturnType<typeof openReader> | undefined;
  let listening: { server: Server; port: number };
  let metricsListening: { server: Server; port: number } | null = null;
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
    reader = openReader(location.path);
    const metrics = createMetrics({ ingest, dbPath: location.path });
    const app = createApp({
      store: createReadStore(reader),
      status: ingest.status,
      progress: ingest.progress,
      log: log.child({ component: "api" }),
      listCacheMaxStaleMs: config.listCacheMs,
      metrics,
      metricsElsewhere: config.metricsPort !== undefined,
      ...extras,
    });
    if (config.metricsPort !== undefined) {
      metricsListening = await bound("metrics port", config.host, config.metricsPort, () =>
        listenMetrics(metrics, config.host, config.metricsPort!),
      );
    }
    listening = await bound("port", config.host, config.port, () =>
      listen(app.listener, config.host, config.port),
    );
  } catch (error) {
    metricsListening?.server.close();
    await ingest.stop();
    reader?.close();
    lock.release();
    location.dispose();
    throw error;
  }
  const { server, port } = listening;
  const metricsPort = metricsListening?.port ?? null;
  log.info(
    {
      host: config.host,
      port,
      records: config.recordsDir,
      db: config.db,
      ...(metricsPort === null ? {} : { metricsPort }),
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
      if (metricsListening !== null) {
        metricsListening.server.close();
        metricsListening.server.closeAllConnections();
      }
      await Promise.all([drained.finally(() => clearTimeout(deadline)), ingest.stop()]);
      reader?.close();
      lock.release();
      location.dispose();
    })();
    return stopping;
  };
  return { port, server, ingest, metricsPort, stop };
}

/** Binds a listener, turning a failure into the one line a start-up failure is: `port 5551 on … is in use`. */
async function bound<T>(what: string, host: string, port: number, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "EADDRINUSE"
        ? "is in use"
        : code === "EACCES"
          ? "needs privileges this user lacks"
          : `cannot be bound (${(error as Error).message})`;
    throw new StartupError(`${what} ${port} on ${host} ${why}`, error);
  }
}

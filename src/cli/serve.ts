import type { Server } from "node:http";
import { availableParallelism } from "node:os";
import { type AppDeps, createApp } from "../api/app.ts";
import { createReadPool, type ReadPool } from "../api/read-pool.ts";
import { loadRouteModules } from "../api/read-worker.ts";
import { listen } from "../api/server.ts";
import { type Config, DEFAULT_QUERY_TIMEOUT_MS } from "../config.ts";
import { CHAIN_IDS, DEFAULT_CHAIN_ID } from "../evm/chain.ts";
import { type GrpcServer, startGrpcServer } from "../grpc/server.ts";
import { DbOpenError, type IngestLimits, type IngestService, startIngestService } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { createMetrics } from "../metrics/metrics.ts";
import { listenMetrics } from "../metrics/server.ts";
import { resolveDbLocation } from "../store/db.ts";
import { takeIndex } from "./index-lock.ts";
import { ingestWorkerData } from "./ingest-worker-data.ts";
import { StartupError } from "./startup-error.ts";

export type RunningService = {
  port: number;
  server: Server;
  /** The port `/metrics` is served on when `--metrics-port` is given (else it is on `port`). */
  metricsPort: number | null;
  /** The second port, serving the Java-service paths (`--java-port`), or null when off. */
  javaPort: number | null;
  /** The port of the mirror gRPC API, when `grpcPort` is set (null: not served). */
  grpcPort: number | null;
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
export type ServiceExtras = Pick<AppDeps, "routers" | "observe" | "now"> & {
  routeModules?: readonly string[];
  /** The clock the read pool measures query deadlines on (ms; default `performance.now`). */
  readClock?: () => number;
};

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
  let reads: ReadPool | undefined;
  let listening: { server: Server; port: number };
  let metricsListening: { server: Server; port: number } | null = null;
  let javaListening: { server: Server; port: number } | null = null;
  /** The main listener once bound (closed again if a later listener fails). */
  let mainListening: { server: Server; port: number } | null = null;
  let grpc: GrpcServer | null = null;
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
    const { routeModules = [], readClock, ...appExtras } = extras;
    const apiLog = log.child({ component: "api" });
    reads = createReadPool({
      workers: config.readWorkers ?? defaultReadWorkers(),
      queryTimeoutMs: config.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
      data: {
        dbPath: location.path,
        routeModules,
        chainId: CHAIN_IDS[config.network ?? "other"] ?? DEFAULT_CHAIN_ID,
      },
      log: apiLog,
      ...(readClock === undefined ? {} : { now: readClock }),
    });
    try {
      await reads.ready;
    } catch (error) {
      throw new StartupError(`cannot serve the index ${config.db}: ${(error as Error).message}`, error);
    }
    const pool = reads;
    const metrics = createMetrics({
      ingest,
      dbPath: location.path,
      reads: () => pool.stats(),
      grpc: () => grpc?.stats ?? null,
    });
    const app = createApp({
      reads,
      extraRoutes: await loadRouteModules(routeModules),
      status: ingest.status,
      progress: ingest.progress,
      log: apiLog,
      listCacheMaxStaleMs: config.listCacheMs,
      metrics,
      metricsElsewhere: config.metricsPort !== undefined,
      grpcStatus: () => grpc?.status() ?? null,
      opcodes: config.opcodes === true,
      ...appExtras,
    });
    if (config.metricsPort !== undefined) {
      metricsListening = await bound("metrics port", config.host, config.metricsPort, () =>
        listenMetrics(metrics, config.host, config.metricsPort!),
      );
    }
    const grpcPort = config.grpcPort;
    if (grpcPort != null) {
      grpc = await bound("gRPC port", config.host, grpcPort, () =>
        startGrpcServer({ host: config.host, port: grpcPort, reads: pool, ingest, log }),
      );
    }
    listening = await bound("port", config.host, config.port, () =>
      listen(app.listener, config.host, config.port),
    );
    mainListening = listening;
    if (config.javaPort !== undefined) {
      const javaPort = config.javaPort;
      javaListening = await bound("java port", config.host, javaPort, () =>
        listen(app.javaListener, config.host, javaPort),
      );
    }
  } catch (error) {
    metricsListening?.server.close();
    javaListening?.server.close();
    mainListening?.server.close();
    await grpc?.stop(0);
    await Promise.all([ingest.stop(), reads?.close()]);
    lock.release();
    location.dispose();
    throw error;
  }
  const { server, port } = listening;
  const pool = reads;
  const metricsPort = metricsListening?.port ?? null;
  const javaPort = javaListening?.port ?? null;
  log.info(
    {
      host: config.host,
      port,
      records: config.recordsDir,
      db: config.db,
      readWorkers: pool.stats().workers,
      ...(metricsPort === null ? {} : { metricsPort }),
      ...(javaPort === null ? {} : { javaPort }),
      ...(grpc === null ? {} : { grpcPort: grpc.port }),
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
      for (const other of [metricsListening, javaListening]) {
        if (other === null) continue;
        other.server.close();
        other.server.closeAllConnections();
      }
      // Open subscriptions end with UNAVAILABLE (clients resume elsewhere or later); reads stop after both fronts.
      const grpcStopped = grpc?.stop(drainMs) ?? Promise.resolve();
      await Promise.all([
        Promise.all([drained.finally(() => clearTimeout(deadline)), grpcStopped]).then(() => pool.close()),
        ingest.stop(),
      ]);
      lock.release();
      location.dispose();
    })();
    return stopping;
  };
  const grpcServer = grpc as GrpcServer | null;
  return {
    port,
    server,
    ingest,
    reads: pool,
    metricsPort,
    javaPort,
    grpcPort: grpcServer?.port ?? null,
    stop,
  };
}

/** Binds a listener, turning a failure into the one line a start-up failure is: `port 5551 on … is in use`. */
async function bound<T>(what: string, host: string, port: number, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    // grpc-js reports a failed bind as one message naming the listen error.
    const text = (error as Error).message ?? "";
    const code =
      (error as NodeJS.ErrnoException).code ?? (/\bEADDRINUSE\b/.test(text) ? "EADDRINUSE" : undefined);
    const why =
      code === "EADDRINUSE"
        ? "is in use"
        : code === "EACCES"
          ? "needs privileges this user lacks"
          : `cannot be bound (${(error as Error).message})`;
    throw new StartupError(`${what} ${port} on ${host} ${why}`, error);
  }
}

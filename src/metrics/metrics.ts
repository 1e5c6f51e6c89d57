import { statSync } from "node:fs";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { RequestObservation } from "../api/front.ts";
import type { ReadPoolStats } from "../api/read-pool.ts";
import type { IngestService } from "../ingest/service.ts";
import { secondsBehind } from "./stream-lag.ts";

export type Metrics = {
  /** Counts one answered request; call once per response. */
  observeRequest(e: RequestObservation): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<{ contentType: string; body: string }>;
};

export type MetricsDeps = {
  ingest: Pick<IngestService, "status" | "progress">;
  /** The SQLite file of the index (its -wal beside it counts too). */
  dbPath: string;
  /** The read-worker pool's figures, when there is one. */
  reads?: () => ReadPoolStats;
};

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The process's metrics on a registry of its own (tests start several services in one process). Ingest
 * figures are read from the ingest service when scraped; HTTP figures are counted per response.
 */
export function createMetrics({ ingest, dbPath, reads }: MetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  const total = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        // The ingest service keeps the running total; a scrape copies it.
        this.reset();
        this.inc(read());
      },
    });

  total(
    "mirrorlite_ingest_files_total",
    "Record files applied since start-up.",
    () => ingest.progress().filesApplied,
  );
  total(
    "mirrorlite_ingest_transactions_total",
    "Transactions applied since start-up.",
    () => ingest.progress().transactionsApplied,
  );
  total(
    "mirrorlite_ingest_errors_total",
    "Times ingestion stopped on a file it could not apply, or its worker crashed.",
    () => ingest.status().errors,
  );
  gauge("mirrorlite_ingest_last_block_number", "Number of the newest indexed block (-1: none).", () => {
    const block = ingest.status().lastBlock;
    return block === null ? -1 : Number(block);
  });
  gauge(
    "mirrorlite_ingest_last_consensus_timestamp_seconds",
    "Consensus time of the newest indexed transaction, in seconds since the epoch (0: none).",
    () => {
      const ns = ingest.status().lastConsensusEndNs;
      return ns === null ? 0 : Number(ns / 1_000_000n) / 1000;
    },
  );
  gauge(
    "mirrorlite_ingest_seconds_behind",
    "Consensus seconds between the newest complete file (record file or block) on disk and the last one applied " +
      "(before any is applied: the oldest one waiting).",
    () => {
      const s = ingest.status();
      return secondsBehind(s.lastFile, s.newestFile, s.oldestPendingFile, {
        last: s.lastConsensusStartNs,
        newest: s.newestStartNs,
      });
    },
  );
  gauge(
    "mirrorlite_ingest_files_pending",
    "Files (record files or blocks) after the last applied one, as the last look at the folders found them " +
      "(complete or not), less those applied since.",
    () => ingest.progress().filesLeft,
  );
  gauge("mirrorlite_ingest_ready", "1 when caught up and healthy, else 0.", () =>
    ingest.status().state === "ready" ? 1 : 0,
  );
  gauge("mirrorlite_db_size_bytes", "Size of the SQLite index, its write-ahead log included.", () => {
    return fileSize(dbPath) + fileSize(`${dbPath}-wal`);
  });

  if (reads !== undefined) {
    total(
      "mirrorlite_read_timeouts_total",
      "API requests answered 503 because their query ran (or waited for a read worker) past --query-timeout-ms.",
      () => reads().timeouts,
    );
    total(
      "mirrorlite_read_worker_restarts_total",
      "Read workers replaced after a query past its deadline or a crash.",
      () => reads().restarts,
    );
    total(
      "mirrorlite_read_rejected_total",
      "API requests answered 503 because the queue for read workers was full.",
      () => reads().rejected,
    );
    gauge("mirrorlite_read_workers", "Read workers answering API queries.", () => reads().workers);
    gauge("mirrorlite_read_workers_busy", "Read workers with a query in hand.", () => reads().busy);
    gauge("mirrorlite_read_queue_length", "API queries waiting for a read worker.", () => reads().queued);
    gauge(
      "mirrorlite_read_workers_retiring",
      "Replaced read workers whose thread is still finishing a native SQLite call.",
      () => reads().retiring,
    );
  }

  const requests = new Counter({
    name: "mirrorlite_http_requests_total",
    help: "HTTP requests answered, by route template, method and status.",
    labelNames: ["route", "method", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "mirrorlite_http_request_duration_seconds",
    help: "Time from receiving a request to finishing its response.",
    labelNames: ["route", "method"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const cache = new Counter({
    name: "mirrorlite_http_cache_requests_total",
    help: "Responses the response cache answered (hit) or had to compute (miss).",
    labelNames: ["result"],
    registers: [registry],
  });

  return {
    observeRequest(e) {
      // Labels come from bounded sets: a client's made-up method must not add a time series.
      const method = METHODS.has(e.method) ? e.method : "OTHER";
      requests.inc({ route: e.route, method, status: String(e.status) });
      latency.observe({ route: e.route, method }, e.seconds);
      if (e.cache !== "none") cache.inc({ result: e.cache });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

import { statSync } from "node:fs";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { RequestObservation } from "../api/front.ts";
import type { ReadPoolStats } from "../api/read-pool.ts";
import type { GrpcStats } from "../grpc/stats.ts";
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
  /** The gRPC API's figures (null while it is not started, or switched off). */
  grpc?: () => GrpcStats | null;
};

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The process's metrics on a registry of its own (tests start several services in one process). Ingest
 * figures are read from the ingest service when scraped; HTTP figures are counted per response.
 */
export function createMetrics({ ingest, dbPath, reads, grpc }: MetricsDeps): Metrics {
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

  if (grpc !== undefined) {
    gauge(
      "mirrorlite_grpc_subscribers",
      "Open subscribeTopic calls (historical and live).",
      () => grpc()?.subscribers ?? 0,
    );
    gauge(
      "mirrorlite_grpc_live_subscribers",
      "subscribeTopic calls past their history, waiting for new messages.",
      () => grpc()?.liveSubscribers ?? 0,
    );
    total(
      "mirrorlite_grpc_messages_sent_total",
      "Messages sent on gRPC streams (topic messages and address book nodes).",
      () => grpc()?.messagesSent ?? 0,
    );
    total(
      "mirrorlite_grpc_live_reads_total",
      "Reads of a topic after a commit named it, each shared by all of the topic's live subscriptions.",
      () => grpc()?.liveReads ?? 0,
    );
    total(
      "mirrorlite_grpc_stream_errors_total",
      "gRPC calls ended with an error status (not OK, not cancelled by the client).",
      () => grpc()?.streamErrors ?? 0,
    );
    new Gauge({
      name: "mirrorlite_grpc_live_fanout_ms",
      help:
        "Quantiles of the latest 1024 live fan-outs: ms from a commit notice naming a topic to its first new " +
        "message handed to every live subscription's stream.",
      labelNames: ["quantile"],
      registers: [registry],
      collect() {
        this.reset();
        const stats = grpc();
        if (stats === null) return;
        for (const q of [0.5, 0.99]) {
          const value = stats.fanoutQuantile(q);
          if (!Number.isNaN(value)) this.labels({ quantile: String(q) }).set(value);
        }
      },
    });
    new Counter({
      name: "mirrorlite_grpc_calls_ended_total",
      help: "gRPC calls ended, by status (CANCELLED: the client went away).",
      labelNames: ["status"],
      registers: [registry],
      collect() {
        this.reset();
        for (const [status, count] of grpc()?.callsEnded ?? []) this.labels({ status }).inc(count);
      },
    });
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

  // Each request's labels name one series among a bounded set (route templates, methods, statuses): its
  // children are kept by their labels, so that counting a request does not hash its labels again. Past the
  // bound (never reached by the API's own routes) labels are passed as before.
  const MAX_KEPT_SERIES = 4096;
  const counted = new Map<string, { inc(): void }>();
  const cacheHits = cache.labels({ result: "hit" });
  const cacheMisses = cache.labels({ result: "miss" });
  const timed = new Map<string, { observe(value: number): void }>();
  return {
    observeRequest(e) {
      // Labels come from bounded sets: a client's made-up method must not add a time series.
      const method = METHODS.has(e.method) ? e.method : "OTHER";
      const status = String(e.status);
      const countKey = `${e.route} ${method} ${status}`;
      let count = counted.get(countKey);
      if (count === undefined) {
        count = requests.labels({ route: e.route, method, status });
        if (counted.size < MAX_KEPT_SERIES) counted.set(countKey, count);
      }
      count.inc();
      const timeKey = `${e.route} ${method}`;
      let time = timed.get(timeKey);
      if (time === undefined) {
        time = latency.labels({ route: e.route, method });
        if (timed.size < MAX_KEPT_SERIES) timed.set(timeKey, time);
      }
      time.observe(e.seconds);
      if (e.cache === "hit") cacheHits.inc();
      else if (e.cache === "miss") cacheMisses.inc();
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

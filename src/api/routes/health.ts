import { Router } from "express";
import type { GrpcStatus } from "../../grpc/server.ts";
import type { Progress } from "../../ingest/progress.ts";
import type { BalanceStatus, IngestStatus } from "../../ingest/service.ts";
import { formatTimestamp } from "../../time.ts";
import { toJson } from "../json.ts";

/**
 * Liveness: the process answers. Readiness: the files present at start are applied and ingestion is healthy;
 * otherwise 503 with what is going on (still catching up, retrying a transient failure, or the refused file that
 * stopped ingestion and why). docs/operating.md says what a supervisor should make of each. With `progress`, the
 * body also carries the catch-up pace (the numbers of the "catching up" log line); with `grpc`, the gRPC listener
 * (its state, port and open subscriptions), when it is served.
 */
export function healthRoutes(
  status: () => IngestStatus,
  progress?: () => Progress,
  grpc?: () => GrpcStatus | null,
): Router {
  const router = Router();
  router.get("/health/liveness", (_req, res) => {
    res
      .status(200)
      .type("application/json; charset=utf-8")
      .send(toJson({ status: "up" }));
  });
  router.get("/health/readiness", (_req, res) => {
    const s = status();
    const body = {
      status: s.state === "ready" ? "ready" : s.state,
      reason:
        s.state === "catching-up" ? "catching up: applying the record files present at start-up" : s.reason,
      file: s.file,
      ...(s.retry === null ? {} : { retryAttempts: s.retry.attempts, retryInMs: s.retry.retryInMs }),
      lastBlock: s.lastBlock,
      lastFile: s.lastFile,
      ...(progress ? { progress: progress() } : {}),
      balances: balancesView(s.balances),
    };
    const listener = grpc?.() ?? null;
    if (listener !== null) Object.assign(body, { grpc: listener });
    res
      .status(s.state === "ready" ? 200 : 503)
      .set("Cache-Control", "no-store")
      .type("application/json; charset=utf-8")
      .send(toJson(body));
  });
  return router;
}

/** Where the hbar balances start and how the later balance snapshots compared with them. */
function balancesView(balances: BalanceStatus) {
  return {
    start:
      balances.start === null
        ? null
        : { source: balances.start.source, timestamp: formatTimestamp(balances.start.consensusNs) },
    snapshotsChecked: balances.snapshotsChecked,
    snapshotsDisagreeing: balances.snapshotsDisagreeing,
    recentChecks: balances.recentChecks.map((check) => ({
      file: check.file,
      timestamp: formatTimestamp(check.consensusNs),
      accounts: check.accounts,
      differences: check.differences,
      examples: check.examples,
    })),
  };
}

import express, { type Express, type RequestHandler } from "express";
import type { GrpcStatus } from "../grpc/server.ts";
import type { Progress } from "../ingest/progress.ts";
import type { IngestStatus } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { metricsRoutes } from "../metrics/express.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { CORS_HEADER, createResponseCache, type ResponseCache, type ResponseCacheOptions } from "./cache.ts";
import { createFront, type RequestListener, type RequestObservation } from "./front.ts";
import { errorHandler, notFound } from "./http-errors.ts";
import type { ReadAnswerer } from "./read-pool.ts";
import { accountJavaListRoutes } from "./routes/account-java-lists.ts";
import { accountRelationRoutes } from "./routes/account-relations.ts";
import { accountRoutes } from "./routes/accounts.ts";
import { balanceRoutes } from "./routes/balances.ts";
import { blockRoutes } from "./routes/blocks.ts";
import { contractCallRoutes } from "./routes/contract-call.ts";
import { contractOpcodesRoutes } from "./routes/contract-opcodes.ts";
import { contractRoutes } from "./routes/contracts.ts";
import { docsRoutes } from "./routes/docs.ts";
import { feeEstimatePost } from "./routes/fee-estimate.ts";
import { healthRoutes } from "./routes/health.ts";
import { hookRoutes } from "./routes/hooks.ts";
import { networkRoutes } from "./routes/network.ts";
import { networkSupplyRoutes } from "./routes/network-supply.ts";
import { nftRoutes } from "./routes/nfts.ts";
import { registeredNodeRoutes } from "./routes/registered-nodes.ts";
import type { RouteDef } from "./routes/route-table.ts";
import { scheduleRoutes } from "./routes/schedules.ts";
import { tokenListRoutes } from "./routes/token-lists.ts";
import { tokenRoutes } from "./routes/tokens.ts";
import { topicRoutes } from "./routes/topics.ts";
import { transactionRoutes } from "./routes/transactions.ts";

export type AppDeps = {
  /** Where route answers are computed: the read-worker pool. */
  reads: ReadAnswerer;
  /** Routes served after the API's own (tests: the same modules the read workers load). */
  extraRoutes?: readonly RouteDef[];
  status: () => IngestStatus;
  log: Logger;
  /** How stale a cached list answer may be once newer data is indexed, in ms (default 1000; `--list-cache-ms`). */
  listCacheMaxStaleMs?: number;
  /** Size bounds of the response cache. */
  cache?: ResponseCacheOptions;
  /** Called once per answered request with its route template, status, duration and cache use (metrics). */
  observe?: (observation: RequestObservation) => void;
  /** Counts requests (through `observe`) and serves `GET /metrics` when given (unless `metricsElsewhere`). */
  metrics?: Metrics;
  /** `/metrics` is served on a port of its own (`--metrics-port`): not here. */
  metricsElsewhere?: boolean;
  /** Catch-up pace for the readiness body. */
  progress?: () => Progress;
  /** The gRPC listener, for the readiness body (null: not served). */
  grpcStatus?: () => GrpcStatus | null;
  /** More Express routers, mounted after health and before the 404 (e.g. groups served by Express). */
  routers?: readonly RequestHandler[];
  /** Milliseconds of a monotonic clock the response cache is timed by (tests pass their own). */
  now?: () => number;
  /** `GET /contracts/results/{id}/opcodes` replays transactions (`--opcodes on`); off: 404, as upstream ships it. */
  opcodes?: boolean;
};

export type App = {
  /** The `node:http` request listener: the front, which hands Express what the route table does not serve. */
  listener: RequestListener;
  express: Express;
  /**
   * The listener of the second port (`--java-port`): the routes upstream serves from its Java service (the
   * `java` style ones, POST `/network/fees` included), sharing the response cache; the rest as on the first.
   */
  javaListener: RequestListener;
  /** The routes the front serves itself, in matching order (also for documentation and metrics). */
  routes: readonly RouteDef[];
  cache: ResponseCache;
};

/**
 * The route table, in matching order: fixed paths before parameters that would take them
 * (`/api/v1/tokens/balances` and `/api/v1/tokens/nfts` are not token IDs). Every thread builds its own from
 * these factories: the front to match and parse, each read worker to answer.
 */
export function apiRoutes(chainId?: bigint, opcodes = false): RouteDef[] {
  return [
    ...tokenListRoutes(),
    ...nftRoutes(),
    ...tokenRoutes(),
    ...blockRoutes(),
    ...networkRoutes(feeEstimatePost()),
    ...networkSupplyRoutes(),
    ...registeredNodeRoutes(),
    ...transactionRoutes(),
    ...accountRoutes(),
    ...balanceRoutes(),
    ...accountRelationRoutes(),
    ...accountJavaListRoutes(),
    ...hookRoutes(),
    ...topicRoutes(),
    ...scheduleRoutes(),
    ...contractCallRoutes(chainId),
    ...contractOpcodesRoutes(opcodes, chainId),
    ...contractRoutes(),
  ];
}

/**
 * The one wiring point of the API: the route table served by the front with its response cache, and the
 * Express application for everything else (health, further routers, the mirror node's 404 and errors).
 */
export function createApp(deps: AppDeps): App {
  const { reads, status, log } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", "weak");
  app.use((_req, res, next) => {
    res.set(CORS_HEADER, "*");
    next();
  });
  app.use(healthRoutes(status, deps.progress, deps.grpcStatus));
  if (deps.metrics && deps.metricsElsewhere !== true) app.use(metricsRoutes(deps.metrics));
  app.use(docsRoutes());
  for (const router of deps.routers ?? []) app.use(router);
  app.use((_req, _res, next) => next(notFound()));
  app.use(errorHandler(log));

  const generation = () => status().lastBlock;
  const routes = [...apiRoutes(undefined, deps.opcodes === true), ...(deps.extraRoutes ?? [])];
  const metrics = deps.metrics;
  const observe = deps.observe ?? (metrics === undefined ? undefined : (e) => metrics.observeRequest(e));
  const cache = createResponseCache(deps.cache);
  const front = (served: readonly RouteDef[]) =>
    createFront({
      routes: served,
      reads,
      cache,
      generation,
      listStaleMs: deps.listCacheMaxStaleMs ?? 1000,
      fallback: app,
      log,
      ...(observe === undefined ? {} : { observe }),
      ...(deps.now === undefined ? {} : { now: deps.now }),
    });
  const listener = front(routes);
  const javaListener = front(routes.filter((route) => route.style === "java"));
  return { listener, javaListener, express: app, routes, cache };
}

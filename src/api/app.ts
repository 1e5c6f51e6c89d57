import express, { type Express } from "express";
import type { IngestStatus } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import type { ReadStore } from "../store/read-store.ts";
import { answerHitsFirst, createListCache } from "./cache.ts";
import { errorHandler, notFound } from "./http-errors.ts";
import { mountBlockRoutes } from "./routes/blocks.ts";
import { healthRoutes } from "./routes/health.ts";
import { mountNetworkRoutes } from "./routes/network.ts";
import { mountNetworkSupplyRoutes } from "./routes/network-supply.ts";
import { nftRoutes } from "./routes/nfts.ts";
import { tokenListRoutes } from "./routes/token-lists.ts";
import { tokenRoutes } from "./routes/tokens.ts";

export type AppDeps = {
  store: ReadStore;
  status: () => IngestStatus;
  log: Logger;
  /** How stale a cached list response may be once newer data is indexed, in ms (default 1000). */
  listCacheMaxStaleMs?: number;
};

/** The Express application: health, then the mirror node's route groups, then the mirror node's 404 and errors. */
export function createApp({ store, status, log, listCacheMaxStaleMs }: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", "weak");
  // A list answer is as new as the last committed block; the cache recomputes once that changes.
  const listCache = createListCache({
    generation: () => status().lastBlock,
    maxStaleMs: listCacheMaxStaleMs,
  });
  // Single-entity lookups are cached only while nothing new is indexed: never stale, and a repeated lookup
  // (the common case for explorers and wallets) costs a map lookup.
  const lookupCache = createListCache({ generation: () => status().lastBlock, maxStaleMs: 0 });
  // Cached pages are answered before Express routes anything (their stored headers include CORS).
  answerHitsFirst(app, [listCache, lookupCache]);
  app.use((_req, res, next) => {
    res.set("Access-Control-Allow-Origin", "*");
    next();
  });
  app.use(healthRoutes(status));
  // Before tokenRoutes: `/api/v1/tokens/balances` and `/api/v1/tokens/nfts` are not token IDs.
  app.use(tokenListRoutes(store, listCache));
  app.use(nftRoutes(store, listCache));
  app.use(tokenRoutes(store, lookupCache));
  mountBlockRoutes(app, store, { generation: () => status().lastBlock });
  mountNetworkSupplyRoutes(app, store, log.child({ route: "network/supply" }));
  mountNetworkRoutes(app, store, log, { generation: () => status().lastBlock });
  app.use((_req, _res, next) => next(notFound()));
  app.use(errorHandler(log));
  return app;
}

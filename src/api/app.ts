import express, { type Express } from "express";
import type { IngestStatus } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import type { ReadStore } from "../store/read-store.ts";
import { errorHandler, notFound } from "./http-errors.ts";
import { blockRoutes } from "./routes/blocks.ts";
import { healthRoutes } from "./routes/health.ts";
import { tokenRoutes } from "./routes/tokens.ts";

export type AppDeps = {
  store: ReadStore;
  status: () => IngestStatus;
  log: Logger;
};

/** The Express application: health, then the mirror node's route groups, then the mirror node's 404 and errors. */
export function createApp({ store, status, log }: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", "weak");
  app.use((_req, res, next) => {
    res.set("Access-Control-Allow-Origin", "*");
    next();
  });
  app.use(healthRoutes(status));
  app.use(tokenRoutes(store));
  app.use(blockRoutes(store));
  app.use((_req, _res, next) => next(notFound()));
  app.use(errorHandler(log));
  return app;
}

import type { IncomingMessage, ServerResponse } from "node:http";
import { type Express, type Request, Router } from "express";
import type { ListCache } from "../api/cache.ts";
import type { Metrics } from "./metrics.ts";

/**
 * Interim wiring of HTTP metrics into the Express app: one observation per finished response, with the route
 * template Express matched. Requests the response cache answers before routing (see `answerHitsFirst`) count as
 * cache hits on the route "cached". An HTTP front that knows its routes and cache outcomes calls
 * `metrics.observeRequest` itself instead.
 */
export function observeRequests(app: Express, metrics: Metrics): void {
  const routed = new WeakSet<IncomingMessage>();
  const handler = app as unknown as {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  };
  const handle = handler.handle.bind(app);
  // Wraps the outermost entry point (after the cache's own wrapper), so cache hits are timed too.
  handler.handle = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const path = (req as Request).route?.path;
      const wasRouted = routed.has(req);
      metrics.observeRequest({
        route: !wasRouted ? "cached" : typeof path === "string" ? path : "unmatched",
        method: req.method ?? "OTHER",
        status: res.statusCode,
        seconds,
        cache: !wasRouted ? "hit" : (cacheOutcomes.get(res) ?? "none"),
      });
    });
    handle(req, res, next);
  };
  app.use((req, _res, next) => {
    routed.add(req);
    next();
  });
}

const cacheOutcomes = new WeakMap<ServerResponse, "hit" | "miss">();

/** The same cache, noting for the metrics whether each answer was cached already or computed. */
export function observeCache(cache: ListCache): ListCache {
  return {
    ...cache,
    send(req, res, upstreamMaxAge, compute) {
      let computed = false;
      cache.send(req, res, upstreamMaxAge, () => {
        computed = true;
        return compute();
      });
      cacheOutcomes.set(res, computed ? "miss" : "hit");
    },
  };
}

/** `GET /metrics`: Prometheus text format. */
export function metricsRoutes(metrics: Metrics): Router {
  const router = Router();
  router.get("/metrics", async (_req, res, next) => {
    try {
      const { contentType, body } = await metrics.render();
      res.status(200).set("Cache-Control", "no-store").type(contentType).send(body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

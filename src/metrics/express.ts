import type { IncomingMessage, ServerResponse } from "node:http";
import { type Express, type Request, type Response, Router } from "express";
import type { ListCache } from "../api/cache.ts";
import type { Metrics } from "./metrics.ts";

/**
 * Interim wiring of HTTP metrics into the Express app: one observation per finished response. Call it after
 * every other wrapper of `app.handle` (the response cache's, the block fast path's) so that it times all
 * requests. The route is the template Express matched; answers written before Express saw the request are
 * "cached" (a response cache hit) or "direct" (the block routes' fast path). An HTTP front that knows its
 * routes and cache outcomes calls `metrics.observeRequest` itself instead.
 */
export function observeRequests(app: Express, metrics: Metrics): void {
  const handler = app as unknown as {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  };
  const handle = handler.handle.bind(app);
  handler.handle = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const outcome = cacheOutcomes.get(res);
      // Express gives every response it handles `locals`; a route it matched leaves `req.route`.
      const viaExpress = (res as Partial<Response>).locals !== undefined;
      const path = (req as Request).route?.path;
      metrics.observeRequest({
        route: viaExpress
          ? typeof path === "string"
            ? path
            : "unmatched"
          : outcome === "hit"
            ? "cached"
            : "direct",
        method: req.method ?? "OTHER",
        status: res.statusCode,
        seconds,
        cache: outcome ?? "none",
      });
    });
    handle(req, res, next);
  };
}

const cacheOutcomes = new WeakMap<ServerResponse, "hit" | "miss">();

/**
 * The same cache, noting for the metrics whether each answer was cached already or computed. Wrap a cache
 * before anything (such as `answerHitsFirst`) holds on to it.
 */
export function observeCache(cache: ListCache): ListCache {
  return {
    ...cache,
    tryServe(req, res) {
      const served = cache.tryServe(req, res);
      if (served) cacheOutcomes.set(res, "hit");
      return served;
    },
    serveHits(req, res, next) {
      const served = cache.tryServe(req, res);
      if (served) cacheOutcomes.set(res, "hit");
      else next();
    },
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
      // Written as is: Express would reorder the content type's parameters, and scrapers compare it.
      res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

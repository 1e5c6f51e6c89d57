import { Router } from "express";
import type { Metrics } from "./metrics.ts";

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

/**
 * The HTTP front: every request arrives here from `node:http`.
 *
 *   node:http ─▶ route table match? ─yes─▶ response cache hit? ─yes─▶ write the kept answer
 *                     │                          └─no──▶ route handler ─▶ render, keep, write
 *                     └─no──▶ Express (health, other groups' routers, 404)
 *
 * The route-table routes take a lean path (Express's per-request setup and routing cost several times a
 * whole token lookup); everything else is Express's. Any error on the lean path, expected or not, is answered
 * with the mirror node's error body (500 `Internal error` for unexpected ones, logged once) and never
 * escapes to crash the process.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../log.ts";
import {
  CORS_HEADER,
  JSON_CONTENT_TYPE,
  type ResponseCache,
  renderResponse,
  writeResponse,
} from "./cache.ts";
import { errorAnswer } from "./http-errors.ts";
import { createRouteMatcher } from "./route-match.ts";
import type { RouteDef } from "./routes/route-table.ts";

/** One answered request, for metrics. `route` is a template (bounded set), never the raw URL. */
export type RequestObservation = {
  route: string;
  method: string;
  status: number;
  seconds: number;
  /** `hit`/`miss`: a cacheable route answered from / into the cache; `none`: not cacheable or not 2xx. */
  cache: "hit" | "miss" | "none";
};

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The label of requests no route matched (Express's 404, or a method the routes do not take). */
export const UNMATCHED_ROUTE = "unmatched";

export type FrontDeps = {
  routes: readonly RouteDef[];
  cache: ResponseCache;
  /** Changes whenever newly indexed data becomes visible to readers (the last committed block). */
  generation: () => unknown;
  /** How long a `list` answer may be served after newer data is indexed, in ms. */
  listStaleMs: number;
  /** Everything the route table does not answer. */
  fallback: RequestListener;
  log: Logger;
  /** Called once per answered request (when the response finishes), if given. */
  observe?: (observation: RequestObservation) => void;
  /** Milliseconds of a monotonic clock (tests pass their own). */
  now?: () => number;
};

export function createFront(deps: FrontDeps): RequestListener {
  const { routes, cache, generation, listStaleMs, fallback, log, observe } = deps;
  const now = deps.now ?? (() => performance.now());
  const match = createRouteMatcher(routes);
  const staleSeconds = Math.ceil(listStaleMs / 1000);
  // The header a route's answers carry: the public mirror node's max-age, raised for lists to the staleness
  // bound when that is higher, so the header never promises fresher data than the cache keeps.
  const cacheControls = new Map(
    routes.map((route) => [
      route,
      `public, max-age=${route.caching === "stale-ok" ? Math.max(route.maxAge, staleSeconds) : route.maxAge}`,
    ]),
  );

  const report = (
    res: ServerResponse,
    started: number,
    route: string,
    method: string,
    cacheState: RequestObservation["cache"],
  ) => {
    if (observe === undefined) return;
    try {
      observe({
        route,
        method,
        status: res.statusCode,
        seconds: (performance.now() - started) / 1000,
        cache: cacheState,
      });
    } catch (error) {
      log.error({ err: error }, "request observer failed");
    }
  };

  const toExpress = (req: IncomingMessage, res: ServerResponse, started: number) => {
    if (observe !== undefined) {
      res.once("finish", () => report(res, started, expressRoute(req), req.method ?? "", "none"));
    }
    fallback(req, res);
  };

  return (req, res) => {
    const started = observe === undefined ? 0 : performance.now();
    const method = req.method ?? "";
    const url = req.url ?? "/";
    let template = UNMATCHED_ROUTE;
    try {
      if (method !== "GET" && method !== "HEAD") return toExpress(req, res, started);
      const question = url.indexOf("?");
      const found = match(question === -1 ? url : url.slice(0, question));
      if (found === null) return toExpress(req, res, started);
      const { route } = found;
      template = route.template;
      const cacheable = route.caching !== "none";
      const current = cacheable ? generation() : undefined;
      const at = cacheable ? now() : 0;
      if (cacheable) {
        const kept = cache.get(url, current, at);
        if (kept !== undefined) {
          writeResponse(req, res, kept);
          report(res, started, template, method, "hit");
          return;
        }
      }
      const answer = route.handle({ url, params: found.params });
      const rendered = renderResponse(answer.status, answer.json, cacheControls.get(route)!, answer.next);
      const cacheableAnswer = cacheable && answer.status >= 200 && answer.status < 300;
      // Filed under the generation read before the query: an answer computed while a file commits is at
      // least as new as that generation.
      if (cacheableAnswer)
        cache.offer(url, rendered, current, at, route.caching === "stale-ok" ? listStaleMs : 0);
      writeResponse(req, res, rendered);
      report(res, started, template, method, cacheableAnswer ? "miss" : "none");
    } catch (error) {
      writeError(req, res, error, log);
      report(res, started, template, method, "none");
    }
  };
}

/** Writes the mirror node's error body for `error`; if an answer was already under way, drops the connection. */
function writeError(req: IncomingMessage, res: ServerResponse, error: unknown, log: Logger): void {
  const { status, body } = errorAnswer(error, log, req.url);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const bytes = Buffer.from(body);
  res.writeHead(status, [
    CORS_HEADER,
    "*",
    "Content-Type",
    JSON_CONTENT_TYPE,
    "Content-Length",
    String(bytes.length),
  ]);
  res.end(req.method === "HEAD" ? undefined : bytes);
}

/** The route template Express matched (`/health/liveness`, a mounted router's path), or `unmatched`. */
function expressRoute(req: IncomingMessage): string {
  const routed = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  const path = routed.route?.path;
  return typeof path === "string" ? `${routed.baseUrl ?? ""}${path}` : UNMATCHED_ROUTE;
}

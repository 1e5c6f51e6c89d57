/**
 * The HTTP front: every request arrives here from `node:http`.
 *
 *   node:http ─▶ route table match? ─yes─▶ response cache hit? ─yes─▶ write the kept answer
 *                     │                          └─no──▶ read worker: parse, answer, render ─▶ keep, write
 *                     └─no──▶ Express (health, metrics, docs, 404)
 *
 * This thread never runs a query nor parses a query string: it matches the path, answers from the cache and
 * writes; every miss goes to the read-worker pool (`reads`) as the route's template and the URL, and comes back
 * as rendered bytes, or a failure (a parameter error answers 400 as it would have here; a query past its
 * deadline answers 503, as the mirror node answers a statement timeout). POST on a route that takes it
 * (`/api/v1/network/fees`) is parsed here (body included) and answered the same way, never cached;
 * `java`-style routes (`/api/v1/network/*`) also answer OPTIONS (a CORS preflight as Spring does) and 405
 * here, and every other path's OPTIONS is answered as the Node service's `cors` middleware does (preflight.ts).
 *
 * The route-table routes take a lean path (Express's per-request setup and routing cost several times a
 * whole token lookup); everything else is Express's. Any error on the lean path, expected or not, is answered
 * with the mirror node's error body (500 `Internal error` for unexpected ones, logged once) and never
 * escapes to crash the process.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../log.ts";
import { cacheControlOf } from "./answer-job.ts";
import {
  CORS_HEADER,
  headerPrefixes,
  JSON_CONTENT_TYPE,
  type RenderedResponse,
  type ResponseCache,
  responseOf,
  writeResponse,
} from "./cache.ts";
import { javaHeaderTooLarge, MAX_JAVA_REQUEST_HEADER_BYTES, requestHeaderBytes } from "./header-limits.ts";
import { errorAnswer } from "./http-errors.ts";
import { JavaHttpError, javaErrorBody, javaErrorOf, javaMethodNotAllowed } from "./java/index.ts";
import { isPreflight, writeJavaPreflight, writeNodeOptions } from "./preflight.ts";
import type { ReadAnswerer } from "./read-pool.ts";
import { errorOf, type ReadFailure, type ReadJob, type ReadOutcome } from "./read-protocol.ts";
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
  /** Computes what the cache does not have: the read-worker pool. */
  reads: ReadAnswerer;
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
  const { routes, reads, cache, generation, listStaleMs, fallback, log, observe } = deps;
  const now = deps.now ?? (() => performance.now());
  const match = createRouteMatcher(routes);
  // The header a route's answers carry (the read workers render bodies, the front their headers); Java 4xx
  // errors keep it too.
  const cacheControls = new Map(routes.map((route) => [route, cacheControlOf(route, listStaleMs)]));
  const prefixes = new Map(routes.map((route) => [route, headerPrefixes(cacheControls.get(route)!)]));

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

  /** A failure of the answer step, written in the route's style (a Java 4xx keeps the path's headers). */
  const writeFailure = (req: IncomingMessage, res: ServerResponse, route: RouteDef, failure: ReadFailure) => {
    if (failure.kind === "timeout") log.warn({ url: req.url, route: route.template }, "query timed out");
    else if (failure.kind === "unavailable")
      log.warn({ url: req.url }, "no read worker could take the request");
    writeRouteError(req, res, route, errorOf(failure, route.style ?? "node"));
  };

  const writeRouteError = (req: IncomingMessage, res: ServerResponse, route: RouteDef, error: unknown) => {
    if (route.style === "java") {
      const javaError = javaErrorOf(error, log, req.url);
      // Upstream sets the path's headers before it reads the parameters, and its 4xx answers keep them.
      writeJavaError(
        req,
        res,
        javaError.status < 500
          ? withHeader(javaError, "Cache-Control", cacheControls.get(route)!)
          : javaError,
      );
    } else writeError(req, res, error, log);
  };

  /** GET and HEAD of a route: from the cache, or parsed and computed by a read worker (and offered). */
  const answerGet = (
    req: IncomingMessage,
    res: ServerResponse,
    route: RouteDef,
    url: string,
    params: Record<string, string>,
    started: number,
  ) => {
    const cacheable = route.caching !== "none";
    const current = cacheable ? generation() : undefined;
    const at = cacheable ? now() : 0;
    if (cacheable) {
      const kept = cache.get(url, current, at);
      if (kept !== undefined) {
        writeResponse(req, res, kept, route.style !== "java");
        report(res, started, route.template, req.method ?? "", "hit");
        return;
      }
    }
    const request = { url, params };
    // Parsed by the read worker (the front sends the template and the URL, never a parsed query to clone), but
    // for the few routes whose checks read a request header.
    const job: ReadJob =
      route.parsesHeaders === true
        ? { template: route.template, method: "GET", query: route.parse(request, req.headers), request }
        : { template: route.template, method: "GET", request };
    reads.run(job).then(
      (outcome: ReadOutcome) => {
        if (!outcome.ok) {
          writeFailure(req, res, route, outcome.failure);
          report(res, started, route.template, req.method ?? "", "none");
          return;
        }
        const rendered: RenderedResponse = responseOf(
          outcome.response,
          cacheControls.get(route)!,
          prefixes.get(route),
        );
        const cacheableAnswer = cacheable && rendered.status >= 200 && rendered.status < 300;
        // Filed under the generation read before the query: an answer computed while a file commits is at
        // least as new as that generation.
        if (cacheableAnswer)
          cache.offer(url, rendered, current, at, route.caching === "stale-ok" ? listStaleMs : 0);
        writeResponse(req, res, rendered, route.style !== "java");
        report(res, started, route.template, req.method ?? "", cacheableAnswer ? "miss" : "none");
      },
      unexpectedRejection(req, res, route, started),
    );
  };

  /** A promise of the answer step that rejected (a bug: the pool resolves every job): 500, logged. */
  const unexpectedRejection =
    (req: IncomingMessage, res: ServerResponse, route: RouteDef, started: number) => (error: unknown) => {
      writeRouteError(req, res, route, error);
      report(res, started, route.template, req.method ?? "", "none");
    };

  /** POST: the body and parameters read here, the estimate computed by a read worker; never cached. */
  const answerPost = (
    req: IncomingMessage,
    res: ServerResponse,
    route: RouteDef,
    post: NonNullable<RouteDef["post"]>,
    url: string,
    started: number,
  ) => {
    if (observe !== undefined) res.once("finish", () => report(res, started, route.template, "POST", "none"));
    const request = { url, params: {} };
    post
      .parse(req, res, request)
      .then((query) => reads.run({ template: route.template, method: "POST", query, request }))
      .then(
        (outcome) => {
          if (outcome.ok) writeResponse(req, res, responseOf(outcome.response, null), false);
          else writeJavaError(req, res, javaErrorOf(errorOf(outcome.failure, "java"), log, req.url));
        },
        (error: unknown) => writeJavaError(req, res, javaErrorOf(error, log, req.url)),
      );
  };

  /** Methods other than GET and HEAD on a `java` route: POST if it takes it, OPTIONS, else 405 with `Allow`. */
  const answerOtherMethod = (
    req: IncomingMessage,
    res: ServerResponse,
    route: RouteDef,
    url: string,
    started: number,
  ) => {
    const method = req.method ?? "";
    const allowed = route.post === undefined ? JAVA_GET_METHODS : JAVA_GET_POST_METHODS;
    if (method === "POST" && route.post !== undefined)
      return answerPost(req, res, route, route.post, url, started);
    if (method === "OPTIONS" && isPreflight(req)) {
      writeJavaPreflight(req, res);
    } else if (method === "OPTIONS") {
      // Spring writes the list without spaces.
      res.writeHead(200, [CORS_HEADER, "*", "Allow", allowed, "Content-Length", "0"]);
      res.end();
    } else {
      writeJavaError(req, res, javaMethodNotAllowed(method, allowed.split(",")));
    }
    report(res, started, route.template, method, "none");
  };

  return (req, res) => {
    const started = observe === undefined ? 0 : performance.now();
    const method = req.method ?? "";
    const url = req.url ?? "/";
    let route: RouteDef | undefined;
    try {
      const question = url.indexOf("?");
      const found = match(question === -1 ? url : url.slice(0, question));
      if (method === "OPTIONS" && found?.route.style !== "java") {
        // The Node service answers every OPTIONS request itself (CORS), whatever the path.
        writeNodeOptions(req, res);
        report(res, started, found?.route.template ?? UNMATCHED_ROUTE, method, "none");
        return;
      }
      if (found === null) return toExpress(req, res, started);
      route = found.route;
      if (route.style === "java" && requestHeaderBytes(req) > MAX_JAVA_REQUEST_HEADER_BYTES) {
        writeJavaError(req, res, javaHeaderTooLarge());
        report(res, started, route.template, method, "none");
        return;
      }
      if (method === "GET" || method === "HEAD")
        return answerGet(req, res, route, url, found.params, started);
      if (route.style !== "java") return toExpress(req, res, started);
      answerOtherMethod(req, res, route, url, started);
    } catch (error) {
      // A path the dispatcher could not decode: OPTIONS is answered as on any path; another method no route takes
      // gets Express's answer, as before.
      if (route === undefined && method === "OPTIONS") {
        writeNodeOptions(req, res);
        report(res, started, UNMATCHED_ROUTE, method, "none");
        return;
      }
      if (route === undefined && method !== "GET" && method !== "HEAD") return toExpress(req, res, started);
      if (route === undefined) writeError(req, res, error, log);
      else writeRouteError(req, res, route, error);
      report(res, started, route?.template ?? UNMATCHED_ROUTE, method, "none");
    }
  };
}

const JAVA_GET_METHODS = "GET,HEAD,OPTIONS";
const JAVA_GET_POST_METHODS = "GET,HEAD,POST,OPTIONS";

function withHeader(error: JavaHttpError, name: string, value: string): JavaHttpError {
  return new JavaHttpError(error.status, error.messages, { ...error.headers, [name]: value });
}

/**
 * Writes a Java error: `application/json` exactly, no ETag (upstream tags 2xx answers only), the error's own
 * headers; if an answer was already under way, drops the connection.
 */
function writeJavaError(req: IncomingMessage, res: ServerResponse, error: JavaHttpError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const bytes = Buffer.from(javaErrorBody(error.messages));
  const headers = [CORS_HEADER, "*"];
  for (const [name, value] of Object.entries(error.headers)) headers.push(name, value);
  headers.push("Content-Type", "application/json", "Content-Length", String(bytes.length));
  res.writeHead(error.status, headers);
  res.end(req.method === "HEAD" ? undefined : bytes);
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

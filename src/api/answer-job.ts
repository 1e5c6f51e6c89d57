/**
 * The answer step of the route table, wherever the index is read: finds a job's route by its template, runs
 * `answer` (or `post.answer`) on the thread's store and renders the result once (body, headers, ETag), so the
 * front only writes bytes. Each read worker runs this; nothing in it keeps state between jobs.
 */
import type { ReadStore } from "../store/read-store.ts";
import { CORS_HEADER, JSON_CONTENT_TYPE, type RenderedResponse, renderResponse, weakEtag } from "./cache.ts";
import { JAVA_JSON_TYPE, javaEtag } from "./java/index.ts";
import { failureOf, type ReadJob, type ReadOutcome } from "./read-protocol.ts";
import type { RouteAnswer, RouteDef } from "./routes/route-table.ts";

/**
 * The `Cache-Control` of a route's answers: the public mirror node's max-age, raised for lists to the staleness
 * bound when that is higher, so the header never promises fresher data than the response cache keeps.
 */
export function cacheControlOf(route: RouteDef, listStaleMs: number): string {
  const maxAge =
    route.caching === "stale-ok" ? Math.max(route.maxAge, Math.ceil(listStaleMs / 1000)) : route.maxAge;
  return `public, max-age=${maxAge}`;
}

/** Renders a GET answer in its route's style: content type, ETag (weak, or the Java service's strong one). */
export function renderRouteAnswer(
  route: RouteDef,
  answer: RouteAnswer,
  cacheControl: string,
): RenderedResponse {
  const java = route.style === "java";
  return renderResponse(
    answer.status,
    answer.json,
    cacheControl,
    answer.next,
    answer.contentType ?? (java ? JAVA_JSON_TYPE : JSON_CONTENT_TYPE),
    java ? javaEtag : weakEtag,
  );
}

/** Renders a POST answer: the Java service's JSON type, no ETag and no `Cache-Control` (never cached). */
export function renderPostAnswer(answer: RouteAnswer): RenderedResponse {
  const bytes = Buffer.byteLength(answer.json);
  const headers = [
    CORS_HEADER,
    "*",
    "Content-Type",
    answer.contentType ?? JAVA_JSON_TYPE,
    "Content-Length",
    String(bytes),
  ];
  return { status: answer.status, body: answer.json, bytes, etag: "", cacheControl: "", headers };
}

/** Answers jobs for `routes` from `store`; `listStaleMs` decides list routes' `Cache-Control`. */
export function createJobAnswerer(
  routes: readonly RouteDef[],
  store: ReadStore,
  listStaleMs: number,
): (job: ReadJob) => ReadOutcome {
  const byTemplate = new Map(routes.map((route) => [route.template, route]));
  const cacheControls = new Map(routes.map((route) => [route, cacheControlOf(route, listStaleMs)]));
  return (job) => {
    const route = byTemplate.get(job.template);
    try {
      if (route === undefined) throw new Error(`no route ${job.template} in this thread's table`);
      if (job.method === "POST") {
        if (route.post === undefined) throw new Error(`route ${job.template} takes no POST`);
        return { ok: true, response: renderPostAnswer(route.post.answer(store, job.query, job.request)) };
      }
      const answer = route.answer(store, job.query, job.request);
      return { ok: true, response: renderRouteAnswer(route, answer, cacheControls.get(route)!) };
    } catch (error) {
      return { ok: false, failure: failureOf(error) };
    }
  };
}

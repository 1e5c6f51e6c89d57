/**
 * The answer step of the route table, wherever the index is read: finds a job's route by its template, runs
 * `answer` (or `post.answer`) on the thread's store and renders the body once (its bytes, ETag and `Link`), so
 * the front only adds the route's headers and writes. Each read worker runs this; nothing in it keeps state
 * between jobs.
 */
import type { ReadStore } from "../store/read-store.ts";
import { JSON_CONTENT_TYPE, type RenderedBody, renderBody, weakEtag } from "./cache.ts";
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

/** Renders a GET answer's body in its route's style: content type, ETag (weak, or the Java service's strong one). */
export function renderRouteAnswer(route: RouteDef, answer: RouteAnswer): RenderedBody {
  const java = route.style === "java";
  return renderBody(
    answer.status,
    answer.json,
    answer.next,
    answer.contentType ?? (java ? JAVA_JSON_TYPE : JSON_CONTENT_TYPE),
    java ? javaEtag : weakEtag,
    answer.maxAge ?? null,
  );
}

/** Renders a POST answer's body: the Java service's JSON type, no ETag (and, from the front, no `Cache-Control`). */
export function renderPostAnswer(answer: RouteAnswer): RenderedBody {
  return renderBody(answer.status, answer.json, null, answer.contentType ?? JAVA_JSON_TYPE, null);
}

/** Answers jobs: a GET's answer is always synchronous; a POST's may be a promise (an EVM call). */
export type JobAnswerer = {
  (job: ReadJob & { readonly method: "GET" }): ReadOutcome;
  (job: ReadJob): ReadOutcome | Promise<ReadOutcome>;
};

/** Answers jobs for `routes` from `store`. */
export function createJobAnswerer(routes: readonly RouteDef[], store: ReadStore): JobAnswerer {
  const byTemplate = new Map(routes.map((route) => [route.template, route]));
  return ((job: ReadJob): ReadOutcome | Promise<ReadOutcome> => {
    const route = byTemplate.get(job.template);
    try {
      if (route === undefined) throw new Error(`no route ${job.template} in this thread's table`);
      if (job.method === "POST") {
        if (route.post === undefined) throw new Error(`route ${job.template} takes no POST`);
        const answer = route.post.answer(store, job.query, job.request);
        if (answer instanceof Promise) {
          return answer.then(
            (settled): ReadOutcome => ({ ok: true, response: renderPostAnswer(settled) }),
            (error: unknown): ReadOutcome => ({ ok: false, failure: failureOf(error) }),
          );
        }
        return { ok: true, response: renderPostAnswer(answer) };
      }
      return { ok: true, response: renderRouteAnswer(route, route.answer(store, job.query, job.request)) };
    } catch (error) {
      return { ok: false, failure: failureOf(error) };
    }
  }) as JobAnswerer;
}

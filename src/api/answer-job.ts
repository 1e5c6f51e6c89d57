/**
 * The answer step of the route table, wherever the index is read: finds a job's route by its template, runs
 * its `parse` when the job carries no query, then `answer` (or `post.answer`) on the thread's store and renders the body once (its bytes, ETag and `Link`), so
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
  if (answer.binary !== undefined) return binaryBody(answer.status, answer.binary);
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

/** A binary answer (gRPC read jobs) as it travels back: no ETag, no links, nothing to render. */
function binaryBody(status: number, body: Uint8Array): RenderedBody {
  return {
    status,
    body,
    bytes: body.byteLength,
    etag: "",
    contentType: "application/x-protobuf",
    link: null,
    maxAge: null,
  };
}

/** Renders a POST answer's body: the Java service's JSON type, no ETag (and, from the front, no `Cache-Control`). */
export function renderPostAnswer(answer: RouteAnswer): RenderedBody {
  return renderBody(answer.status, answer.json, null, answer.contentType ?? JAVA_JSON_TYPE, null);
}

/**
 * Answers jobs: a GET's answer is synchronous, but for a route with `answerAsync` (an EVM replay); a POST's may be a
 * promise (an EVM call).
 */
export type JobAnswerer = {
  (job: ReadJob & { readonly method: "GET" }): ReadOutcome;
  (job: ReadJob): ReadOutcome | Promise<ReadOutcome>;
};

/**
 * Answers jobs for `routes` from `store`. Each job's statements run in one read transaction: an answer built by
 * several statements (`/accounts/{id}`: entity, balances, token balances, transactions) reads one snapshot of
 * the index, never parts of two commits. The transaction is deferred: it takes its snapshot at its first read
 * and holds no lock a writer waits on (WAL). A POST whose answer is a promise (an EVM call) keeps its read
 * transaction open until the promise settles; the read worker answers nothing else meanwhile.
 */
export function createJobAnswerer(routes: readonly RouteDef[], store: ReadStore): JobAnswerer {
  const byTemplate = new Map(routes.map((route) => [route.template, route]));
  const db = store.db;
  const inOneSnapshot = db.transaction((route: RouteDef, query: unknown, job: ReadJob): ReadOutcome => {
    return { ok: true, response: renderRouteAnswer(route, route.answer(store, query, job.request)) };
  });
  const endRead = () => {
    if (db.inTransaction) db.exec("COMMIT");
  };
  /** Runs an answer that may await, in one read transaction held until it settles. */
  const answerHeld = (
    run: () => RouteAnswer | Promise<RouteAnswer>,
    render: (answer: RouteAnswer) => RenderedBody,
  ): ReadOutcome | Promise<ReadOutcome> => {
    db.exec("BEGIN DEFERRED");
    let answer: RouteAnswer | Promise<RouteAnswer>;
    try {
      answer = run();
    } catch (error) {
      endRead();
      throw error;
    }
    if (answer instanceof Promise) {
      return answer
        .then(
          (settled): ReadOutcome => ({ ok: true, response: render(settled) }),
          (error: unknown): ReadOutcome => ({ ok: false, failure: failureOf(error) }),
        )
        .finally(endRead);
    }
    endRead();
    return { ok: true, response: render(answer) };
  };
  const answerPost = (route: RouteDef, job: ReadJob): ReadOutcome | Promise<ReadOutcome> => {
    const post = route.post;
    if (post === undefined) throw new Error(`route ${job.template} takes no POST`);
    return answerHeld(() => post.answer(store, job.query, job.request), renderPostAnswer);
  };
  return ((job: ReadJob): ReadOutcome | Promise<ReadOutcome> => {
    const route = byTemplate.get(job.template);
    try {
      if (route === undefined) throw new Error(`no route ${job.template} in this thread's table`);
      if (job.method === "POST") return answerPost(route, job);
      // A job without a query is parsed here (its parameter errors are answers like any other), outside the
      // read transaction: parsing reads no table.
      const query = "query" in job ? job.query : route.parse(job.request);
      const answerAsync = route.answerAsync;
      if (answerAsync !== undefined) {
        return answerHeld(
          () => answerAsync(store, query, job.request),
          (answer) => renderRouteAnswer(route, answer),
        );
      }
      return inOneSnapshot.deferred(route, query, job);
    } catch (error) {
      return { ok: false, failure: failureOf(error) };
    }
  }) as JobAnswerer;
}

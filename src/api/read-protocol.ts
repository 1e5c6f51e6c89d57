/**
 * What the HTTP front and the read workers say to each other. The front sends a job: for a GET, the route's
 * template and the URL as sent, nothing more (the worker finds the path parameters again and runs the route's
 * `parse`, so a 400 comes back like any answer and no parsed query is cloned between threads); for a POST, or a
 * gRPC read job, also the path parameters and the query already parsed. A worker answers with the rendered body
 * or with a failure described as data (an `Error` does not survive the trip between threads as its own class).
 * Every value here survives `structuredClone`.
 *
 * On the wire, jobs and answers travel as arrays of plain values (`WireJob`, `WireOutcome`), several to a
 * message: cloning an object costs a property name per field each way, and every message costs both threads a
 * wake-up and an event dispatch, which together cost more than a lookup's query (see bench/read-pool.ts).
 */
import type { RenderedBody } from "./cache.ts";
import { HttpError } from "./http-errors.ts";
import { type JavaErrorMessage, JavaHttpError } from "./java/index.ts";
import { ParameterError } from "./params/errors.ts";
import type { RouteRequest } from "./routes/route-table.ts";

/**
 * One request for a read worker. `query`, when present, is what the answer step takes (POST: the `post.parse`
 * value; a gRPC read job: its query); absent (a GET from the HTTP front), the worker runs the route's `parse` on
 * `request` itself.
 */
export type ReadJob = {
  readonly template: string;
  readonly method: "GET" | "POST";
  readonly query?: unknown;
  readonly request: RouteRequest;
};

/** Why a job has no answer. */
export type ReadFailure =
  /** An `HttpError` or `ParameterError` thrown by `answer` (e.g. 404). */
  | {
      readonly kind: "http";
      readonly status: number;
      readonly messages: readonly string[];
      /** `HttpError.details` (upstream's `detail` of a message), if any. */
      readonly details?: readonly (string | undefined)[];
    }
  /** A `JavaHttpError` thrown by a `java` route's `answer`. */
  | {
      readonly kind: "java";
      readonly status: number;
      readonly messages: readonly JavaErrorMessage[];
      readonly headers: Readonly<Record<string, string>>;
    }
  /** Anything else thrown (a bug, a driver error): its name, message, stack and driver code. */
  | {
      readonly kind: "unexpected";
      readonly name: string;
      readonly message: string;
      readonly stack: string | undefined;
      readonly code: string | undefined;
    }
  /** The query ran past the deadline (`--query-timeout-ms`), or waited that long for a worker. */
  | { readonly kind: "timeout" }
  /** No worker can take it: the queue is full, or the pool is closing. */
  | { readonly kind: "unavailable" };

export type ReadOutcome =
  | { readonly ok: true; readonly response: RenderedBody }
  | { readonly ok: false; readonly failure: ReadFailure };

/**
 * A job on the wire: `[id, template, method, url]` for a job the worker parses (four primitives: the cheapest
 * message to clone), `[id, template, method, url, path parameters, query]` for one parsed already.
 */
export type WireJob =
  | readonly [id: number, template: string, method: ReadJob["method"], url: string]
  | readonly [
      id: number,
      template: string,
      method: ReadJob["method"],
      url: string,
      params: RouteRequest["params"],
      query: unknown,
    ];

/** The path parameters of a URL under a route's template (the worker's side of the match the front made). */
export type ParamsOf = (template: string, url: string) => Record<string, string>;

/**
 * An answer on the wire: `[id, status, body, UTF-8 bytes, ETag, content type, Link header or null, max-age or
 * null]`.
 */
export type WireAnswer = readonly [
  id: number,
  status: number,
  body: string | Uint8Array,
  bytes: number,
  etag: string,
  contentType: string,
  link: string | null,
  maxAge: number | null,
];

/** A failure on the wire: `[id, failure]`. */
export type WireFailure = readonly [id: number, failure: ReadFailure];

export type WireOutcome = WireAnswer | WireFailure;

/** Messages from the front to a read worker: jobs, answered in order. */
export type ReadWorkerCommand = { readonly type: "jobs"; readonly jobs: readonly WireJob[] };

/** Messages from a read worker to the front. */
export type ReadWorkerMessage =
  | { readonly type: "ready" }
  /** The worker could not open the index or build its routes; it ends after sending this. */
  | { readonly type: "start-failed"; readonly reason: string }
  /** Outcomes in the order the jobs were sent. */
  | { readonly type: "done"; readonly results: readonly WireOutcome[] };

export function toWireJob(id: number, job: ReadJob): WireJob {
  if (!("query" in job)) return [id, job.template, job.method, job.request.url];
  return [id, job.template, job.method, job.request.url, job.request.params, job.query];
}

/** A job as it arrived; `paramsOf` finds the path parameters of a job that came without them. */
export function fromWireJob(wire: WireJob, paramsOf: ParamsOf): { id: number; job: ReadJob } {
  if (wire.length === 4) {
    const [id, template, method, url] = wire;
    return { id, job: { template, method, request: { url, params: paramsOf(template, url) } } };
  }
  const [id, template, method, url, params, query] = wire;
  return { id, job: { template, method, query, request: { url, params } } };
}

export function toWireOutcome(id: number, outcome: ReadOutcome): WireOutcome {
  if (!outcome.ok) return [id, outcome.failure];
  const { status, body, bytes, etag, contentType, link, maxAge } = outcome.response;
  return [id, status, body, bytes, etag, contentType, link, maxAge];
}

export function fromWireOutcome(wire: WireOutcome): ReadOutcome {
  if (wire.length === 2) return { ok: false, failure: wire[1] };
  const [, status, body, bytes, etag, contentType, link, maxAge] = wire;
  return { ok: true, response: { status, body, bytes, etag, contentType, link, maxAge } };
}

/** A thrown value as a `ReadFailure`. */
export function failureOf(error: unknown): ReadFailure {
  if (error instanceof HttpError || error instanceof ParameterError) {
    const details =
      error instanceof HttpError && error.details.length > 0 ? { details: [...error.details] } : {};
    return { kind: "http", status: error.status, messages: [...error.messages], ...details };
  }
  if (error instanceof JavaHttpError) {
    return { kind: "java", status: error.status, messages: error.messages, headers: error.headers };
  }
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
    code?: unknown;
  };
  return {
    kind: "unexpected",
    name: typeof fields.name === "string" ? fields.name : "Error",
    message: typeof fields.message === "string" ? fields.message : String(error),
    stack: typeof fields.stack === "string" ? fields.stack : undefined,
    code: fields.code === undefined ? undefined : String(fields.code),
  };
}

/**
 * The error a failure stands for, as the front's error writers take it: the HTTP errors as their classes,
 * a timeout or an unavailable pool as the mirror node's answer to a database error (503 `Service unavailable`
 * in the Node style, 503 `Service Unavailable` in the Java one), anything else as an `Error` carrying the
 * original name, message, stack and code (which `errorAnswer`/`javaErrorOf` log and map to 500, or to 503 for a
 * busy database).
 */
export function errorOf(failure: ReadFailure, style: "node" | "java"): Error {
  switch (failure.kind) {
    case "http":
      return new HttpError(failure.status, [...failure.messages], failure.details ?? []);
    case "java":
      return new JavaHttpError(failure.status, failure.messages, failure.headers);
    case "timeout":
    case "unavailable":
      return style === "java"
        ? new JavaHttpError(503, [{ message: "Service Unavailable" }])
        : new HttpError(503, ["Service unavailable"]);
    case "unexpected": {
      const error = new Error(failure.message);
      error.name = failure.name;
      if (failure.stack !== undefined) error.stack = failure.stack;
      if (failure.code !== undefined) Object.assign(error, { code: failure.code });
      return error;
    }
  }
}

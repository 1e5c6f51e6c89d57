/**
 * What the HTTP front and the read workers say to each other. The front sends a job (the route's template, what
 * its `parse` returned, the request's URL and path parameters); a worker answers with the rendered response or
 * with a failure described as data (an `Error` does not survive the trip between threads as its own class).
 * Every value here survives `structuredClone`.
 */
import type { RenderedResponse } from "./cache.ts";
import { HttpError } from "./http-errors.ts";
import { type JavaErrorMessage, JavaHttpError } from "./java/index.ts";
import { ParameterError } from "./params/errors.ts";
import type { RouteRequest } from "./routes/route-table.ts";

/** One request for a read worker. `query` is the route's `parse` value (POST: its `post.parse` value). */
export type ReadJob = {
  readonly template: string;
  readonly method: "GET" | "POST";
  readonly query: unknown;
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
  | { readonly ok: true; readonly response: RenderedResponse }
  | { readonly ok: false; readonly failure: ReadFailure };

/**
 * Messages from the front to a read worker: jobs, answered in order. Several travel in one message when the
 * front has several for the worker at once (a message costs more than a small job's clone).
 */
export type ReadWorkerCommand = {
  readonly type: "jobs";
  readonly jobs: readonly { readonly id: number; readonly job: ReadJob }[];
};

/** Messages from a read worker to the front. */
export type ReadWorkerMessage =
  | { readonly type: "ready" }
  /** The worker could not open the index or build its routes; it ends after sending this. */
  | { readonly type: "start-failed"; readonly reason: string }
  /** Outcomes in the order the jobs were sent (one per message: the front times each job from the last). */
  | {
      readonly type: "done";
      readonly results: readonly { readonly id: number; readonly outcome: ReadOutcome }[];
    };

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

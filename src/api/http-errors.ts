import type { ErrorRequestHandler } from "express";
import type { Logger } from "../log.ts";
import { toJson } from "./json.ts";
import { ParameterError } from "./params/errors.ts";

/** An error with a mirror-node status and messages; routes throw these, `errorAnswer` turns them into bodies. */
export class HttpError extends Error {
  readonly status: number;
  readonly messages: string[];
  /** A `detail` for each message that has one (upstream's InvalidArgumentError with `{message, detail}`). */
  readonly details: readonly (string | undefined)[];
  constructor(status: number, messages: string[], details: readonly (string | undefined)[] = []) {
    super(messages.join("; "));
    this.status = status;
    this.messages = messages;
    this.details = details;
  }
}

export const notFound = () => new HttpError(404, ["Not found"]);

/** An error answer: status and the body `{"_status": {"messages": [{"message": ...}]}}` (the Node mirror node's). */
export type ErrorAnswer = { status: number; body: string };

export function errorBody(
  messages: readonly string[],
  details: readonly (string | undefined)[] = [],
): string {
  return toJson({ _status: { messages: messages.map((message, i) => ({ message, detail: details[i] })) } });
}

/**
 * Maps any error to the mirror node's status and body: declared HTTP and parameter errors as they are, other
 * 4xx errors (Express's own, e.g. a malformed URI) as 400 with their message, a busy or locked database to
 * 503 `Service unavailable`, anything else to 500 `Internal error`. Unexpected errors are logged once here,
 * with the request URL; the function itself never throws.
 */
export function errorAnswer(error: unknown, log: Logger, url: string | undefined): ErrorAnswer {
  if (error instanceof HttpError) {
    return { status: error.status, body: errorBody(error.messages, error.details) };
  }
  if (error instanceof ParameterError) return { status: error.status, body: errorBody(error.messages) };
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    status?: unknown;
    message?: unknown;
    code?: unknown;
  };
  if (typeof fields.status === "number" && fields.status >= 400 && fields.status < 500) {
    return { status: 400, body: errorBody([String(fields.message ?? "Bad request")]) };
  }
  const code = String(fields.code ?? "");
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    log.warn({ err: error, url }, "database busy");
    return { status: 503, body: errorBody(["Service unavailable"]) };
  }
  log.error({ err: error, url }, "request failed");
  return { status: 500, body: errorBody(["Internal error"]) };
}

/** Express's end of `errorAnswer`, for the routes Express serves. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const { status, body } = errorAnswer(error, log, req.originalUrl);
    res.status(status).type("application/json; charset=utf-8").send(body);
  };
}

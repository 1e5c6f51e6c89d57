import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "../log.ts";
import { toJson } from "./json.ts";
import { ParameterError } from "./params/errors.ts";

/** An error with a mirror-node status and messages; routes throw these, the handler below writes them. */
export class HttpError extends Error {
  readonly status: number;
  readonly messages: string[];
  constructor(status: number, messages: string[]) {
    super(messages.join("; "));
    this.status = status;
    this.messages = messages;
  }
}

export const notFound = () => new HttpError(404, ["Not found"]);

/** `{"_status": {"messages": [{"message": ...}]}}`, the Node mirror node's error body. */
export function sendError(res: Response, status: number, messages: readonly string[]): void {
  res
    .status(status)
    .type("application/json; charset=utf-8")
    .send(toJson({ _status: { messages: messages.map((message) => ({ message })) } }));
}

/**
 * Maps errors to the mirror node's statuses: declared HTTP errors as they are, a busy or locked database to
 * 503 `Service unavailable`, anything else to 500 `Internal error` (logged once here, with the request).
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (error instanceof HttpError || error instanceof ParameterError) {
      return sendError(res, error.status, error.messages);
    }
    const status = typeof error?.status === "number" ? error.status : undefined;
    if (status !== undefined && status >= 400 && status < 500) {
      // Express's own errors, e.g. a malformed URI: the mirror node answers those as bad parameters.
      return sendError(res, 400, [String(error.message ?? "Bad request")]);
    }
    const code = String(error?.code ?? "");
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
      log.warn({ err: error, url: req.originalUrl }, "database busy");
      return sendError(res, 503, ["Service unavailable"]);
    }
    log.error({ err: error, url: req.originalUrl }, "request failed");
    return sendError(res, 500, ["Internal error"]);
  };
}

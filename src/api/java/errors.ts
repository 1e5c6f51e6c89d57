/**
 * Error bodies of the Java-implemented endpoints (`/api/v1/network/*`), as upstream's
 * `GenericControllerAdvice` writes them. Two shapes exist:
 *
 * - most errors: `{"_status":{"messages":[{"message":"<reason phrase>","detail":"<detail>"}]}}`, where the
 *   message is the HTTP reason phrase (`Bad Request`, `Not Found`, …). A blank detail is left out, and 5xx
 *   answers never carry one (upstream blanks it so internals do not leak);
 * - binding errors of a request object (the nodes endpoint): one `{"message":"Invalid parameter: <name>"}`
 *   per bad field, without `detail`.
 *
 * Routes throw `JavaHttpError`; the front writes it (`javaErrorOf` turns any other failure into one).
 */
import type { Logger } from "../../log.ts";
import { toJson } from "../json.ts";

/** One entry of `_status.messages` (`data`: the web3 service's third field, e.g. revert data; `/contracts/call`). */
export type JavaErrorMessage = { message: string; detail?: string; data?: string };

/** The reason phrases upstream's Spring service prints, by status. */
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** The HTTP reason phrase of a status (`Bad Request` for 400). */
export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? String(status);
}

/** An error with a status and the exact `_status.messages` entries upstream's Java service sends. */
export class JavaHttpError extends Error {
  readonly status: number;
  readonly messages: readonly JavaErrorMessage[];
  /** Extra response headers (e.g. `Allow` on a 405). */
  readonly headers: Readonly<Record<string, string>>;
  constructor(
    status: number,
    messages: readonly JavaErrorMessage[],
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(messages.map((m) => m.detail ?? m.message).join("; "));
    this.status = status;
    this.messages = messages;
    this.headers = headers;
  }
}

/** One message of the common shape; a blank detail (and any detail on a 5xx) is omitted, as upstream does. */
export function javaError(status: number, detail: string, headers?: Record<string, string>): JavaHttpError {
  const message: JavaErrorMessage = { message: reasonPhrase(status) };
  if (status < 500 && detail.trim() !== "") message.detail = detail;
  return new JavaHttpError(status, [message], headers);
}

/** 400 `Bad Request` with upstream's detail text, e.g. `Failed to convert 'timestamp'`. */
export function javaBadRequest(detail: string): JavaHttpError {
  return javaError(400, detail);
}

/** 404 `Not Found` with upstream's detail text, e.g. `File 0.0.112 not found`. */
export function javaNotFound(detail: string): JavaHttpError {
  return javaError(404, detail);
}

/** `Failed to convert '<name>'`: a value that does not convert to the parameter's type. */
export function failedToConvert(name: string): JavaHttpError {
  return javaBadRequest(`Failed to convert '${name}'`);
}

/** Binding errors of a request object: one `Invalid parameter: <name>` per field, without detail. */
export function javaBindingErrors(names: readonly string[]): JavaHttpError {
  return new JavaHttpError(
    400,
    names.map((name) => ({ message: `Invalid parameter: ${name}` })),
  );
}

/** 405 for a method the route does not serve: `Request method 'POST' is not supported`, with `Allow`. */
export function javaMethodNotAllowed(method: string, allowed: readonly string[]): JavaHttpError {
  return javaError(405, `Request method '${method}' is not supported`, { Allow: allowed.join(",") });
}

/** `{"_status":{"messages":[…]}}` as text. */
export function javaErrorBody(messages: readonly JavaErrorMessage[]): string {
  return toJson({ _status: { messages } });
}

/**
 * The Java error a failure answers with: `JavaHttpError`s as they are; another 4xx (e.g. a malformed request
 * URI) as 400 with its message; a busy database as 503 and anything else as 500 (both with the reason phrase
 * only, logged once here).
 */
export function javaErrorOf(error: unknown, log: Logger, url: string | undefined): JavaHttpError {
  if (error instanceof JavaHttpError) return error;
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    status?: unknown;
    message?: unknown;
    code?: unknown;
  };
  if (typeof fields.status === "number" && fields.status >= 400 && fields.status < 500) {
    return javaBadRequest(String(fields.message ?? ""));
  }
  const code = String(fields.code ?? "");
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    log.warn({ err: error, url }, "database busy");
    return javaError(503, "");
  }
  log.error({ err: error, url }, "request failed");
  return javaError(500, "");
}

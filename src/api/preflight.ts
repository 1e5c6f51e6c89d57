/**
 * CORS preflights, answered as the public mirror node's two services answer them, so that a browser page on any
 * origin can call the API, including `POST /api/v1/network/fees` with `Content-Type: application/protobuf`
 * (which needs a preflight):
 *
 * - the Node service (tokens, blocks and every other path) runs the `cors` middleware with its defaults: every
 *   OPTIONS request is answered 204 with any origin, the methods `GET,HEAD,PUT,PATCH,POST,DELETE` and the
 *   requested headers echoed back;
 * - the Java service (`/api/v1/network/*`) registers `/api/**` with Spring's permit-default CORS configuration:
 *   any origin, methods GET, HEAD and POST, any requested header, max age 1800 s. A preflight (OPTIONS with
 *   `Origin` and `Access-Control-Request-Method`) is answered 200 with those, or 403 `Invalid CORS request`
 *   for another method; a plain OPTIONS keeps its `Allow` answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const NODE_METHODS = "GET,HEAD,PUT,PATCH,POST,DELETE";
const JAVA_METHODS = ["GET", "HEAD", "POST"];
const JAVA_MAX_AGE_SECONDS = "1800";

/** An OPTIONS request a browser sends before a cross-origin request it may not send unasked. */
export function isPreflight(req: IncomingMessage): boolean {
  return (
    req.method === "OPTIONS" &&
    req.headers.origin !== undefined &&
    req.headers["access-control-request-method"] !== undefined
  );
}

/** The Node service's answer to any OPTIONS request (the `cors` middleware's defaults). */
export function writeNodeOptions(req: IncomingMessage, res: ServerResponse): void {
  const headers = [
    "Access-Control-Allow-Origin",
    "*",
    "Access-Control-Allow-Methods",
    NODE_METHODS,
    "Vary",
    "Access-Control-Request-Headers",
  ];
  const requested = req.headers["access-control-request-headers"];
  if (requested !== undefined && requested.length > 0)
    headers.push("Access-Control-Allow-Headers", requested);
  headers.push("Content-Length", "0");
  res.writeHead(204, headers);
  res.end();
}

/** The Java service's answer to a preflight (see `isPreflight`). */
export function writeJavaPreflight(req: IncomingMessage, res: ServerResponse): void {
  const headers = [
    "Vary",
    "Origin",
    "Vary",
    "Access-Control-Request-Method",
    "Vary",
    "Access-Control-Request-Headers",
  ];
  const method = String(req.headers["access-control-request-method"]).trim();
  if (!JAVA_METHODS.includes(method)) {
    const body = "Invalid CORS request";
    res.writeHead(403, [...headers, "Content-Length", String(body.length)]);
    res.end(body);
    return;
  }
  headers.push("Access-Control-Allow-Origin", "*", "Access-Control-Allow-Methods", JAVA_METHODS.join(","));
  // Spring splits the requested names on commas and lists them back separated by ", ".
  const requested = (req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (requested.length > 0) headers.push("Access-Control-Allow-Headers", requested.join(", "));
  headers.push("Access-Control-Max-Age", JAVA_MAX_AGE_SECONDS, "Content-Length", "0");
  res.writeHead(200, headers);
  res.end();
}

/**
 * The one declaration of each API route the HTTP front serves itself: its path template (which the front's
 * dispatcher matches, and which names the route in metrics and documentation), how its answers may be cached,
 * the public mirror node's `max-age` for it, and the handler. Handlers are plain functions from the URL and
 * path parameters to a rendered answer; they throw `HttpError` / `ParameterError` (or, for `java` routes,
 * `JavaHttpError`) for error answers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { JAVA_JSON_TYPE } from "../java/index.ts";
import { toJson } from "../json.ts";

/**
 * - `stale-ok` (lists): a kept answer may lag the index by the configured staleness (`--list-cache-ms`);
 * - `exact`: a kept answer is served only while nothing new has been indexed, so never stale;
 * - `none`: computed for every request.
 */
export type RouteCaching = "stale-ok" | "exact" | "none";

export type RouteRequest = {
  /** The URL as sent: path and query string (the key of cached answers, and what links are built from). */
  readonly url: string;
  /** Path parameters by template name, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
};

/** A successful answer, rendered. */
export type RouteAnswer = {
  readonly status: number;
  /** The JSON body. */
  readonly json: string;
  /** The next page (lists), also sent as a `Link` header. */
  readonly next: string | null;
  /** The body's content type when not the route style's JSON type (`text/plain` of `/network/supply?q=`). */
  readonly contentType?: string;
};

/**
 * - `node` (default): the Node service's conventions (weak ETag, `{"_status":{"messages":[{"message"}]}}`
 *   errors; other methods are Express's, so 404);
 * - `java`: the Java service's (`/api/v1/network/*`, `src/api/java/`): `application/json;charset=UTF-8`, a
 *   strong ETag, `{"_status":{"messages":[{"message","detail"}]}}` errors whose 4xx keep the path's
 *   `Cache-Control`, `OPTIONS` listing the methods and 405 with `Allow` for the others.
 */
export type RouteStyle = "node" | "java";

/** A handler that reads the request body itself (`POST /api/v1/network/fees`) and writes its whole answer. */
export type PostHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export type RouteDef = {
  /** OpenAPI-style path template, e.g. `/api/v1/tokens/{tokenId}`. */
  readonly template: string;
  readonly caching: RouteCaching;
  /** The public mirror node's `Cache-Control: max-age` for the route, in seconds. */
  readonly maxAge: number;
  /** GET (and HEAD). */
  readonly handle: (request: RouteRequest) => RouteAnswer;
  /** POST, if the path takes it; never cached. */
  readonly post?: PostHandler;
  readonly style?: RouteStyle;
};

/** Renders a response object (exact int64 JSON) with its `links.next`, if any. */
export function jsonAnswer(body: unknown, status = 200): RouteAnswer {
  const next = (body as { links?: { next?: unknown } } | null)?.links?.next;
  return { status, json: toJson(body), next: typeof next === "string" ? next : null };
}

/** Text already rendered by a `java` route (its JSON content type unless told), with its `links.next`, if any. */
export function javaAnswer(
  text: string,
  next: string | null = null,
  contentType = JAVA_JSON_TYPE,
): RouteAnswer {
  return { status: 200, json: text, next, contentType };
}

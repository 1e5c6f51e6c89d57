/**
 * The one declaration of each API route the HTTP front serves itself: its path template (which the front's
 * dispatcher matches, and which names the route in metrics and documentation), how its answers may be cached,
 * the public mirror node's `max-age` for it, and the handler. Handlers are plain functions from the URL and
 * path parameters to a rendered answer; they throw `HttpError` / `ParameterError` for error answers.
 */
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
};

export type RouteDef = {
  /** OpenAPI-style path template, e.g. `/api/v1/tokens/{tokenId}`. */
  readonly template: string;
  readonly caching: RouteCaching;
  /** The public mirror node's `Cache-Control: max-age` for the route, in seconds. */
  readonly maxAge: number;
  readonly handle: (request: RouteRequest) => RouteAnswer;
};

/** Renders a response object (exact int64 JSON) with its `links.next`, if any. */
export function jsonAnswer(body: unknown, status = 200): RouteAnswer {
  const next = (body as { links?: { next?: unknown } } | null)?.links?.next;
  return { status, json: toJson(body), next: typeof next === "string" ? next : null };
}

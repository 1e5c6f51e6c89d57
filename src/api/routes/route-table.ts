/**
 * The one declaration of each API route the HTTP front serves itself: its path template (which the front's
 * dispatcher matches, and which names the route in metrics and documentation), how its answers may be cached,
 * the public mirror node's `max-age` for it, and how it answers in two steps:
 *
 * - `parse` runs on the read worker, before `answer` (the front sends only the template and the URL): it checks
 *   the path and query parameters and returns what the query needs. It throws `HttpError` / `ParameterError`
 *   (or, for `java` routes, `JavaHttpError`) for error answers that need no data; they travel back to the front
 *   as any failure does.
 * - `answer` runs wherever the index is read (a read worker): it takes the store and `parse`'s value, runs the
 *   queries and renders the answer. Errors that need data (a 404, an alias that names nobody) are thrown here.
 *
 * Route modules export factories of their definitions that take no store (`defineRoute`), so that every thread
 * builds the same table and finds a route by its template: the front to match, each read worker to parse and
 * answer. What travels between the two for a GET is the template and the URL; for a POST, `post.parse`'s value,
 * which must survive `structuredClone`.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { ReadStore } from "../../store/read-store.ts";
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
  /** `Cache-Control: max-age` of this answer when it differs from the route's (a recent ScheduleCreate's id). */
  readonly maxAge?: number;
  /**
   * A binary body instead of `json` (the gRPC API's read jobs, src/grpc/read-jobs.ts: encoded protobuf messages,
   * never served over HTTP), in an `ArrayBuffer` of its own so that it moves to the front without a copy.
   */
  readonly binary?: Uint8Array;
};

/**
 * - `node` (default): the Node service's conventions (weak ETag, `{"_status":{"messages":[{"message"}]}}`
 *   errors; other methods are Express's, so 404);
 * - `java`: the Java service's (`/api/v1/network/*`, `src/api/java/`): `application/json;charset=UTF-8`, a
 *   strong ETag, `{"_status":{"messages":[{"message","detail"}]}}` errors whose 4xx keep the path's
 *   `Cache-Control`, `OPTIONS` listing the methods and 405 with `Allow` for the others.
 */
export type RouteStyle = "node" | "java";

/**
 * POST on a route (`/api/v1/network/fees`), in the same two steps as GET; never cached, answered in the route's
 * style (`java`) without ETag or `Cache-Control`.
 */
export type PostStep<Q = unknown> = {
  /**
   * On the front's thread: checks the content type and parameters and reads the body (bounded), returning what
   * `answer` needs (the body bytes included). May set response headers (`Connection: close`) before it throws.
   */
  readonly parse: (req: IncomingMessage, res: ServerResponse, request: RouteRequest) => Promise<Q>;
  /**
   * Where the index is read (a read worker): computes and renders the answer. It may be asynchronous (an EVM
   * call awaits between steps): the worker then answers nothing else until it settles.
   */
  readonly answer: (store: ReadStore, query: Q, request: RouteRequest) => RouteAnswer | Promise<RouteAnswer>;
};

type RouteCommon = {
  /** OpenAPI-style path template, e.g. `/api/v1/tokens/{tokenId}`. */
  readonly template: string;
  readonly caching: RouteCaching;
  /** The public mirror node's `Cache-Control: max-age` for the route, in seconds. */
  readonly maxAge: number;
  /** POST, if the path takes it; never cached. */
  readonly post?: PostStep;
  /**
   * A GET answer that awaits (an EVM replay, `/opcodes`): when set, the worker runs it instead of `answer`, in one
   * read transaction held until it settles, as a POST's. Such a route is never cached (`caching: "none"`).
   */
  readonly answerAsync?: (store: ReadStore, query: unknown, request: RouteRequest) => Promise<RouteAnswer>;
  readonly style?: RouteStyle;
  /**
   * Which path parameters the route takes (default: any). Where the public mirror node's ingress sends only
   * some spellings of a path to this service (`/api/v1/topics/{id}` with a numeric id to the Java one), the
   * others are not this route's: they fall through to later routes and Express's 404.
   */
  readonly accepts?: (params: Readonly<Record<string, string>>) => boolean;
};

/** A route of the table. `Q` is what `parse` hands `answer` (see the module comment). */
export type RouteDef<Q = unknown> = RouteCommon & {
  /**
   * GET (and HEAD), first step: parameter checks, on the read worker — or on the front's thread for a route that
   * `parsesHeaders` (`/opcodes` reads `Accept-Encoding`; `headers` are absent when a test parses a URL alone).
   */
  readonly parse: (request: RouteRequest, headers?: IncomingHttpHeaders) => Q;
  /** The route's `parse` reads request headers: the front parses it and sends the parsed query. */
  readonly parsesHeaders?: boolean;
  /** GET (and HEAD), second step: queries and rendering, given the store of the thread it runs on. */
  readonly answer: (store: ReadStore, query: Q, request: RouteRequest) => RouteAnswer;
};

/** Declares a route, checking that `answer` takes what `parse` returns; the table holds them all as one type. */
export function defineRoute<Q>(route: RouteDef<Q>): RouteDef {
  return route as unknown as RouteDef;
}

/** Declares a POST step, checking that `answer` takes what `parse` resolves to. */
export function definePost<Q>(post: PostStep<Q>): PostStep {
  return post as unknown as PostStep;
}

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

/**
 * The one response cache of the HTTP front, shared by every route in the route table. Answers are kept
 * rendered under the URL as sent: status, body bytes, the header list and the weak ETag, with the generation
 * (last committed block) they were computed at and when. A hit costs a map lookup and one write. An answer is
 * kept from the second time its URL is computed (see `offer`).
 *
 * Whether a kept answer may still be served depends on its route's caching (see `RouteCaching`): an `exact`
 * answer only while the generation is unchanged (never stale); a `stale-ok` answer also for the list
 * staleness bound after that. Size is bounded by entries and bytes (least recently used go first), and URLs seen
 * once are remembered by a fixed-size digest (never the URL itself), so no input can grow it.
 */
import { hash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { LRUCache } from "lru-cache";
import { linkHeaderValue } from "./header-limits.ts";

/** Headers every answer of the API carries (the mirror node allows any origin). */
export const CORS_HEADER = "Access-Control-Allow-Origin";
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A rendered answer, ready to write (and to keep). */
export type RenderedResponse = {
  readonly status: number;
  /**
   * The JSON text. Kept as a string: node writes a string body in one piece with the headers, where a Buffer
   * costs a second (vectored) write, and the ETag hashes the string without copying it.
   */
  readonly body: string;
  /** The body's length in UTF-8 bytes. */
  readonly bytes: number;
  readonly etag: string;
  readonly cacheControl: string;
  /** A flat [name, value, …] list: node writes it without walking an object per response. */
  readonly headers: readonly string[];
};

type Entry = {
  response: RenderedResponse;
  generation: unknown;
  createdAt: number;
  /** How long after the generation changed the answer may still be served, in ms (0: not at all). */
  staleMs: number;
};

export type ResponseCacheOptions = {
  /** Most answers kept; default 10,000. */
  maxEntries?: number;
  /** Most bytes of bodies kept; default 64 MiB. */
  maxBytes?: number;
};

export type ResponseCache = {
  /** The kept answer for `key` if it may still be served at `generation` and time `at` (ms). */
  get(key: string, generation: unknown, at: number): RenderedResponse | undefined;
  /**
   * Offers an answer computed at `generation` (read before the query ran) and time `at`. It is kept from the
   * second time its key is offered: a URL asked once (a new instant, a new id) never displaces answers that
   * are asked again, nor costs the memory of keeping it. Returns whether it was kept.
   */
  offer(key: string, response: RenderedResponse, generation: unknown, at: number, staleMs: number): boolean;
  readonly size: number;
};

export function createResponseCache(options: ResponseCacheOptions = {}): ResponseCache {
  const entries = new LRUCache<string, Entry>({
    max: options.maxEntries ?? 10_000,
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (entry, key) => entry.response.bytes + key.length + 200,
  });
  // Keys offered once recently (the "doorkeeper"), as 27-character digests whatever the key's length (URLs reach
  // the header limit): at most `maxSeen` of them, forgotten all at once when full. Two keys sharing a digest only
  // means one answer is kept from its first time.
  const seenOnce = new Set<string>();
  const maxSeen = options.maxEntries ?? 10_000;
  const digest = (key: string) => hash("sha1", key, "base64");
  return {
    get(key, generation, at) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      // Exact while nothing new was indexed; tolerably stale for `staleMs` after that.
      if (entry.generation === generation || at - entry.createdAt < entry.staleMs) return entry.response;
      return undefined;
    },
    offer(key, response, generation, createdAt, staleMs) {
      if (!entries.has(key)) {
        const seen = digest(key);
        if (!seenOnce.delete(seen)) {
          if (seenOnce.size >= maxSeen) seenOnce.clear();
          seenOnce.add(seen);
          return false;
        }
      }
      entries.set(key, { response, generation, createdAt, staleMs });
      return true;
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * Renders an answer: the body, its ETag (weak, as Express tags, unless the route's conventions give another:
 * the Java service's strong one) and every header but the conditional ones.
 */
export function renderResponse(
  status: number,
  json: string,
  cacheControl: string | null,
  next: string | null,
  contentType = JSON_CONTENT_TYPE,
  etagOf: (body: string, bytes: number) => string = weakEtag,
): RenderedResponse {
  const bytes = Buffer.byteLength(json);
  const etag = etagOf(json, bytes);
  const headers = [CORS_HEADER, "*"];
  if (cacheControl !== null) headers.push("Cache-Control", cacheControl);
  headers.push("Content-Type", contentType, "Content-Length", String(bytes), "ETag", etag);
  const link = next === null ? null : linkHeaderValue(next);
  if (link !== null) headers.push("Link", link);
  return { status, body: json, bytes, etag, cacheControl: cacheControl ?? "", headers };
}

/**
 * Writes an answer with node's own API: 304 for a 2xx whose ETag the client already has (`If-None-Match`,
 * unless it asks for `Cache-Control: no-cache`, as Express's freshness check has it; Spring's ETag filter of
 * the Java-style routes does not look at that header, so they pass `noCacheRefetches: false`), no body for HEAD.
 */
export function writeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: RenderedResponse,
  noCacheRefetches = true,
): void {
  const ifNoneMatch = req.headers["if-none-match"];
  if (
    ifNoneMatch !== undefined &&
    response.status >= 200 &&
    response.status < 300 &&
    matches(ifNoneMatch, response.etag) &&
    !(noCacheRefetches && NO_CACHE.test(req.headers["cache-control"] ?? ""))
  ) {
    const headers = [CORS_HEADER, "*", "ETag", response.etag];
    if (response.cacheControl !== "") headers.push("Cache-Control", response.cacheControl);
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(response.status, response.headers as string[]);
  res.end(req.method === "HEAD" ? undefined : response.body, "utf8");
}

/** A request `Cache-Control` with the `no-cache` directive (a fixed pattern, linear on any header). */
const NO_CACHE = /(?:^|,)\s*no-cache\s*(?:,|$)/i;

/** If-None-Match against a weak ETag: `*`, or any listed tag equal to it ignoring weakness. */
function matches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const bare = etag.startsWith("W/") ? etag.slice(2) : etag;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return (t.startsWith("W/") ? t.slice(2) : t) === bare;
  });
}

/**
 * The weak ETag Express computes for a body: `W/"<UTF-8 length in hex>-<first 27 characters of base64 SHA-1>"`
 * (the one-shot `hash` costs a third of a `createHash` object).
 */
export function weakEtag(body: string, bytes = Buffer.byteLength(body)): string {
  if (bytes === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  return `W/"${bytes.toString(16)}-${hash("sha1", body, "base64").slice(0, 27)}"`;
}

/**
 * The one response cache of the HTTP front, shared by every route in the route table. Answers are kept
 * rendered under the URL as sent: status, body bytes, the header list and the weak ETag, with the generation
 * (last committed block) they were computed at and when. A hit costs a map lookup and one write. An answer is
 * kept from the second time its URL is computed (see `offer`).
 *
 * Whether a kept answer may still be served depends on its route's caching (see `RouteCaching`): an `exact`
 * answer only while the generation is unchanged (never stale); a `stale-ok` answer also for the list
 * staleness bound after that. Size is bounded by bytes alone (least recently used go first): what an answer
 * costs is its body, its key and its header list, so 64 MiB holds 50,000 token answers or 1,000 large pages,
 * whichever a client asks for; a count of entries would let small answers evict each other long before the
 * memory is used. URLs seen once are remembered in a fixed table of fingerprints (never the URL itself), so no
 * input can grow it.
 */
import { hash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { LRUCache } from "lru-cache";
import { linkHeaderValue } from "./header-limits.ts";

/** Headers every answer of the API carries (the mirror node allows any origin). */
export const CORS_HEADER = "Access-Control-Allow-Origin";
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A rendered answer, ready to write (and to keep). */
export type RenderedResponse = {
  readonly status: number;
  /** The JSON text, or its UTF-8 bytes for a large body (see `renderBody`). */
  readonly body: string | Uint8Array;
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
  /** Most bytes kept (bodies, keys, headers and bookkeeping, see `keptBytes`); default 64 MiB. */
  maxBytes?: number;
};

/** The default byte bound of the response cache. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** What a kept answer is counted as: its body, its key (UTF-16), its header strings and a fixed overhead. */
export function keptBytes(key: string, response: RenderedResponse): number {
  let headers = 0;
  for (const header of response.headers) headers += header.length * 2 + 16;
  return response.bytes + key.length * 2 + headers + ENTRY_OVERHEAD_BYTES;
}

/** The entry object, the LRU's slots and the response object around each kept answer (measured roughly). */
const ENTRY_OVERHEAD_BYTES = 256;
/** The doorkeeper remembers about this many URLs per MiB of the bound (a 4-byte slot each). */
const SEEN_SLOTS_PER_MIB = 2048;

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
  /** Bytes counted for the kept answers (at most the bound). */
  readonly bytes: number;
};

export function createResponseCache(options: ResponseCacheOptions = {}): ResponseCache {
  const maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry, key) => keptBytes(key, entry.response),
  });
  // Keys offered once recently (the "doorkeeper"): a fixed table of 32-bit fingerprints (two string hashes with
  // seeds drawn at start-up), one slot per key, whatever the key's length (URLs reach the header limit), so
  // remembering costs nothing per URL. A key whose slot another key took meanwhile counts as new again; two keys
  // sharing slot and fingerprint only means one answer is kept from its first time.
  const slots =
    2 ** Math.min(22, Math.max(10, Math.ceil(Math.log2((maxBytes / 2 ** 20) * SEEN_SLOTS_PER_MIB))));
  const seen = new Uint32Array(slots);
  const seeds = randomBytes(8);
  const seedA = seeds.readUInt32LE(0);
  const seedB = seeds.readUInt32LE(4);
  /** Marks `key` seen; true when it was seen already (and forgets it then, as the answer is kept). */
  const seenBefore = (key: string): boolean => {
    let a = seedA;
    let b = seedB;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    const slot = (a >>> 0) & (slots - 1);
    // Never 0: an empty slot matches nothing.
    const tag = ((b ^ (b >>> 15)) | 1) >>> 0;
    if (seen[slot] === tag) {
      seen[slot] = 0;
      return true;
    }
    seen[slot] = tag;
    return false;
  };
  return {
    get(key, generation, at) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      // Exact while nothing new was indexed; tolerably stale for `staleMs` after that.
      if (entry.generation === generation || at - entry.createdAt < entry.staleMs) return entry.response;
      return undefined;
    },
    offer(key, response, generation, createdAt, staleMs) {
      if (!entries.has(key) && !seenBefore(key)) return false;
      // An answer larger than the whole bound is not kept (and drops an older answer under its key).
      entries.set(key, { response, generation, createdAt, staleMs });
      return entries.has(key);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return entries.calculatedSize;
    },
  };
}

/**
 * What a read worker renders of an answer: the body with what is costly to compute from it (its UTF-8 length, its
 * ETag, the `Link` header of its next page), but not the header list, which the front builds from these and its
 * route (`responseOf`): a list of strings costs more to send between threads than to build.
 */
export type RenderedBody = {
  readonly status: number;
  /**
   * The JSON text; from `BYTES_BODY_MIN_CHARS` characters on, its UTF-8 bytes (in an `ArrayBuffer` of their own,
   * which a read worker hands to the front without a copy, and node writes without encoding it again). A short
   * body stays a string: node writes it in one piece with the headers, and a string crosses threads for less
   * than a buffer.
   */
  readonly body: string | Uint8Array;
  /** The body's length in UTF-8 bytes. */
  readonly bytes: number;
  /** Empty for answers that carry none (POST). */
  readonly etag: string;
  readonly contentType: string;
  /** The `Link` header (null: none, or a next link too long for a header). */
  readonly link: string | null;
  /** `Cache-Control: max-age` of this answer when it is not its route's (`RouteAnswer.maxAge`); null: the route's. */
  readonly maxAge: number | null;
};

/** Bodies from this many characters on are rendered as bytes (see `RenderedBody.body`). */
export const BYTES_BODY_MIN_CHARS = 4096;

/** Renders a body: its ETag (weak, as Express tags, unless the route's conventions give another), its `Link`. */
export function renderBody(
  status: number,
  json: string,
  next: string | null,
  contentType = JSON_CONTENT_TYPE,
  etagOf: ((body: string | Uint8Array, bytes: number) => string) | null = weakEtag,
  maxAge: number | null = null,
): RenderedBody {
  // A large body is encoded once, and its length and ETag read from the bytes (a string would be scanned for
  // its length, encoded again to hash it, copied to the front and encoded there once more to be written).
  const bytes = Buffer.byteLength(json);
  let body: string | Uint8Array = json;
  if (json.length >= BYTES_BODY_MIN_CHARS) {
    // Not from Buffer's shared pool: the ArrayBuffer is the body's alone, so it can be moved to another thread.
    // (Measured about three times cheaper than TextEncoder.encode.)
    const encoded = Buffer.allocUnsafeSlow(bytes);
    encoded.write(json, "utf8");
    body = encoded;
  }
  return {
    status,
    body,
    bytes,
    etag: etagOf === null ? "" : etagOf(body, bytes),
    contentType,
    link: next === null ? null : linkHeaderValue(next),
    maxAge,
  };
}

/**
 * A rendered body with every header but the conditional ones (`cacheControl`: the route's, which an answer's own
 * `maxAge` overrides; null: none, as POST answers).
 */
export function responseOf(
  rendered: RenderedBody,
  routeCacheControl: string | null,
  prefixes?: HeaderPrefixes,
): RenderedResponse {
  const cacheControl =
    routeCacheControl === null || rendered.maxAge === null
      ? routeCacheControl
      : `public, max-age=${rendered.maxAge}`;
  let headers: string[];
  if (prefixes !== undefined && cacheControl === routeCacheControl) {
    headers = prefixes.of(rendered.contentType).slice();
  } else {
    headers = [CORS_HEADER, "*"];
    if (cacheControl !== null) headers.push("Cache-Control", cacheControl);
    headers.push("Content-Type", rendered.contentType);
  }
  headers.push("Content-Length", String(rendered.bytes));
  if (rendered.etag !== "") headers.push("ETag", rendered.etag);
  if (rendered.link !== null) headers.push("Link", rendered.link);
  return {
    status: rendered.status,
    body: rendered.body,
    bytes: rendered.bytes,
    etag: rendered.etag,
    cacheControl: cacheControl ?? "",
    headers,
  };
}

/**
 * The fixed first headers of one route's answers (CORS, its `Cache-Control`, the content type), built once per
 * content type and copied per answer, which then only appends its length, ETag and `Link`.
 */
export type HeaderPrefixes = { of(contentType: string): readonly string[] };

export function headerPrefixes(cacheControl: string | null): HeaderPrefixes {
  const byType = new Map<string, readonly string[]>();
  return {
    of(contentType) {
      let prefix = byType.get(contentType);
      if (prefix === undefined) {
        const built = [CORS_HEADER, "*"];
        if (cacheControl !== null) built.push("Cache-Control", cacheControl);
        built.push("Content-Type", contentType);
        prefix = built;
        // A route answers in one or two content types; a bound keeps a bug from growing it.
        if (byType.size < 8) byType.set(contentType, prefix);
      }
      return prefix;
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
  etagOf: (body: string | Uint8Array, bytes: number) => string = weakEtag,
): RenderedResponse {
  return responseOf(renderBody(status, json, next, contentType, etagOf), cacheControl);
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
  if (req.method === "HEAD") res.end();
  else if (typeof response.body === "string") res.end(response.body, "utf8");
  else res.end(response.body);
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
export function weakEtag(body: string | Uint8Array, bytes = byteLengthOf(body)): string {
  if (bytes === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  return `W/"${bytes.toString(16)}-${hash("sha1", body, "base64").slice(0, 27)}"`;
}

function byteLengthOf(body: string | Uint8Array): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}

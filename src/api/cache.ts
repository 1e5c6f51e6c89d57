import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express, Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { toJson } from "./json.ts";

/** A list response as a route computes it. */
export type ListPage = { status: number; body: unknown };

export type ListCacheOptions = {
  /**
   * The most a served list may lag behind the index, in milliseconds (default 1000). A cached page stays
   * valid while nothing new has been indexed; once something has, it is recomputed when older than this.
   */
  maxStaleMs?: number;
  /** Most pages kept (least recently used go first); default 10,000. */
  maxEntries?: number;
  /** Most bytes of response bodies kept; default 64 MiB. */
  maxBytes?: number;
  /** A value that changes whenever newly indexed data becomes visible to readers (the last committed block). */
  generation: () => unknown;
  /** Milliseconds of a monotonic clock (tests pass their own). */
  now?: () => number;
};

export type ListCache = {
  /**
   * Answers a list request from memory when a valid page is cached for its exact URL, otherwise computes it
   * with `compute` (which may throw a parameter error: errors are never cached), keeps it and sends it.
   * `upstreamMaxAge` is the public mirror node's `max-age` for the route.
   */
  send(req: Request, res: Response, upstreamMaxAge: number, compute: () => ListPage): void;
  /**
   * Middleware that answers a GET or HEAD whose URL has a valid cached page before any routing happens (the
   * page was computed by its route, so the URL is known to be one). Everything else goes on to the routes.
   */
  readonly serveHits: RequestHandler;
  /** Answers the request from a valid cached page and returns true, or returns false having done nothing. */
  tryServe(req: IncomingMessage, res: ServerResponse): boolean;
  readonly maxStaleMs: number;
};

type Entry = {
  status: number;
  body: Buffer;
  etag: string;
  cacheControl: string;
  headers: string[];
  generation: unknown;
  createdAt: number;
};

/**
 * An in-memory cache of rendered responses. Pages are keyed by the request URL as sent and stored rendered
 * (JSON bytes, ETag and headers), so a hit costs a map lookup and one write. The app keeps two: list pages,
 * which may lag the index by `maxStaleMs`, and token lookups (`maxStaleMs` 0), which are served only while no
 * newer file has been applied and so are never stale.
 *
 * `Cache-Control` says how long a client may reuse a page: the public mirror node's value for the route, raised
 * to the staleness bound when that is configured higher, so the header never promises fresher data than the
 * cache keeps.
 */
export function createListCache(options: ListCacheOptions): ListCache {
  const maxStaleMs = options.maxStaleMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  const pages = new LRUCache<string, Entry>({
    max: options.maxEntries ?? 10_000,
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (entry, key) => entry.body.length + key.length + 200,
  });
  const staleSeconds = Math.ceil(maxStaleMs / 1000);

  /** The cached page for a URL if it may still be served. */
  function valid(key: string, generation: unknown, at: number): Entry | undefined {
    const entry = pages.get(key);
    if (entry === undefined) return undefined;
    // The page is exact while nothing new was indexed, and tolerably stale for maxStaleMs after that.
    return entry.generation === generation || at - entry.createdAt < maxStaleMs ? entry : undefined;
  }

  function tryServe(req: IncomingMessage, res: ServerResponse): boolean {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.url === undefined) return false;
    // Before routing, `url` is the URL as sent (Express's `originalUrl`, the key pages are stored under).
    const entry = valid(req.url, options.generation(), now());
    if (entry === undefined) return false;
    write(req, res, entry);
    return true;
  }

  return {
    maxStaleMs,
    send(req, res, upstreamMaxAge, compute) {
      const key = req.originalUrl;
      // The generation is read before the query: a page computed while a file commits is at least as new
      // as the generation it is filed under.
      const generation = options.generation();
      const at = now();
      let entry = valid(key, generation, at);
      if (entry === undefined) {
        const page = compute();
        const body = Buffer.from(toJson(page.body));
        const etag = weakEtag(body);
        const next = (page.body as { links?: { next?: unknown } }).links?.next;
        // A flat [name, value, …] list: node writes it without walking an object per response.
        const headers = [
          "Access-Control-Allow-Origin",
          "*",
          "Cache-Control",
          `public, max-age=${Math.max(upstreamMaxAge, staleSeconds)}`,
          "Content-Type",
          "application/json; charset=utf-8",
          "Content-Length",
          String(body.length),
          "ETag",
          etag,
        ];
        if (typeof next === "string") headers.push("Link", `<${next}>; rel="next"`);
        entry = {
          status: page.status,
          body,
          etag,
          cacheControl: headers[3]!,
          headers,
          generation,
          createdAt: at,
        };
        pages.set(key, entry);
      }
      write(req, res, entry);
    },
    serveHits(req, res, next) {
      if (!tryServe(req, res)) next();
    },
    tryServe,
  };
}

/**
 * Lets the caches answer hits before Express sees the request at all: a hit then costs a map lookup and one
 * write, not Express's request setup and routing. Express calls `app.handle` for every request; this wraps it.
 */
export function answerHitsFirst(app: Express, caches: readonly ListCache[]): void {
  const routed = app as unknown as {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  };
  const handle = routed.handle.bind(app);
  routed.handle = (req, res, next) => {
    for (const cache of caches) if (cache.tryServe(req, res)) return;
    handle(req, res, next);
  };
}

/** Writes a page with node's own API (a hit must cost little): 304 for a matching If-None-Match, no body for HEAD. */
function write(req: IncomingMessage, res: ServerResponse, entry: Entry): void {
  if (matches(req.headers["if-none-match"], entry.etag)) {
    res.writeHead(304, [
      "Access-Control-Allow-Origin",
      "*",
      "Cache-Control",
      entry.cacheControl,
      "ETag",
      entry.etag,
    ]);
    res.end();
    return;
  }
  res.writeHead(entry.status, entry.headers);
  res.end(req.method === "HEAD" ? undefined : entry.body);
}

/** If-None-Match against a weak ETag: `*`, or any listed tag equal to it ignoring weakness. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}

/** The weak ETag Express would compute for the body (length and SHA-1), computed once per cached page. */
function weakEtag(body: Buffer): string {
  const hash = createHash("sha1").update(body).digest("base64").slice(0, 27);
  return `W/"${body.length.toString(16)}-${hash}"`;
}

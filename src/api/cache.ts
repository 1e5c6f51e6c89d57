import { createHash } from "node:crypto";
import type { Request, Response } from "express";
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
  readonly maxStaleMs: number;
};

type Entry = {
  status: number;
  body: Buffer;
  etag: string;
  link: string | null;
  generation: unknown;
  createdAt: number;
};

/**
 * The in-memory cache of list responses. Pages are keyed by the request URL as sent and stored rendered (JSON
 * bytes and ETag), so a hit costs a map lookup and a write. Lookups of single entities do not go through it:
 * they are always read fresh.
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

  return {
    maxStaleMs,
    send(req, res, upstreamMaxAge, compute) {
      const key = req.originalUrl;
      const generation = options.generation();
      const at = now();
      let entry = pages.get(key);
      if (entry === undefined || (entry.generation !== generation && at - entry.createdAt >= maxStaleMs)) {
        // The generation is read before the query: a page computed while a file commits is at least as new
        // as the generation it is filed under.
        const page = compute();
        const body = Buffer.from(toJson(page.body));
        const next = (page.body as { links?: { next?: unknown } }).links?.next;
        entry = {
          status: page.status,
          body,
          etag: weakEtag(body),
          link: typeof next === "string" ? next : null,
          generation,
          createdAt: at,
        };
        pages.set(key, entry);
      }
      if (entry.link !== null) res.set("Link", `<${entry.link}>; rel="next"`);
      res
        .status(entry.status)
        .set("Cache-Control", `public, max-age=${Math.max(upstreamMaxAge, staleSeconds)}`)
        .set("Content-Type", "application/json; charset=utf-8")
        .set("ETag", entry.etag);
      // Express answers a matching If-None-Match with 304 and leaves the body out of HEAD responses.
      res.send(entry.body);
    },
  };
}

/** The weak ETag Express would compute for the body (length and SHA-1), computed once per cached page. */
function weakEtag(body: Buffer): string {
  const hash = createHash("sha1").update(body).digest("base64").slice(0, 27);
  return `W/"${body.length.toString(16)}-${hash}"`;
}

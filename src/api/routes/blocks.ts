/**
 * The blocks group: `GET /api/v1/blocks` and `GET /api/v1/blocks/{hashOrNumber}`.
 *
 * Blocks never change once written and rows are only ever appended, so answers are kept rendered: each
 * block's JSON (by number), and each list page (by URL) for as long as no new block has arrived. Answers are
 * produced once by a responder and written by two equivalent paths: the Express route, and a fast path on
 * plain `node:http` for the common case (see `mountBlockRoutes`).
 */
import { hash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Express, type Response, Router } from "express";
import { LRUCache } from "lru-cache";
import type { BlockRow } from "../../store/blocks.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { notFound } from "../http-errors.ts";
import {
  nextLink,
  type ParamOptions,
  parseBlockRequest,
  parseBlocksRequest,
  parseHashOrNumberPathParam,
  unwrapParams,
} from "../params/index.ts";
import { blockJson } from "../views/block.ts";

/** Cache lifetimes of the public mirror node's block routes. */
const LIST_CACHE_CONTROL = "public, max-age=1";
const BLOCK_CACHE_CONTROL = "public, max-age=600";
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

const LIST_PATH = "/api/v1/blocks";
const FULL_HASH_DIGITS = 96;
const BLOCK_PATH_PREFIX = "/api/v1/blocks/";

export type BlockRouteOptions = Partial<ParamOptions> & {
  /** Rendered blocks kept, about 0.5 KB each (1.1 KB with a logs bloom). */
  cachedBlocks?: number;
  /** Total characters of rendered list pages kept. */
  cachedPageChars?: number;
  /**
   * A value that changes when a new block becomes visible (default: the newest block number, read from the
   * database on every list request). A kept list page is served while it is unchanged.
   */
  generation?: () => unknown;
};

/** A 200 answer, ready to write. */
export type BlockAnswer = {
  body: string;
  /** The ETag Express would compute for the body, or null when ETags are off. */
  etag: string | null;
  cacheControl: string;
  /** The next page (lists only), also sent as a `Link` header. */
  next: string | null;
};

/** Computes the ETag of a body the way the app is configured to (Express's `etag fn` setting). */
export type EtagFunction = (body: string) => string | null;

export type BlockResponder = {
  /** `GET /api/v1/blocks`; `url` is the request's path and query. Throws `ParameterError` for a bad request. */
  list(url: string): BlockAnswer;
  /** `GET /api/v1/blocks/{hashOrNumber}`; throws `ParameterError` (400) or `HttpError` (404). */
  block(hashOrNumber: string, url: string): BlockAnswer;
};

/** Express's weak ETag (`etag` package): `W/"<byte length in hex>-<first 27 characters of base64 SHA-1>"`. */
export function weakEtag(body: string): string {
  const bytes = Buffer.byteLength(body, "utf8");
  if (bytes === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  return `W/"${bytes.toString(16)}-${hash("sha1", body, "base64").slice(0, 27)}"`;
}

/** Answers block requests from the store, keeping rendered blocks and list pages. */
export function createBlockResponder(
  store: ReadStore,
  options: BlockRouteOptions = {},
  etagOf: EtagFunction = weakEtag,
): BlockResponder {
  // Rendered blocks by number and by full hash (one answer, two keys): a repeated lookup costs no query.
  const byNumber = new LRUCache<bigint, BlockAnswer>({ max: options.cachedBlocks ?? 10_000 });
  const byHash = new LRUCache<string, BlockAnswer>({ max: options.cachedBlocks ?? 10_000 });
  // A page depends only on blocks up to the newest one, so it stays right until a newer block arrives.
  const generation = options.generation ?? (() => store.blocks.latestBlockNumber());
  const pages = new LRUCache<string, { generation: unknown; answer: BlockAnswer }>({
    maxSize: options.cachedPageChars ?? 8_000_000,
    sizeCalculation: (page) => page.answer.body.length + 100,
  });

  const render = (row: BlockRow): BlockAnswer => {
    let answer = byNumber.get(row.number);
    if (answer === undefined) {
      const body = blockJson(row);
      answer = { body, etag: etagOf(body), cacheControl: BLOCK_CACHE_CONTROL, next: null };
      byNumber.set(row.number, answer);
    }
    byHash.set(row.hash, answer);
    return answer;
  };

  /** A block that does not exist (yet) is not remembered. */
  const blockByNumber = (number: bigint): BlockAnswer | undefined => {
    const answer = byNumber.get(number);
    if (answer !== undefined) return answer;
    const row = store.blocks.getBlockByNumber(number);
    return row === undefined ? undefined : render(row);
  };

  const blockByHashPrefix = (prefix: string): BlockAnswer | undefined => {
    // Only a full hash names one block for good; a 32-byte prefix could later match a second block.
    const answer = prefix.length === FULL_HASH_DIGITS ? byHash.get(prefix) : undefined;
    if (answer !== undefined) return answer;
    const row = store.blocks.getBlockByHashPrefix(prefix);
    return row === undefined ? undefined : render(row);
  };

  const renderPage = (url: string): BlockAnswer => {
    const request = unwrapParams(parseBlocksRequest(url, options));
    const numbers = store.blocks.listBlockNumbers({
      // `timestamp` filters apply to the block's consensus end.
      blockNumbers: request.blockNumbers,
      consensusEnds: request.timestamps,
      orderBy: request.orderBy === "number" ? "number" : "consensus_end",
      order: request.order,
      limit: request.limit,
    });
    const items: string[] = [];
    for (const number of numbers) {
      // Rows are never deleted, so every listed number renders.
      const block = blockByNumber(number);
      if (block !== undefined) items.push(block.body);
    }
    const next = nextLink(request.paging, numbers.length, numbers.at(-1)?.toString());
    const body = `{"blocks":[${items.join(",")}],"links":{"next":${next === null ? "null" : JSON.stringify(next)}}}`;
    return { body, etag: etagOf(body), cacheControl: LIST_CACHE_CONTROL, next };
  };

  return {
    list(url) {
      // Read before the page: a page computed while a block commits is filed under the older generation,
      // and so is recomputed once the newer one is seen.
      const current = generation();
      const page = pages.get(url);
      if (page !== undefined && page.generation === current) return page.answer;
      const answer = renderPage(url);
      pages.set(url, { generation: current, answer });
      return answer;
    },

    block(hashOrNumber, url) {
      // Without a query string there is no unknown parameter to report first: only the path is checked.
      const locator = unwrapParams(
        url.includes("?")
          ? parseBlockRequest({ hashOrNumber }, url, options)
          : parseHashOrNumberPathParam(hashOrNumber),
      );
      const answer =
        "number" in locator ? blockByNumber(locator.number) : blockByHashPrefix(locator.hashPrefix);
      if (answer === undefined) throw notFound();
      return answer;
    },
  };
}

/** The Express routes of the blocks group, without the fast path of `mountBlockRoutes`. */
export function blockRoutes(store: ReadStore, options: BlockRouteOptions = {}): Router {
  return blockRouter(createBlockResponder(store, options));
}

function blockRouter(responder: BlockResponder): Router {
  const router = Router();
  router.get(LIST_PATH, (req, res) => {
    sendAnswer(res, responder.list(req.originalUrl));
  });
  router.get(`${LIST_PATH}/:hashOrNumber`, (req, res) => {
    sendAnswer(res, responder.block(req.params.hashOrNumber, req.originalUrl));
  });
  return router;
}

/**
 * Mounts the blocks group on the app: the Express routes, and a fast path in front of Express.
 *
 * Express's own per-request work (request/response setup, routing through every layer, `res.send`) costs
 * several times what a bare `node:http` answer does, more than the whole block lookup. So a GET for a block
 * path without conditional headers that has a 200 answer is written directly, with exactly the headers the
 * Express route sends (the app's `Access-Control-Allow-Origin` included); anything else (errors, HEAD,
 * `If-None-Match`, unusual spellings of the path) goes through Express and the route below, unchanged.
 * Middleware added to the app therefore does not see the fast-path answers.
 */
export function mountBlockRoutes(app: Express, store: ReadStore, options: BlockRouteOptions = {}): void {
  const responder = createBlockResponder(store, options, (body) => {
    const etagFn: unknown = app.get("etag fn");
    return typeof etagFn === "function" ? ((etagFn(body, "utf8") as string | undefined) ?? null) : null;
  });
  app.use(blockRouter(responder));
  const expressApp = app as unknown as {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  };
  const handleWithExpress = expressApp.handle.bind(app);
  expressApp.handle = (req, res, next) => {
    if (!answerDirectly(responder, req, res)) handleWithExpress(req, res, next);
  };
}

/** Writes the answer to a plain block GET; false (nothing written) when Express must handle the request. */
export function answerDirectly(
  responder: BlockResponder,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (req.method !== "GET" || req.headers["if-none-match"] !== undefined) return false;
  if (req.headers["if-modified-since"] !== undefined) return false;
  const url = req.url ?? "";
  if (!url.startsWith(LIST_PATH)) return false;
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  let answer: BlockAnswer;
  try {
    if (path === LIST_PATH || path === BLOCK_PATH_PREFIX) {
      answer = responder.list(url);
    } else {
      const segment = blockSegment(path);
      if (segment === null) return false;
      answer = responder.block(segment, url);
    }
  } catch {
    // Errors take the Express route, which answers them (and logs unexpected ones) as usual.
    return false;
  }
  const headers: Record<string, string | number> = { "Access-Control-Allow-Origin": "*" };
  if (answer.next !== null) headers["Link"] = `<${answer.next}>; rel="next"`;
  headers["Cache-Control"] = answer.cacheControl;
  headers["Content-Type"] = JSON_CONTENT_TYPE;
  if (answer.etag !== null) headers["ETag"] = answer.etag;
  headers["Content-Length"] = Buffer.byteLength(answer.body, "utf8");
  res.writeHead(200, headers);
  res.end(answer.body);
  return true;
}

/**
 * `{hashOrNumber}` of `/api/v1/blocks/{hashOrNumber}` (one trailing slash allowed, as Express routes it);
 * null for paths left to Express, including percent-encoded ones (Express decodes those).
 */
function blockSegment(path: string): string | null {
  if (!path.startsWith(BLOCK_PATH_PREFIX)) return null;
  const rest = path.endsWith("/")
    ? path.slice(BLOCK_PATH_PREFIX.length, -1)
    : path.slice(BLOCK_PATH_PREFIX.length);
  if (rest.length === 0 || rest.includes("/") || rest.includes("%")) return null;
  return rest;
}

/** Writes an answer through Express: the same headers, and Express's 304 and HEAD handling. */
function sendAnswer(res: Response, answer: BlockAnswer): void {
  if (answer.next !== null) res.set("Link", `<${answer.next}>; rel="next"`);
  res.status(200).set("Cache-Control", answer.cacheControl).type(JSON_CONTENT_TYPE);
  // Set ahead of `send`, which then skips hashing the body again.
  if (answer.etag !== null) res.set("ETag", answer.etag);
  res.send(answer.body);
}

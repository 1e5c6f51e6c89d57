/**
 * The network group served from the stream: `GET /api/v1/network/exchangerate`, `/fees`, `/nodes` and `/stake`
 * (api.md §3.3, §3.5–§3.7), with the Java service's conventions (`src/api/java/`).
 *
 * Answers are kept rendered per URL for as long as no newer record file has been applied (the generation),
 * so a kept answer is never stale; errors are never kept.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Express, type Request, type Response, Router } from "express";
import { LRUCache } from "lru-cache";
import { encodeEntityId, formatEntityId } from "../../ids.ts";
import type { Logger } from "../../log.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { parseExchangeRateSet, parseFeeSchedule } from "../../streams/system-file-contents.ts";
import {
  convertTimestamps,
  getOnly,
  JavaHttpError,
  javaErrorHandler,
  javaEtag,
  javaNextLink,
  javaNotFound,
  MAX_INT64,
  NETWORK_CACHE_CONTROL,
  parseJavaQuery,
  readNetworkNodesRequest,
  readOrderParam,
  readTimestampBounds,
  timestampBounds,
} from "../java/index.ts";
import { toJson } from "../json.ts";
import { exchangeRateView, networkFeesView, networkNodeView, networkStakeJson } from "../views/network.ts";

export const FEE_SCHEDULE_FILE = encodeEntityId(0n, 0n, 111n);
export const EXCHANGE_RATE_FILE = encodeEntityId(0n, 0n, 112n);

const PREFIX = "/api/v1/network";
const JSON_TYPE = "application/json;charset=UTF-8";

export type NetworkRouteOptions = {
  /** A value that changes whenever newly indexed data becomes visible (the last committed block). */
  generation: () => unknown;
  /** Rendered answers kept (least recently used go first); default 2,000. */
  cachedAnswers?: number;
};

/** A rendered 200 answer. */
type Answer = { body: Buffer; etag: string; next: string | null };

const notFoundFile = (fileId: bigint) => javaNotFound(`File ${formatEntityId(fileId)} not found`);

/** Computes each route's answer from the request URL; throws `JavaHttpError` for errors. */
function createResponders(store: ReadStore) {
  return {
    exchangeRate(url: string): Answer {
      const bounds = readTimestampBounds(parseJavaQuery(url));
      const file = store.systemFiles.parseSystemFileAsOf(EXCHANGE_RATE_FILE, bounds, parseExchangeRateSet);
      if (file === undefined) throw notFoundFile(EXCHANGE_RATE_FILE);
      return answer(toJson(exchangeRateView(file.value, file.consensusNs)));
    },

    fees(url: string): Answer {
      const query = parseJavaQuery(url);
      // Upstream converts every argument before validating any.
      const timestamps = convertTimestamps(query);
      const order = readOrderParam(query);
      const bounds = timestampBounds(timestamps);
      const schedule = store.systemFiles.parseSystemFileAsOf(FEE_SCHEDULE_FILE, bounds, parseFeeSchedule);
      if (schedule === undefined) throw notFoundFile(FEE_SCHEDULE_FILE);
      const rates = store.systemFiles.parseSystemFileAsOf(EXCHANGE_RATE_FILE, bounds, parseExchangeRateSet);
      if (rates === undefined) throw notFoundFile(EXCHANGE_RATE_FILE);
      // The instant that decides current or next: the upper bound, else the fee schedule's own time.
      const referenceNs = bounds.upperNs === MAX_INT64 ? schedule.consensusNs : bounds.upperNs;
      const view = networkFeesView(schedule.value, rates.value, referenceNs, schedule.consensusNs, order);
      return answer(toJson(view));
    },

    stake(): Answer {
      const row = store.network.latestNetworkStake();
      if (row === undefined) throw javaNotFound("No network stake data found");
      return answer(networkStakeJson(row));
    },

    nodes(url: string): Answer {
      const query = parseJavaQuery(url);
      const request = readNetworkNodesRequest(query);
      const rows = request.nothing ? [] : store.network.networkNodes(request);
      let next: string | null = null;
      const last = rows.at(-1);
      if (last !== undefined && rows.length >= request.limit) {
        const path = url.split("?", 1)[0] ?? PREFIX;
        next = javaNextLink(path, query, "node.id", request.order, last.nodeId.toString());
      }
      return answer(toJson({ nodes: rows.map(networkNodeView), links: { next } }), next);
    },
  };
}

function answer(text: string, next: string | null = null): Answer {
  const body = Buffer.from(text);
  return { body, etag: javaEtag(body), next };
}

function send(res: Response, result: Answer): void {
  if (result.next !== null) res.set("Link", `<${result.next}>; rel="next"`);
  res.set("Cache-Control", NETWORK_CACHE_CONTROL);
  res.set("Content-Type", JSON_TYPE);
  res.set("ETag", result.etag);
  // A Buffer: Express keeps the content type as set (a string would get `; charset=utf-8`).
  res.status(200).send(result.body);
}

/** Rendered answers by URL, each valid while the generation it was computed under is current. */
type AnswerCache = {
  /** The kept answer for `url`, if it is still current. */
  hit(url: string): Answer | undefined;
  /** Computes (or reuses) and keeps the answer for `url`; throws the route's `JavaHttpError`s. */
  answer(url: string, compute: (url: string) => Answer): Answer;
};

function createAnswerCache(options: NetworkRouteOptions): AnswerCache {
  const answers = new LRUCache<string, { generation: unknown; answer: Answer }>({
    max: options.cachedAnswers ?? 2_000,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (entry, key) => entry.answer.body.length + key.length + 100,
  });
  const hit = (url: string, generation = options.generation()) => {
    const entry = answers.get(url);
    return entry !== undefined && entry.generation === generation ? entry.answer : undefined;
  };
  return {
    hit,
    answer(url, compute) {
      // Read before computing: an answer computed while a file commits is filed under the older generation.
      const generation = options.generation();
      const kept = hit(url, generation);
      if (kept !== undefined) return kept;
      const result = compute(url);
      answers.set(url, { generation, answer: result });
      return result;
    },
  };
}

function networkRouter(store: ReadStore, log: Logger, cache: AnswerCache): Router {
  const responders = createResponders(store);
  const kept = (compute: (url: string) => Answer) => (req: Request, res: Response) => {
    try {
      send(res, cache.answer(req.originalUrl, compute));
    } catch (error) {
      // Upstream sets the path's headers before it reads the parameters, and an error answer keeps them.
      if (error instanceof JavaHttpError && error.status < 500) {
        throw new JavaHttpError(error.status, error.messages, {
          ...error.headers,
          "Cache-Control": NETWORK_CACHE_CONTROL,
        });
      }
      throw error;
    }
  };
  const router = Router();
  getOnly(router, `${PREFIX}/exchangerate`, kept(responders.exchangeRate));
  // POST /network/fees (fee estimation) is served by its own router.
  getOnly(router, `${PREFIX}/fees`, kept(responders.fees), ["POST"]);
  getOnly(router, `${PREFIX}/nodes`, kept(responders.nodes));
  getOnly(router, `${PREFIX}/stake`, kept(responders.stake));
  router.use(PREFIX, javaErrorHandler(log));
  return router;
}

/** The Express router of the network group served here (supply and POST fees are mounted elsewhere). */
export function networkRoutes(store: ReadStore, log: Logger, options: NetworkRouteOptions): Router {
  return networkRouter(store, log, createAnswerCache(options));
}

/**
 * Mounts the network routes on the app and answers repeated GETs from the kept answers before Express routes
 * anything (as the blocks group does): Express's per-request work costs more than the whole answer. The fast
 * path writes exactly the headers the Express route sends (the app's CORS header included) and answers a
 * matching If-None-Match with 304; everything else (first requests, errors, other methods) goes through
 * Express unchanged.
 */
export function mountNetworkRoutes(
  app: Express,
  store: ReadStore,
  log: Logger,
  options: NetworkRouteOptions,
): void {
  const cache = createAnswerCache(options);
  app.use(networkRouter(store, log, cache));
  const routed = app as unknown as {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  };
  const handleWithExpress = routed.handle.bind(app);
  routed.handle = (req, res, next) => {
    const url = req.url ?? "";
    if ((req.method === "GET" || req.method === "HEAD") && url.startsWith(`${PREFIX}/`)) {
      const kept = cache.hit(url);
      if (kept !== undefined) return writeDirectly(req, res, kept);
    }
    handleWithExpress(req, res, next);
  };
}

function writeDirectly(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { "Access-Control-Allow-Origin": "*" };
  if (answer.next !== null) headers.Link = `<${answer.next}>; rel="next"`;
  headers["Cache-Control"] = NETWORK_CACHE_CONTROL;
  headers["Content-Type"] = JSON_TYPE;
  headers.ETag = answer.etag;
  if (etagMatches(req.headers["if-none-match"], answer.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers["Content-Length"] = answer.body.length;
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : answer.body);
}

/** If-None-Match against a strong ETag: `*`, or any listed tag equal to it (weakness ignored, as Express). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

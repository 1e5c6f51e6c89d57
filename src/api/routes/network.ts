/**
 * The network group served from the stream: `GET /api/v1/network/exchangerate`, `/fees`, `/nodes` and `/stake`
 * (api.md §3.3, §3.5–§3.7), with the Java service's conventions (`src/api/java/`).
 *
 * Answers are kept rendered per URL for as long as no newer record file has been applied (the generation),
 * so a kept answer is never stale; errors are never kept.
 */
import { type Request, type Response, Router } from "express";
import { LRUCache } from "lru-cache";
import { encodeEntityId, formatEntityId } from "../../ids.ts";
import type { Logger } from "../../log.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { parseExchangeRateSet, parseFeeSchedule } from "../../streams/system-file-contents.ts";
import {
  convertTimestamps,
  getOnly,
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
type Answer = { body: string; etag: string; next: string | null };

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

function answer(body: string, next: string | null = null): Answer {
  return { body, etag: javaEtag(body), next };
}

function send(res: Response, result: Answer): void {
  if (result.next !== null) res.set("Link", `<${result.next}>; rel="next"`);
  res.set("Cache-Control", NETWORK_CACHE_CONTROL);
  res.set("Content-Type", JSON_TYPE);
  res.set("ETag", result.etag);
  res.status(200).send(result.body);
}

/** The Express router of the network group served here (supply and POST fees are mounted elsewhere). */
export function networkRoutes(store: ReadStore, log: Logger, options: NetworkRouteOptions): Router {
  const responders = createResponders(store);
  const answers = new LRUCache<string, { generation: unknown; answer: Answer }>({
    max: options.cachedAnswers ?? 2_000,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (entry, key) => entry.answer.body.length + key.length + 100,
  });
  const kept = (compute: (url: string) => Answer) => (req: Request, res: Response) => {
    const url = req.originalUrl;
    // Read before computing: an answer computed while a file commits is filed under the older generation.
    const generation = options.generation();
    const hit = answers.get(url);
    if (hit !== undefined && hit.generation === generation) return send(res, hit.answer);
    const result = compute(url);
    answers.set(url, { generation, answer: result });
    send(res, result);
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

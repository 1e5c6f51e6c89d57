/**
 * The network group served from the stream: `GET /api/v1/network/exchangerate`, `/fees`, `/nodes` and `/stake`
 * (api.md §3.3, §3.5–§3.7), with the Java service's conventions (`src/api/java/`), as routes of the front's
 * table. Their answers change only when a record file is applied, so the front's response cache keeps them
 * exactly (by URL and generation); errors are never kept.
 */
import { encodeEntityId, formatEntityId } from "../../ids.ts";
import { MAX_INT64 } from "../../int64.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { parseExchangeRateSet, parseFeeSchedule } from "../../streams/system-file-contents.ts";
import {
  convertTimestamps,
  javaNextLink,
  javaNotFound,
  parseJavaQuery,
  readNetworkNodesRequest,
  readOrderParam,
  readTimestampBounds,
  timestampBounds,
} from "../java/index.ts";
import { toJson } from "../json.ts";
import { exchangeRateView, networkFeesView, networkNodeView, networkStakeJson } from "../views/network.ts";
import { type HandlerRouteDef, javaAnswer, type PostHandler, type RouteAnswer } from "./route-table.ts";

export const FEE_SCHEDULE_FILE = encodeEntityId(0n, 0n, 111n);
export const EXCHANGE_RATE_FILE = encodeEntityId(0n, 0n, 112n);

const PREFIX = "/api/v1/network";
/** upstream's `Cache-Control: public, max-age=60` on every `/api/v1/network/*` path. */
export const NETWORK_MAX_AGE = 60;

const notFoundFile = (fileId: bigint) => javaNotFound(`File ${formatEntityId(fileId)} not found`);

/** Computes each route's answer from the request URL; throws `JavaHttpError` for errors. */
function createResponders(store: ReadStore) {
  return {
    exchangeRate(url: string): RouteAnswer {
      const bounds = readTimestampBounds(parseJavaQuery(url));
      const file = store.systemFiles.parseSystemFileAsOf(EXCHANGE_RATE_FILE, bounds, parseExchangeRateSet);
      if (file === undefined) throw notFoundFile(EXCHANGE_RATE_FILE);
      return javaAnswer(toJson(exchangeRateView(file.value, file.consensusNs)));
    },

    fees(url: string): RouteAnswer {
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
      return javaAnswer(toJson(view));
    },

    stake(): RouteAnswer {
      const row = store.network.latestNetworkStake();
      if (row === undefined) throw javaNotFound("No network stake data found");
      return javaAnswer(networkStakeJson(row));
    },

    nodes(url: string): RouteAnswer {
      const query = parseJavaQuery(url);
      const request = readNetworkNodesRequest(query);
      const rows = request.nothing ? [] : store.network.networkNodes(request);
      let next: string | null = null;
      const last = rows.at(-1);
      if (last !== undefined && rows.length >= request.limit) {
        const path = url.split("?", 1)[0] ?? PREFIX;
        next = javaNextLink(path, query, "node.id", request.order, last.nodeId.toString());
      }
      return javaAnswer(toJson({ nodes: rows.map(networkNodeView), links: { next } }), next);
    },
  };
}

/**
 * The network group's routes (supply is `networkSupplyRoutes`). `postFees` is the fee estimator
 * (`POST /api/v1/network/fees`), declared on the same route as the GET of the fee schedule.
 */
export function networkRoutes(store: ReadStore, postFees: PostHandler): HandlerRouteDef[] {
  const responders = createResponders(store);
  const route = (
    template: string,
    handle: HandlerRouteDef["handle"],
    post?: PostHandler,
  ): HandlerRouteDef => ({
    template: `${PREFIX}${template}`,
    caching: "exact",
    maxAge: NETWORK_MAX_AGE,
    style: "java",
    handle,
    ...(post === undefined ? {} : { post }),
  });
  return [
    route("/exchangerate", ({ url }) => responders.exchangeRate(url)),
    route("/fees", ({ url }) => responders.fees(url), postFees),
    route("/nodes", ({ url }) => responders.nodes(url)),
    route("/stake", () => responders.stake()),
  ];
}

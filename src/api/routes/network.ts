/**
 * The network group served from the stream: `GET /api/v1/network/exchangerate`, `/fees`, `/nodes` and `/stake`
 * (api.md §3.3, §3.5–§3.7), with the Java service's conventions (`src/api/java/`), as routes of the front's
 * table. Their answers change only when a record file is applied, so the front's response cache keeps them
 * exactly (by URL and generation); errors are never kept.
 */
import { encodeEntityId, formatEntityId } from "../../ids.ts";
import { MAX_INT64 } from "../../int64.ts";
import type { SystemFileBounds } from "../../store/system-files.ts";
import { parseExchangeRateSet, parseFeeSchedule } from "../../streams/system-file-contents.ts";
import {
  convertTimestamps,
  type JavaQuery,
  javaNextLink,
  javaNotFound,
  type NetworkNodesRequest,
  type Order,
  parseJavaQuery,
  readNetworkNodesRequest,
  readOrderParam,
  readTimestampBounds,
  timestampBounds,
} from "../java/index.ts";
import { toJson } from "../json.ts";
import { exchangeRateView, networkFeesView, networkNodeView, networkStakeJson } from "../views/network.ts";
import { defineRoute, javaAnswer, type PostStep, type RouteDef } from "./route-table.ts";

export const FEE_SCHEDULE_FILE = encodeEntityId(0n, 0n, 111n);
export const EXCHANGE_RATE_FILE = encodeEntityId(0n, 0n, 112n);

const PREFIX = "/api/v1/network";
/** upstream's `Cache-Control: public, max-age=60` on every `/api/v1/network/*` path. */
export const NETWORK_MAX_AGE = 60;

const notFoundFile = (fileId: bigint) => javaNotFound(`File ${formatEntityId(fileId)} not found`);

/**
 * The network group's routes (supply is `networkSupplyRoutes`). `postFees` is the fee estimator
 * (`POST /api/v1/network/fees`), declared on the same route as the GET of the fee schedule.
 */
export function networkRoutes(postFees: PostStep): RouteDef[] {
  const common = { caching: "exact", maxAge: NETWORK_MAX_AGE, style: "java" } as const;
  return [
    defineRoute<SystemFileBounds>({
      ...common,
      template: `${PREFIX}/exchangerate`,
      parse: ({ url }) => readTimestampBounds(parseJavaQuery(url)),
      answer: (store, bounds) => {
        const file = store.systemFiles.parseSystemFileAsOf(EXCHANGE_RATE_FILE, bounds, parseExchangeRateSet);
        if (file === undefined) throw notFoundFile(EXCHANGE_RATE_FILE);
        return javaAnswer(toJson(exchangeRateView(file.value, file.consensusNs)));
      },
    }),
    defineRoute<{ bounds: SystemFileBounds; order: Order }>({
      ...common,
      template: `${PREFIX}/fees`,
      parse: ({ url }) => {
        const query = parseJavaQuery(url);
        // Upstream converts every argument before validating any.
        const timestamps = convertTimestamps(query);
        const order = readOrderParam(query);
        return { bounds: timestampBounds(timestamps), order };
      },
      answer: (store, { bounds, order }) => {
        const schedule = store.systemFiles.parseSystemFileAsOf(FEE_SCHEDULE_FILE, bounds, parseFeeSchedule);
        if (schedule === undefined) throw notFoundFile(FEE_SCHEDULE_FILE);
        const rates = store.systemFiles.parseSystemFileAsOf(EXCHANGE_RATE_FILE, bounds, parseExchangeRateSet);
        if (rates === undefined) throw notFoundFile(EXCHANGE_RATE_FILE);
        // The instant that decides current or next: the upper bound, else the fee schedule's own time.
        const referenceNs = bounds.upperNs === MAX_INT64 ? schedule.consensusNs : bounds.upperNs;
        const view = networkFeesView(schedule.value, rates.value, referenceNs, schedule.consensusNs, order);
        return javaAnswer(toJson(view));
      },
      post: postFees,
    }),
    defineRoute<{ request: NetworkNodesRequest; query: JavaQuery; path: string }>({
      ...common,
      template: `${PREFIX}/nodes`,
      parse: ({ url }) => {
        const query = parseJavaQuery(url);
        return { request: readNetworkNodesRequest(query), query, path: url.split("?", 1)[0] ?? PREFIX };
      },
      answer: (store, { request, query, path }) => {
        const rows = request.nothing ? [] : store.network.networkNodes(request);
        let next: string | null = null;
        const last = rows.at(-1);
        if (last !== undefined && rows.length >= request.limit) {
          next = javaNextLink(path, query, "node.id", request.order, last.nodeId.toString());
        }
        return javaAnswer(toJson({ nodes: rows.map(networkNodeView), links: { next } }), next);
      },
    }),
    defineRoute<null>({
      ...common,
      template: `${PREFIX}/stake`,
      parse: () => null,
      answer: (store) => {
        const row = store.network.latestNetworkStake();
        if (row === undefined) throw javaNotFound("No network stake data found");
        return javaAnswer(networkStakeJson(row));
      },
    }),
  ];
}

/**
 * The two log routes (contracts.md §5.4): `/api/v1/contracts/results/logs` and
 * `/api/v1/contracts/{contractIdOrAddress}/results/logs`. Pages link on `timestamp` and `index` together
 * (upstream `BaseController.getPaginationLink`).
 */

import type { ContractLogListQuery, LogBlock, LogBound } from "../../store/contract-logs.ts";
import type { ContractLogRow } from "../../store/contract-results.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { formatTimestamp } from "../../time.ts";
import { resolveContractRef } from "../contract-ref.ts";
import { HttpError } from "../http-errors.ts";
import {
  type ContractLogsRequest,
  parseContractLogsByIdRequest,
  parseContractLogsRequest,
} from "../params/contract-logs.ts";
import type { ParamOptions } from "../params/index.ts";
import { unwrapParams } from "../params/index.ts";
import { buildPairedNextLink } from "../params/links.ts";
import { type KeyBound, pairedNextKeys } from "../params/paired-bounds.ts";
import { contractLogView } from "../views/contract-results.ts";
import { defineRoute, jsonAnswer, type RouteAnswer, type RouteDef } from "./route-table.ts";

const LIST_MAX_AGE = 10;
const BY_CONTRACT_MAX_AGE = 1;

const EMPTY_LOGS = jsonAnswer({ logs: [], links: { next: null } });

/** Whether the lower and upper timestamp bounds (gt +1, lt -1) leave no instant. */
function isEmptyRange(timestamp: KeyBound<bigint>): boolean {
  const { lower, upper } = timestamp;
  if (lower === null || upper === null) return false;
  const from = lower.op === "gt" ? lower.value + 1n : lower.value;
  const to = upper.op === "lt" ? upper.value - 1n : upper.value;
  return to < from;
}

/** The store query of the request's bounds: an exact time with index conditions, or pair bounds. */
function logQuery(
  request: ContractLogsRequest,
  contractId: bigint | null,
  timestamp: KeyBound<bigint>,
): ContractLogListQuery {
  const { index } = request;
  const indexes: ContractLogListQuery["indexes"][number][] = [];
  const topics = request.topics.map((values) => values.map((hex) => Buffer.from(hex, "hex")));
  const base = { contractId, topics, order: request.order, limit: request.limit };
  if (timestamp.equal !== null) {
    for (const c of [index.equal, index.lower, index.upper]) {
      if (c !== null && c.op !== "ne") indexes.push({ op: c.op, value: c.value });
    }
    return { ...base, consensusNs: timestamp.equal.value, indexes, lower: null, upper: null };
  }
  const side = (time: KeyBound<bigint>["lower"], idx: KeyBound<bigint>["lower"]): LogBound | null => {
    if (time === null) {
      // Only when the time bounds were dropped (an empty range on the all-logs route): the index alone.
      if (idx !== null && idx.op !== "ne") indexes.push({ op: idx.op, value: idx.value });
      return null;
    }
    return {
      consensusNs: time.value,
      timeInclusive: time.op === "gte" || time.op === "lte",
      index: idx === null ? null : { value: idx.value, inclusive: idx.op === "gte" || idx.op === "lte" },
    };
  };
  const lower = side(timestamp.lower, index.lower);
  const upper = side(timestamp.upper, index.upper);
  return { ...base, consensusNs: null, indexes, lower, upper };
}

function logsAnswer(store: ReadStore, request: ContractLogsRequest, rows: ContractLogRow[]): RouteAnswer {
  // Logs of a page mostly share a few blocks: one lookup per block, not per log.
  let block: LogBlock | undefined;
  const logs = rows.map((row) => {
    if (block === undefined || row.consensusNs < block.startNs || row.consensusNs > block.endNs) {
      block = store.contractLogs.blockAt(row.consensusNs);
    }
    const inBlock = block !== undefined && row.consensusNs >= block.startNs ? block : undefined;
    return contractLogView(row, inBlock);
  });
  let next: string | null = null;
  const last = rows.at(-1);
  if (last !== undefined && rows.length === request.limit) {
    const keys = pairedNextKeys(request.timestamp, request.index, {
      primary: formatTimestamp(last.consensusNs),
      secondary: String(last.index),
    });
    if (keys !== null) next = buildPairedNextLink({ ...request.paging, keys });
  }
  return jsonAnswer({ logs, links: { next } });
}

/** The log routes; `options` are the shard, realm and limits of the parameter grammar. */
export function contractLogRoutes(options: Partial<ParamOptions> = {}): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/contracts/results/logs",
      caching: "stale-ok",
      maxAge: LIST_MAX_AGE,
      parse: ({ url }) => unwrapParams(parseContractLogsRequest(url, options)),
      answer: (store: ReadStore, request) => {
        let timestamp = request.timestamp;
        if (request.transactionHash !== null) {
          const conditions = [timestamp.equal, timestamp.lower, timestamp.upper].filter((c) => c !== null);
          const found = store.contractLogs.firstTimeOfHash(
            Buffer.from(request.transactionHash, "hex"),
            conditions,
            request.order,
          );
          if (found === undefined) return EMPTY_LOGS;
          timestamp = { name: "timestamp", equal: { op: "eq", value: found }, lower: null, upper: null };
        } else if (isEmptyRange(timestamp)) {
          // Upstream drops a timestamp range that holds no instant and lists logs of all time (contracts.md §11).
          timestamp = { name: "timestamp", equal: timestamp.equal, lower: null, upper: null };
        }
        const rows = store.contractLogs.listLogs(logQuery(request, null, timestamp));
        return logsAnswer(store, request, rows);
      },
    }),
  ];
}

/** `/contracts/{id}/results/logs`, listed before `/contracts/{id}/results/{timestamp}`. */
export function contractLogByIdRoutes(options: Partial<ParamOptions> = {}): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/contracts/{contractIdOrAddress}/results/logs",
      caching: "stale-ok",
      maxAge: BY_CONTRACT_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseContractLogsByIdRequest(params.contractIdOrAddress ?? "", url, options)),
      answer: (store: ReadStore, request) => {
        const contractId = resolveContractRef(store, request.contract);
        if (contractId === 0n) return EMPTY_LOGS;
        if (request.boundsProblem !== null) throw new HttpError(400, [request.boundsProblem]);
        const rows = store.contractLogs.listLogs(logQuery(request, contractId, request.timestamp));
        return logsAnswer(store, request, rows);
      },
    }),
  ];
}

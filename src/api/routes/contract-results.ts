/**
 * The contract result routes (contracts.md §4, §7): `/api/v1/contracts/results`, `/contracts/results/{idOrHash}`
 * and its `/actions`, `/contracts/{id}/results` and `/contracts/{id}/results/{timestamp}`.
 *
 * A single result's answer reads everything at its consensus time (result, Ethereum transaction, logs, state
 * changes, block) in the read transaction the worker runs the answer in.
 */
import { MAX_INT64 } from "../../int64.ts";
import type { ContractResultRow } from "../../store/contract-results.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { formatTimestamp } from "../../time.ts";
import { resolveContractRef, resolveSenders } from "../contract-ref.ts";
import { notFound } from "../http-errors.ts";
import {
  type BlockFilter,
  type ContractResultsFilters,
  type ContractTransactionLocator,
  parseContractActionsRequest,
  parseContractResultAtRequest,
  parseContractResultByTransactionRequest,
  parseContractResultsByIdRequest,
  parseContractResultsRequest,
} from "../params/contract-results.ts";
import { nextLink, type ParamOptions, unwrapParams } from "../params/index.ts";
import { contractResultDetailView, contractResultView, type ResultBlock } from "../views/contract-results.ts";
import { contractActionView } from "../views/contract-state.ts";
import { isUserFile } from "../views/contracts.ts";
import { defineRoute, jsonAnswer, type RouteAnswer, type RouteDef } from "./route-table.ts";

/** Cache lifetimes of upstream's contract result routes (`rest/config/application.yml`). */
const LIST_MAX_AGE = 10;
const BY_CONTRACT_MAX_AGE = 1;
const SINGLE_MAX_AGE = 600;

/** The time range of a block filter: the block's `[consensus_start, consensus_end]`, or null when no block matches. */
function blockRange(store: ReadStore, block: BlockFilter): { start: bigint; end: bigint } | null {
  const row =
    "number" in block
      ? block.number > MAX_INT64
        ? undefined
        : store.blocks.getBlockByNumber(block.number)
      : store.blocks.getBlockByHashPrefix(block.hashPrefix);
  return row === undefined ? null : { start: row.consensus_start, end: row.consensus_end };
}

/** A results page (either list), or null when the filters match nothing. */
function readResults(
  store: ReadStore,
  request: ContractResultsFilters,
  contractId: bigint | null,
): ContractResultRow[] {
  const timestamps = [...request.timestamps];
  if (request.block !== null) {
    const range = blockRange(store, request.block);
    if (range === null) return [];
    timestamps.push({ op: "gte", value: range.start }, { op: "lte", value: range.end });
  }
  return store.contractResults.listResults({
    contractId,
    timestamps,
    sendersIn: resolveSenders(store, request.fromIn),
    senderConditions: request.fromConditions.map((c) => ({
      op: c.op,
      value: resolveSenders(store, [c.value])[0]!,
    })),
    transactionIndexes: request.transactionIndexes,
    internal: request.internal,
    order: request.order,
    limit: request.limit,
  });
}

function blockOf(store: ReadStore, number: bigint): ResultBlock | undefined {
  const row = store.blocks.getBlockByNumber(number);
  return row === undefined ? undefined : { hash: row.hash, number: row.number, gasUsed: row.gas_used };
}

/**
 * The detailed answer of the result at `consensusNs` (contracts.md §4.3, §4.4). `pathContract`: the timestamp
 * route's contract, which must be in the transaction's contract set, and whose migration state changes are kept
 * (the transaction route has none and drops every migration change). 206 when the result has no call result.
 */
function singleResultAnswer(
  store: ReadStore,
  consensusNs: bigint,
  pathContract: bigint | null,
  hbar: boolean,
): RouteAnswer {
  const result = store.contractResults.resultAt(consensusNs);
  if (result === undefined) throw notFound();
  const logs = store.contractResults.logsAt(consensusNs);
  const changes = store.contractResults.stateChangesAt(consensusNs);
  if (pathContract !== null) {
    const set = new Set<bigint>([result.contractId, result.payerId]);
    for (const log of logs) set.add(log.contractId);
    for (const change of changes) set.add(change.contractId);
    if (!set.has(pathContract)) throw notFound();
  }
  const eth = store.contractResults.ethereumTransactionAt(consensusNs, result.payerId);
  const callDataFile = isUserFile(eth?.callDataId)
    ? (store.systemFiles.fileAsOf(eth.callDataId, { lowerNs: 0n, upperNs: MAX_INT64 })?.bytes ?? null)
    : null;
  const view = contractResultDetailView(result, {
    block: blockOf(store, result.blockNumber),
    eth,
    logs,
    stateChanges: changes.filter((c) => !c.migration || c.contractId === pathContract),
    callDataFile,
    hbar,
    list: false,
  });
  return jsonAnswer(view, result.callResult === null ? 206 : 200);
}

/** The consensus time (and payer) a `{transactionIdOrHash}` names, or a 404. */
function locate(store: ReadStore, locator: ContractTransactionLocator) {
  const found =
    locator.kind === "hash"
      ? store.contractResults.findByHash(Buffer.from(locator.hash, "hex"))
      : store.contractResults.findById(locator.payerId, locator.validStartNs, locator.nonce);
  if (found === undefined) throw notFound();
  return locator.kind === "id" ? { ...found, payerId: locator.payerId } : found;
}

/** The contract result routes; `options` are the shard, realm and limits of the parameter grammar. */
export function contractResultRoutes(options: Partial<ParamOptions> = {}): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/contracts/results",
      caching: "stale-ok",
      maxAge: LIST_MAX_AGE,
      parse: ({ url }) => unwrapParams(parseContractResultsRequest(url, options)),
      answer: (store: ReadStore, request) => {
        const rows = readResults(store, request, null);
        const eths = store.contractResults.ethereumTransactionsAt(rows.map((r) => r.consensusNs));
        const blocks = new Map<bigint, ResultBlock | undefined>();
        const results = rows.map((row) => {
          if (!blocks.has(row.blockNumber)) blocks.set(row.blockNumber, blockOf(store, row.blockNumber));
          const eth = eths.get(row.consensusNs);
          return contractResultDetailView(row, {
            block: blocks.get(row.blockNumber),
            eth: eth?.payerId === row.payerId ? eth : undefined,
            hbar: request.hbar,
            list: true,
          });
        });
        const last = rows.at(-1);
        const next = nextLink(
          request.paging,
          rows.length,
          last === undefined ? undefined : formatTimestamp(last.consensusNs),
        );
        return jsonAnswer({ results, links: { next } });
      },
    }),
    defineRoute({
      template: "/api/v1/contracts/results/{transactionIdOrHash}",
      caching: "exact",
      maxAge: SINGLE_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseContractResultByTransactionRequest(params.transactionIdOrHash ?? "", url, options)),
      answer: (store: ReadStore, request) => {
        const found = locate(store, request.locator);
        return singleResultAnswer(store, found.consensusNs, null, request.hbar);
      },
    }),
    defineRoute({
      template: "/api/v1/contracts/results/{transactionIdOrHash}/actions",
      caching: "exact",
      maxAge: SINGLE_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseContractActionsRequest(params.transactionIdOrHash ?? "", url, options)),
      answer: (store: ReadStore, request) => {
        const found = locate(store, request.locator);
        const rows = store.contractState.listActions({
          consensusNs: found.consensusNs,
          payerId: found.payerId,
          indexes: request.indexes,
          order: request.order,
          limit: request.limit,
        });
        const last = rows.at(-1);
        const next = nextLink(
          request.paging,
          rows.length,
          last === undefined ? undefined : String(last.index),
        );
        return jsonAnswer({ actions: rows.map(contractActionView), links: { next } });
      },
    }),
  ];
}

/** The by-contract result routes, listed after `/contracts/results…` so `results` is never a contract. */
export function contractResultByIdRoutes(options: Partial<ParamOptions> = {}): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/contracts/{contractIdOrAddress}/results",
      caching: "stale-ok",
      maxAge: BY_CONTRACT_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseContractResultsByIdRequest(params.contractIdOrAddress ?? "", url, options)),
      answer: (store: ReadStore, request) => {
        const contractId = resolveContractRef(store, request.contract);
        const rows = readResults(store, request, contractId);
        const last = rows.at(-1);
        const next = nextLink(
          request.paging,
          rows.length,
          last === undefined ? undefined : formatTimestamp(last.consensusNs),
        );
        return jsonAnswer({ results: rows.map(contractResultView), links: { next } });
      },
    }),
    defineRoute({
      template: "/api/v1/contracts/{contractIdOrAddress}/results/{timestamp}",
      caching: "exact",
      maxAge: SINGLE_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(
          parseContractResultAtRequest(
            { contractIdOrAddress: params.contractIdOrAddress ?? "", timestamp: params.timestamp ?? "" },
            url,
            options,
          ),
        ),
      answer: (store: ReadStore, request) => {
        const contractId = resolveContractRef(store, request.contract);
        if (request.consensusNs > MAX_INT64) throw notFound();
        return singleResultAnswer(store, request.consensusNs, contractId, request.hbar);
      },
    }),
  ];
}

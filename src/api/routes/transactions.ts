/**
 * The transactions group: `GET /api/v1/transactions` and `GET /api/v1/transactions/{transactionIdOrHash}`
 * (upstream `rest/transactions.js`). Lists are cached as lists (`public, max-age=2` upstream); a lookup until
 * the next record file (`max-age=600`, or 5 while a recent ScheduleCreate's execution may still come).
 */
import type { ReadStore } from "../../store/read-store.ts";
import type { TransactionRow } from "../../store/transactions.ts";
import { formatTimestamp } from "../../time.ts";
import { notFound } from "../http-errors.ts";
import { buildNextLink, nextLink, unwrapParams } from "../params/index.ts";
import {
  parseTransactionLookupRequest,
  parseTransactionsRequest,
  type TransactionLookupRequest,
  type TransactionsRequest,
} from "../params/transactions.ts";
import { renderedTransactionPage } from "../views/transaction-pages.ts";
import { transactionView } from "../views/transactions.ts";
import { defineRoute, jsonAnswer, type RouteDef } from "./route-table.ts";

const LIST_MAX_AGE = 2;
const LOOKUP_MAX_AGE = 600;
/** While a ScheduleCreate younger than the scheduled-execution window has no execution, answers age fast. */
const PENDING_SCHEDULE_MAX_AGE = 5;
const SCHEDULED_RANGE_NS = 89_285n * 60_000_000_000n;
const SCHEDULE_CREATE = 42;
const SUCCESS_RESULTS = new Set([22, 104, 220]);

/** The transactions routes (no store: each thread's answer step gets its own). */
export function transactionRoutes(): RouteDef[] {
  return [
    defineRoute<TransactionsRequest>({
      template: "/api/v1/transactions",
      caching: "stale-ok",
      maxAge: LIST_MAX_AGE,
      parse: ({ url }) => unwrapParams(parseTransactionsRequest(url)),
      answer: (store, request) => transactionsPage(store, request),
    }),
    defineRoute<TransactionLookupRequest>({
      template: "/api/v1/transactions/{transactionIdOrHash}",
      caching: "exact",
      maxAge: LOOKUP_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseTransactionLookupRequest(params.transactionIdOrHash ?? "", url)),
      answer: (store, request) => transactionLookup(store, request),
    }),
  ];
}

function transactionsPage(store: ReadStore, request: TransactionsRequest) {
  if (!request.satisfiable) return jsonAnswer({ transactions: [], links: { next: null } });
  const page = renderedTransactionPage(store, request.query);
  // A wide account range's page that its budget ended early continues after the last candidate it examined
  // (every match up to there is on the page), as upstream's bound timestamp ranges link on.
  const next =
    page.resumeNs === null
      ? nextLink(
          request.paging,
          page.count,
          page.lastNs === undefined ? undefined : formatTimestamp(page.lastNs),
        )
      : buildNextLink({ ...request.paging, lastValue: formatTimestamp(page.resumeNs) });
  return jsonAnswer({ transactions: page.json, links: { next } });
}

function transactionLookup(store: ReadStore, { locator, filter }: TransactionLookupRequest) {
  const rows =
    locator.kind === "hash"
      ? store.transactions.getTransactionsByHash(locator.hash, filter)
      : store.transactions.getTransactionsById(locator.payerId, locator.validStartNs, filter);
  if (rows.length === 0) throw notFound();
  const answer = jsonAnswer({ transactions: rows.map((row) => transactionView(row, true)) });
  const pending = locator.kind === "id" && filter.scheduled === undefined && awaitsExecution(rows);
  return pending ? { ...answer, maxAge: PENDING_SCHEDULE_MAX_AGE } : answer;
}

/** Upstream's shorter cache header: a successful ScheduleCreate within the window, and no execution before it. */
function awaitsExecution(rows: readonly TransactionRow[]): boolean {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  let pending = false;
  for (const row of rows) {
    if (row.type === SCHEDULE_CREATE && SUCCESS_RESULTS.has(row.result)) {
      if (nowNs - row.consensusNs < SCHEDULED_RANGE_NS) pending = true;
    } else if (row.scheduled) {
      return false;
    }
  }
  return pending;
}

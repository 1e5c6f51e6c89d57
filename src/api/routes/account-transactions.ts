/**
 * The `transactions` and `links` of `GET /api/v1/accounts/{id}`: the page `/api/v1/transactions?account.id=`
 * would give (upstream `getOneAccount` hands its filters to `doGetTransactions`), with the request's
 * `timestamp`, `transactiontype`, `limit` and `order`, rendered by the transactions group's one renderer.
 * `links.next` pages on `timestamp` and keeps the account path as sent.
 */
import type { ReadStore } from "../../store/read-store.ts";
import { formatTimestamp } from "../../time.ts";
import { RawJson } from "../json.ts";
import type { AccountRequest } from "../params/accounts.ts";
import { nextLink } from "../params/index.ts";
import { renderedTransactionPage } from "../views/transaction-pages.ts";

export type AccountTransactions = { transactions: RawJson; links: { next: string | null } };

export function accountTransactions(
  store: ReadStore,
  id: bigint,
  request: AccountRequest,
): AccountTransactions {
  if (!request.includeTransactions) return { transactions: new RawJson("[]"), links: { next: null } };
  const page = renderedTransactionPage(store, {
    accountIds: [{ op: "eq", value: id }],
    timestamps: request.timestamps.filters,
    types: request.transactionTypes,
    result: null,
    creditDebit: null,
    order: request.order,
    limit: request.limit,
  });
  const next = nextLink(
    request.paging,
    page.count,
    page.lastNs === undefined ? undefined : formatTimestamp(page.lastNs),
  );
  return { transactions: page.json, links: { next } };
}

/**
 * `GET /api/v1/accounts` and `GET /api/v1/accounts/{idOrAliasOrEvmAddress}` (upstream `rest/accounts.js`).
 */
import { formatEntityId } from "../../ids.ts";
import { MAX_INT64 } from "../../int64.ts";
import type { AccountRow, HbarBalance } from "../../store/accounts.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { resolveAccountRef } from "../account-ref.ts";
import { HttpError, notFound } from "../http-errors.ts";
import {
  type AccountRequest,
  type AccountsRequest,
  parseAccountRequest,
  parseAccountsRequest,
} from "../params/accounts.ts";
import { nextLink, unwrapParams } from "../params/index.ts";
import { accountView, type BalanceView, balanceView } from "../views/accounts.ts";
import { accountTransactions } from "./account-transactions.ts";
import { defineRoute, jsonAnswer, type RouteDef } from "./route-table.ts";

/** Token balances shown per account: in a list, and for one account (upstream `response.limit.tokenBalance`). */
export const LIST_TOKEN_BALANCES = 50;
const ACCOUNT_TOKEN_BALANCES = 1000;

/** The public mirror node's `max-age` for the two paths. */
const ACCOUNTS_MAX_AGE = 10;
const ACCOUNT_MAX_AGE = 2;

export function accountRoutes(): RouteDef[] {
  return [
    defineRoute<AccountsRequest>({
      template: "/api/v1/accounts",
      caching: "stale-ok",
      maxAge: ACCOUNTS_MAX_AGE,
      parse: ({ url }) => unwrapParams(parseAccountsRequest(url)),
      answer: (store, request) => {
        const rows = store.accounts.listAccounts({
          ids: request.ids,
          idConditions: request.conditions,
          balances: request.balances,
          publicKeys: request.publicKeys,
          includeBalance: request.includeBalance,
          order: request.order,
          limit: request.limit,
        });
        const accounts = rows.map((row) => {
          if (row.hbar === null) return accountView(row, null);
          const tokens = store.accounts.tokenBalances(row.id, null, request.order, LIST_TOKEN_BALANCES);
          return accountView(row, balanceView(row.hbar, row.hbar.changedNs, tokens));
        });
        const last = rows.at(-1);
        const next = nextLink(request.paging, rows.length, last && (formatEntityId(last.id) ?? undefined));
        return jsonAnswer({ accounts, links: { next } });
      },
    }),
    defineRoute<AccountRequest>({
      template: "/api/v1/accounts/{idOrAliasOrEvmAddress}",
      caching: "exact",
      maxAge: ACCOUNT_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseAccountRequest({ idOrAliasOrEvmAddress: params.idOrAliasOrEvmAddress ?? "" }, url)),
      answer: (store, request) => {
        const id = resolveAccountRef(store, request.account);
        const { timestamps } = request;
        if (timestamps.problem !== null) throw new HttpError(400, [timestamps.problem]);
        if (timestamps.empty) throw new HttpError(404, ["Timestamp range is empty"]);
        const found = timestamps.given ? accountAsOf(store, id, request) : currentAccount(store, id);
        if (found === undefined) throw notFound();
        const { transactions, links } = accountTransactions(store, id, request);
        return jsonAnswer({ ...accountView(found.row, found.balance), transactions, links });
      },
    }),
  ];
}

type FoundAccount = { row: AccountRow; balance: BalanceView };

function currentAccount(store: ReadStore, id: bigint): FoundAccount | undefined {
  const row = store.accounts.findAccount(id);
  if (row === undefined) return undefined;
  const hbar = store.accounts.currentHbar(id, row.created_ns);
  const tokens = store.accounts.tokenBalances(id, null, "asc", ACCOUNT_TOKEN_BALANCES);
  return { row, balance: balanceView(hbar, hbar.changedNs, tokens) };
}

/**
 * The account as of the `timestamp` filters: the newest version the range overlaps, and the balances at the
 * newest ledger instant S the filters admit (`eq` read as `lte`, `ne` instants skipped), reported with
 * `timestamp` S. Without such an instant, upstream falls back to the balance the chosen version itself holds
 * (the current balance for the current version, the balance when it was closed for an older one), without
 * token balances.
 */
function accountAsOf(store: ReadStore, id: bigint, request: AccountRequest): FoundAccount | undefined {
  const { lower, upper, eq, ne } = request.timestamps;
  const row = store.accounts.findAccount(id, { lower, upper, atOrBefore: eq, excluded: ne });
  if (row === undefined) return undefined;
  let snapshotUpper = upper ?? MAX_INT64;
  for (const value of eq) if (value < snapshotUpper) snapshotUpper = value;
  const instant = store.accounts.ledgerInstant(lower ?? 0n, snapshotUpper, ne);
  if (instant !== null) {
    const hbar = store.accounts.hbarAt(id, instant, row.created_ns);
    const tokens = store.accounts.tokenBalances(id, instant, "asc", ACCOUNT_TOKEN_BALANCES);
    return { row, balance: balanceView(hbar, instant, tokens) };
  }
  const hbar: HbarBalance =
    row.valid_to === null
      ? store.accounts.currentHbar(id, row.created_ns)
      : store.accounts.hbarAt(id, row.valid_to - 1n, row.created_ns);
  return { row, balance: balanceView(hbar, hbar.changedNs, []) };
}

/**
 * `GET /api/v1/balances` (upstream `rest/balances.js`). Without `timestamp`, current balances, and `timestamp`
 * is the newest last change among the page's balances. With `timestamp`, mirrorlite answers exactly at the
 * newest ledger instant S the filters admit (the starting state's instant or an indexed transaction's), where
 * upstream uses its newest 15-minute snapshot; `timestamp` is S. No instant, or no row: an empty page.
 */
import { formatEntityId } from "../../ids.ts";
import { formatTimestamp } from "../../time.ts";
import { findAccountRef } from "../account-ref.ts";
import { type BalancesRequest, parseBalancesRequest } from "../params/balances.ts";
import { nextLink, unwrapParams } from "../params/index.ts";
import { accountBalanceView } from "../views/balances.ts";
import { LIST_TOKEN_BALANCES } from "./accounts.ts";
import { defineRoute, jsonAnswer, type RouteDef } from "./route-table.ts";

const EMPTY = { timestamp: null, balances: [], links: { next: null } };

export function balanceRoutes(): RouteDef[] {
  return [
    defineRoute<BalancesRequest>({
      template: "/api/v1/balances",
      caching: "stale-ok",
      maxAge: 1,
      parse: ({ url }) => unwrapParams(parseBalancesRequest(url)),
      answer: (store, request) => {
        let atNs: bigint | null = null;
        if (request.timestamp !== null) {
          const { lower, upper, excluded, empty } = request.timestamp;
          atNs = empty ? null : store.accounts.ledgerInstant(lower, upper, excluded);
          if (atNs === null) return jsonAnswer(EMPTY);
        }
        const rows = store.accounts.listBalances({
          ids: request.ids.map((ref) => findAccountRef(store, ref)),
          idConditions: request.idConditions,
          balances: request.balances,
          publicKeys: request.publicKeys,
          order: request.order,
          limit: request.limit,
          atNs,
        });
        if (rows.length === 0) return jsonAnswer(EMPTY);
        let timestampNs = atNs;
        if (timestampNs === null) {
          for (const { hbar } of rows) {
            if (hbar.changedNs !== null && (timestampNs === null || hbar.changedNs > timestampNs)) {
              timestampNs = hbar.changedNs;
            }
          }
        }
        const balances = rows.map((row) =>
          accountBalanceView(
            row.account_id,
            row.hbar.balance,
            store.accounts.tokenBalances(row.account_id, atNs, request.order, LIST_TOKEN_BALANCES),
          ),
        );
        const last = rows.at(-1);
        const next = nextLink(
          request.paging,
          rows.length,
          last && (formatEntityId(last.account_id) ?? undefined),
        );
        return jsonAnswer({
          timestamp: timestampNs === null ? null : formatTimestamp(timestampNs),
          balances,
          links: { next },
        });
      },
    }),
  ];
}

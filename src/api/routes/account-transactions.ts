/**
 * The `transactions` and `links` of `GET /api/v1/accounts/{id}`: the page `/api/v1/transactions?account.id=`
 * would give, with the account's `timestamp`, `transactiontype`, `limit` and `order`.
 *
 * TEMPORARY: waits for the transactions group's list query and renderer (branch `tx`); until then the list is
 * empty. Not done until it is wired.
 */
import type { ReadStore } from "../../store/read-store.ts";
import type { AccountRequest } from "../params/accounts.ts";

export type AccountTransactions = { transactions: unknown[]; links: { next: string | null } };

export function accountTransactions(
  _store: ReadStore,
  _id: bigint,
  _request: AccountRequest,
): AccountTransactions {
  return { transactions: [], links: { next: null } };
}

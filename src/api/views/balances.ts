/** Rows of `GET /api/v1/balances` (upstream `formatBalancesResult` in `rest/balances.js`). */
import { formatEntityId } from "../../ids.ts";
import type { TokenBalanceRow } from "../../store/accounts.ts";
import { tokenBalanceView } from "./accounts.ts";

export function accountBalanceView(accountId: bigint, balance: bigint, tokens: readonly TokenBalanceRow[]) {
  return { account: formatEntityId(accountId), balance, tokens: tokens.map(tokenBalanceView) };
}

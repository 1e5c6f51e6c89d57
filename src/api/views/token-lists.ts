import { formatEntityId } from "../../ids.ts";
import type { BalanceRow } from "../../store/balances.ts";
import type { TokenListRow } from "../../store/token-lists.ts";
import { keyView } from "./keys.ts";
import { base64 } from "./token-info.ts";

/** One token of `GET /api/v1/tokens`, fields in the mirror node's order (`decimals` is a number here). */
export function tokenListItemView(row: TokenListRow) {
  return {
    admin_key: keyView(row.key),
    metadata: base64(row.metadata),
    name: row.name,
    symbol: row.symbol,
    token_id: formatEntityId(row.id),
    type: row.type,
    decimals: row.decimals,
  };
}

/** One holder of `GET /api/v1/tokens/{tokenId}/balances`. */
export function tokenBalanceView(row: BalanceRow) {
  return { account: formatEntityId(row.account_id), balance: row.balance, decimals: row.decimals };
}

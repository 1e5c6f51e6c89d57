/**
 * Request parsing for `GET /api/v1/tokens/{tokenId}/balances`, reproducing `getTokenBalances` in
 * `rest/tokens.js` (validated by the shared `filterValidityChecks` of `rest/utils.js`): the path first, then
 * `account.id`, `account.balance`, `account.publickey` (last one wins, operator ignored), `timestamp`,
 * `limit` and `order` (default desc). Pages on `account.id`.
 */
import { type ParamResult, succeed } from "./errors.ts";
import { type Comparison, limitAndOrder, type Order } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import {
  accountBalanceSpec,
  accountIdSpec,
  limitSpec,
  orderSpec,
  publicKeySpec,
  timestampSpec,
} from "./param-specs.ts";
import { parseTokenIdPathParam } from "./path-params.ts";
import { pagingFor, readPathAndQuery } from "./request.ts";

/** Accepted query parameters of `GET /api/v1/tokens/{tokenId}/balances`. */
export function tokenBalancesSpec(options: ParamOptions) {
  return {
    "account.balance": accountBalanceSpec,
    "account.id": accountIdSpec(options),
    "account.publickey": publicKeySpec,
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    timestamp: timestampSpec,
  };
}

/** `GET /api/v1/tokens/{tokenId}/balances`. */
export interface TokenBalancesRequest {
  readonly tokenId: bigint;
  /** Conditions on the account ID; a null value (a non-long-zero EVM address) matches nothing. */
  readonly accountIds: readonly Comparison<bigint | null>[];
  readonly balances: readonly Comparison<bigint>[];
  /** The last `account.publickey`, normalized; its operator is ignored. */
  readonly publicKey: string | null;
  /** Snapshot selection conditions, operators as given (upstream treats `eq` as `lte`). */
  readonly timestamps: readonly Comparison<bigint>[];
  readonly limit: number;
  /** Sort order of the account ID. */
  readonly order: Order;
  readonly paging: PagingContext;
}

/** Parses `GET /api/v1/tokens/{tokenId}/balances`; `url` is `req.originalUrl`. */
export function parseTokenBalancesRequest(
  params: { readonly tokenId: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TokenBalancesRequest> {
  const read = readPathAndQuery(
    url,
    options,
    (opts) => parseTokenIdPathParam(params.tokenId, opts),
    tokenBalancesSpec,
  );
  if (!read.ok) return read;
  const { request, path: tokenId, filters } = read.value;
  const opts = request.options;

  const accountIds: Comparison<bigint | null>[] = [];
  const balances: Comparison<bigint>[] = [];
  const timestamps: Comparison<bigint>[] = [];
  let publicKey: string | null = null;
  for (const filter of filters) {
    switch (filter.key) {
      case "account.id":
        accountIds.push({ op: filter.op, value: filter.value });
        break;
      case "account.balance":
        balances.push({ op: filter.op, value: filter.value });
        break;
      case "account.publickey":
        publicKey = filter.value;
        break;
      case "timestamp":
        timestamps.push({ op: filter.op, value: filter.value });
        break;
    }
  }
  const { limit, order } = limitAndOrder(filters, opts.defaultLimit, "desc");
  const paging = pagingFor(request, "account.id", order, limit);
  return succeed({
    tokenId,
    accountIds,
    balances,
    publicKey,
    timestamps,
    limit,
    order,
    paging,
  });
}

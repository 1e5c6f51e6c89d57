/**
 * Query parameters of `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/crypto` (upstream
 * `CryptoAllowanceController`) and `/allowances/tokens` (`TokenAllowanceController`).
 *
 * - `/crypto`: `limit`, `order` (default desc), `spender.id` (equalities one IN list, other operators ANDed,
 *   `ne` refused); pages on `spender.id`.
 * - `/tokens`: `limit`, `order` (default asc), `spender.id` and `token.id` paired (paired-bounds.ts); pages on
 *   both keys.
 */
import {
  type AccountSubRequest,
  accountPaging,
  entityTokenIdSpec,
  fail,
  readAccountSubRequest,
  readSingleKeyList,
  succeed,
  withFilters,
} from "./account-relations.ts";
import type { ParamResult } from "./errors.ts";
import { type Comparison, limitAndOrder, type Order } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import {
  addToBound,
  emptyBound,
  type KeyBound,
  type PairedParts,
  pairedParts,
  validatePair,
} from "./paired-bounds.ts";
import { accountIdSpec, limitSpec, orderSpec } from "./param-specs.ts";

export function cryptoAllowancesSpec(options: ParamOptions) {
  return { limit: limitSpec(options.maxLimit), order: orderSpec, "spender.id": accountIdSpec(options) };
}

export function tokenAllowancesSpec(options: ParamOptions) {
  return {
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    "spender.id": accountIdSpec(options),
    "token.id": entityTokenIdSpec(options),
  };
}

export type CryptoAllowancesQuery = {
  readonly spenderIds: (bigint | null)[];
  readonly spenderConditions: Comparison<bigint | null>[];
  readonly order: Order;
  readonly limit: number;
  readonly paging: PagingContext;
};

export type TokenAllowancesQuery = {
  readonly spenders: KeyBound<bigint | null>;
  readonly tokens: KeyBound<bigint | null>;
  readonly parts: PairedParts<bigint | null>;
  readonly order: Order;
  readonly limit: number;
  readonly paging: PagingContext;
};

export function parseCryptoAllowancesRequest(
  idText: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<AccountSubRequest<CryptoAllowancesQuery>> {
  return readAccountSubRequest(url, idText, options, (request) =>
    withFilters(request, cryptoAllowancesSpec(request.options), (filters) => {
      const list = readSingleKeyList<bigint | null>(
        request,
        filters,
        "spender.id",
        "Not equal (ne) comparison operator is not supported for spender.id",
        "desc",
      );
      if (!list.ok) return list;
      const { values, conditions, order, limit, paging } = list.value;
      return succeed({ spenderIds: values, spenderConditions: conditions, order, limit, paging });
    }),
  );
}

export function parseTokenAllowancesRequest(
  idText: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<AccountSubRequest<TokenAllowancesQuery>> {
  return readAccountSubRequest(url, idText, options, (request) =>
    withFilters(request, tokenAllowancesSpec(request.options), (filters) => {
      const spenders = emptyBound<bigint | null>("spender.id");
      const tokens = emptyBound<bigint | null>("token.id");
      for (const filter of filters) {
        let problem: string | null = null;
        if (filter.key === "spender.id") problem = addToBound(spenders, filter);
        else if (filter.key === "token.id") problem = addToBound(tokens, filter);
        if (problem !== null) return fail([problem]);
      }
      const problem = validatePair(spenders, tokens);
      if (problem !== null) return fail([problem]);
      const { limit, order } = limitAndOrder(filters, request.options.defaultLimit, "asc");
      return succeed({
        spenders,
        tokens,
        parts: pairedParts(spenders, tokens),
        order,
        limit,
        paging: accountPaging(request, "spender.id", order, limit),
      });
    }),
  );
}

/**
 * Query parameters of `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/tokens` (upstream
 * `TokenController.getTokenRelationships`) and `/nfts` (`AccountController.getNftsByAccountId`).
 *
 * - `/tokens`: `limit`, `order` (default asc), `token.id` (equalities one IN list, other operators ANDed, `ne`
 *   refused); pages on `token.id`.
 * - `/nfts`: `limit`, `order` (default desc), `token.id` and `serialnumber` paired (paired-bounds.ts),
 *   `spender.id` (equalities one IN list; at most one lower and one upper bound; no `ne`); pages on both keys.
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
import { accountIdSpec, limitSpec, orderSpec, serialNumberSpec } from "./param-specs.ts";

export function accountTokensSpec(options: ParamOptions) {
  return { limit: limitSpec(options.maxLimit), order: orderSpec, "token.id": entityTokenIdSpec(options) };
}

export function accountNftsSpec(options: ParamOptions) {
  return {
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    serialnumber: serialNumberSpec,
    "spender.id": accountIdSpec(options),
    "token.id": entityTokenIdSpec(options),
  };
}

export type AccountTokensQuery = {
  readonly tokenIds: bigint[];
  readonly tokenConditions: Comparison<bigint>[];
  readonly order: Order;
  readonly limit: number;
  readonly paging: PagingContext;
};

export type AccountNftsQuery = {
  readonly tokens: KeyBound<bigint>;
  readonly serials: KeyBound<bigint>;
  readonly parts: PairedParts<bigint>;
  readonly spenderIds: (bigint | null)[];
  readonly spenderConditions: Comparison<bigint | null>[];
  readonly order: Order;
  readonly limit: number;
  readonly paging: PagingContext;
};

export function parseAccountTokensRequest(
  idText: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<AccountSubRequest<AccountTokensQuery>> {
  return readAccountSubRequest(url, idText, options, (request) =>
    withFilters(request, accountTokensSpec(request.options), (filters) => {
      const list = readSingleKeyList<bigint>(
        request,
        filters,
        "token.id",
        "Not equal (ne) comparison operator is not supported for token.id",
        "asc",
      );
      if (!list.ok) return list;
      const { values, conditions, order, limit, paging } = list.value;
      return succeed({ tokenIds: values, tokenConditions: conditions, order, limit, paging });
    }),
  );
}

export function parseAccountNftsRequest(
  idText: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<AccountSubRequest<AccountNftsQuery>> {
  return readAccountSubRequest(url, idText, options, (request) =>
    withFilters(request, accountNftsSpec(request.options), (filters) => {
      const tokens = emptyBound<bigint>("token.id");
      const serials = emptyBound<bigint>("serialnumber");
      const spenderIds: (bigint | null)[] = [];
      const spenderConditions: Comparison<bigint | null>[] = [];
      for (const filter of filters) {
        let problem: string | null = null;
        if (filter.key === "token.id") problem = addToBound(tokens, filter);
        else if (filter.key === "serialnumber") problem = addToBound(serials, filter);
        else if (filter.key === "spender.id") {
          if (filter.op === "eq") spenderIds.push(filter.value);
          else spenderConditions.push({ op: filter.op, value: filter.value });
        }
        if (problem !== null) return fail([problem]);
      }
      const problem = validatePair(tokens, serials) ?? validateSpenders(spenderConditions);
      if (problem !== null) return fail([problem]);
      const { limit, order } = limitAndOrder(filters, request.options.defaultLimit, "desc");
      return succeed({
        tokens,
        serials,
        parts: pairedParts(tokens, serials),
        spenderIds,
        spenderConditions,
        order,
        limit,
        paging: accountPaging(request, "token.id", order, limit),
      });
    }),
  );
}

/** Upstream `AccountController.validateFilters` on the `spender.id` ranges. */
function validateSpenders(conditions: readonly Comparison<unknown>[]): string | null {
  const count = (ops: string[]) => conditions.filter((c) => ops.includes(c.op)).length;
  if (count(["lt", "lte"]) > 1 || count(["gt", "gte"]) > 1)
    return "Multiple range params not allowed for spender.id";
  if (count(["ne"]) > 0) return "Not equals (ne) comparison operator is not supported";
  return null;
}

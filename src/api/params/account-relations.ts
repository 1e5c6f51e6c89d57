/**
 * The first step shared by the account sub-resources of the Node service (`/accounts/{id}/tokens`, `/nfts`,
 * `/rewards`, `/allowances/crypto`, `/allowances/tokens`): the query string is parsed (a parser failure is
 * the only message), then `{idOrAliasOrEvmAddress}` is read (a bad one fails alone). Everything the query's
 * values decide is kept as a result, not thrown: upstream resolves the path to an account (its 404s) and, for
 * some routes, checks the account exists (404) before it looks at the query's values, and those steps need the
 * index, so they run where the index is read, and the query's 400 follows them there.
 */
import type { AccountRef } from "../../store/account-lookup.ts";
import { parseAccountPathParam } from "./account-path.ts";
import { isValidEntityId, parseEntityIdString, type ShardRealm } from "./entity-id.ts";
import { fail, type ParamResult, succeed } from "./errors.ts";
import {
  always,
  type Comparison,
  type EndpointSpec,
  type FilterOf,
  limitAndOrder,
  type Operator,
  type Order,
  type ParamSpec,
  validateFilters,
} from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { type RequestParts, readRequest } from "./request.ts";

/** A request to an account sub-resource: the account as named, and the query's verdict. */
export type AccountSubRequest<Q> = { readonly account: AccountRef; readonly query: ParamResult<Q> };

/** Reads the query string and the path (both may throw their 400), then applies `readQuery` (kept as a result). */
export function readAccountSubRequest<Q>(
  url: string,
  idText: string,
  options: Partial<ParamOptions>,
  readQuery: (request: RequestParts) => ParamResult<Q>,
): ParamResult<AccountSubRequest<Q>> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const account = parseAccountPathParam(idText, request.value.options);
  if (!account.ok) return account;
  return succeed({ account: account.value, query: readQuery(request.value) });
}

/** Validates the query against `spec` and hands the filters on (upstream `buildAndValidateFilters`). */
export function withFilters<S extends EndpointSpec, Q>(
  request: RequestParts,
  spec: S,
  read: (filters: FilterOf<S>[]) => ParamResult<Q>,
): ParamResult<Q> {
  const filters = validateFilters(request.query, spec, request.options.maxRepeatedQueryParameters);
  return filters.ok ? read(filters.value) : filters;
}

/**
 * `token.id` as the shared validators read it on these routes: any entity ID or EVM address passes the syntax
 * check; conversion accepts only IDs and long-zero addresses (`Invalid entity ID "<value>"` otherwise).
 */
export function entityTokenIdSpec(config: ShardRealm): ParamSpec<bigint> {
  return {
    isValid: (_op, value) => isValidEntityId(value),
    convert: (value) => {
      const parsed = parseEntityIdString(value, "num-alias", config);
      if (parsed.ok && parsed.id.kind === "id") return always(parsed.id.encoded);
      return { ok: false, message: `Invalid entity ID "${parsed.ok ? value : parsed.expanded}"` };
    },
  };
}

/** Equalities as one IN list, the other conditions apart (upstream's `updateConditionsAndParamsWithInValues`). */
export function splitEqualities<V>(conditions: readonly Comparison<V>[]): {
  values: V[];
  conditions: Comparison<V>[];
} {
  return {
    values: conditions.filter((c) => c.op === "eq").map((c) => c.value),
    conditions: conditions.filter((c) => c.op !== "eq"),
  };
}

/**
 * A list paged on one key (`/tokens` on `token.id`, `/rewards` on `timestamp`, `/allowances/crypto` on
 * `spender.id`): that key's conditions with `ne` refused (`neMessage`), equalities as one IN list, then `limit`,
 * `order` and the paging context.
 */
export function readSingleKeyList<V>(
  request: RequestParts,
  filters: readonly { readonly key: string; readonly op: Operator; readonly value: unknown }[],
  key: PagingContext["anchor"] & string,
  neMessage: string,
  defaultOrder: Order,
): ParamResult<{
  values: V[];
  conditions: Comparison<V>[];
  order: Order;
  limit: number;
  paging: PagingContext;
}> {
  const comparisons: Comparison<V>[] = [];
  for (const filter of filters) {
    if (filter.key !== key) continue;
    if (filter.op === "ne") return fail([neMessage]);
    comparisons.push({ op: filter.op, value: filter.value as V });
  }
  const { limit, order } = limitAndOrder(filters, request.options.defaultLimit, defaultOrder);
  const { values, conditions } = splitEqualities(comparisons);
  return succeed({ values, conditions, order, limit, paging: accountPaging(request, key, order, limit) });
}

/** The paging context of an account sub-resource list. */
export function accountPaging(
  request: RequestParts,
  anchor: PagingContext["anchor"],
  order: Order,
  limit: number,
): PagingContext {
  const { shard, realm } = request.options;
  return { path: request.path, query: request.query, anchor, order, limit, shard, realm };
}

export { fail, succeed };

/**
 * Request parsing for `GET /api/v1/contracts` and `GET /api/v1/contracts/{contractIdOrAddress}`
 * (contracts.md §1.3, §2.1, §2.2), and the `{contractIdOrAddress}` path parameter every contract route shares:
 * - `{contractIdOrAddress}`: `num`, `realm.num`, `shard.realm.num`, or a 40-hex EVM address with `0x` or an
 *   optional `shard.`/`realm.` prefix; anything else (or an ID past its bit limits) is
 *   `Invalid parameter: contractid`, checked before the query.
 * - `/contracts`: `contract.id` (`eq` values an IN list, others ANDed), `limit`, `order` (default desc); pages
 *   link on `contract.id`.
 * - `/contracts/{id}`: `timestamp` only (each value ANDed).
 */

import { type ContractRef, contractIdSpec, readContractRef } from "./contract-specs.ts";
import { isValidEntityId, isValidEvmAddress } from "./entity-id.ts";
import { fail, invalidParameter, type ParamResult, succeed } from "./errors.ts";
import { type Comparison, limitAndOrder, type Order, validateFilters } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";
import { pagingFor, readPathAndQuery, readRequest } from "./request.ts";

export type { ContractRef };

/** The path parameter's name, as upstream's message spells it. */
export const CONTRACT_PATH_PARAM = "contractid";

/** Reads `{contractIdOrAddress}` (upstream `validateContractIdParam`, then `computeContractIdFromString`). */
export function parseContractPathParam(value: string, options: ParamOptions): ParamResult<ContractRef> {
  if (!isValidEvmAddress(value) && !isValidEntityId(value))
    return fail([invalidParameter(CONTRACT_PATH_PARAM)]);
  const ref = readContractRef(value, options);
  return ref === null ? fail([invalidParameter(CONTRACT_PATH_PARAM)]) : succeed(ref);
}

/** Accepted query parameters of `GET /api/v1/contracts`. */
export function contractsSpec(options: ParamOptions) {
  return { "contract.id": contractIdSpec(options), limit: limitSpec(options.maxLimit), order: orderSpec };
}

/** `GET /api/v1/contracts`. */
export type ContractsRequest = {
  /** `eq` values: the contract must be one of them (none: no such condition). */
  readonly idsIn: readonly ContractRef[];
  /** Other conditions on the contract ID, ANDed. */
  readonly idConditions: readonly Comparison<ContractRef>[];
  readonly limit: number;
  readonly order: Order;
  readonly paging: PagingContext;
};

/** Parses `GET /api/v1/contracts`; `url` is the request's path and query. */
export function parseContractsRequest(
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractsRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const validated = validateFilters(
    request.value.query,
    contractsSpec(opts),
    opts.maxRepeatedQueryParameters,
  );
  if (!validated.ok) return validated;
  const idsIn: ContractRef[] = [];
  const idConditions: Comparison<ContractRef>[] = [];
  for (const filter of validated.value) {
    if (filter.key !== "contract.id") continue;
    if (filter.op === "eq") idsIn.push(filter.value);
    else idConditions.push({ op: filter.op, value: filter.value });
  }
  const { limit, order } = limitAndOrder(validated.value, opts.defaultLimit, "desc");
  return succeed({
    idsIn,
    idConditions,
    limit,
    order,
    paging: pagingFor(request.value, "contract.id", order, limit),
  });
}

/** `GET /api/v1/contracts/{contractIdOrAddress}`. */
export type ContractRequest = {
  readonly contract: ContractRef;
  /** Conditions on the version's validity range (contracts.md §2.2); none: the current version. */
  readonly timestamps: readonly Comparison<bigint>[];
};

/** Parses `GET /api/v1/contracts/{contractIdOrAddress}`: the path, then the query. */
export function parseContractRequest(
  contractIdOrAddress: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractRequest> {
  const read = readPathAndQuery(
    url,
    options,
    (opts) => parseContractPathParam(contractIdOrAddress, opts),
    () => ({ timestamp: timestampSpec }),
  );
  if (!read.ok) return read;
  const timestamps = read.value.filters.map((f) => ({ op: f.op, value: f.value }));
  return succeed({ contract: read.value.path, timestamps });
}

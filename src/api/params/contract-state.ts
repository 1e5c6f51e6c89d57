/**
 * Request parsing for `GET /api/v1/contracts/{contractIdOrAddress}/state` (contracts.md §6.2): the path, then
 * `limit`, `order` (default asc), `slot` (1-64 hex digits, optional `0x`, no `ne`; `eq` values an IN list) and
 * `timestamp` (`eq` read as `lte`). A `ne` timestamp is refused only after the contract is resolved, so it is
 * carried as `timestampProblem`. Pages link on `slot`.
 */

import { slotSpec } from "./contract-specs.ts";
import { type ContractRef, parseContractPathParam } from "./contracts.ts";
import { type ParamResult, succeed } from "./errors.ts";
import type { Comparison, Order } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";
import { pagingFor, readPathAndQuery } from "./request.ts";

export type ContractStateRequest = {
  readonly contract: ContractRef;
  /** Slot values, lower-case hex without `0x` as given (the store pads or trims them for the table it reads). */
  readonly slotsIn: readonly string[];
  readonly slotConditions: readonly Comparison<string>[];
  /** Conditions on the change's consensus time (`eq` already turned into `lte`); none: the current state. */
  readonly timestamps: readonly Comparison<bigint>[];
  readonly timestampProblem: string | null;
  readonly limit: number;
  readonly order: Order;
  readonly paging: PagingContext;
};

/** Parses `GET /api/v1/contracts/{contractIdOrAddress}/state`. */
export function parseContractStateRequest(
  contractIdOrAddress: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractStateRequest> {
  const read = readPathAndQuery(
    url,
    options,
    (opts) => parseContractPathParam(contractIdOrAddress, opts),
    (opts) => ({
      limit: limitSpec(opts.maxLimit),
      order: orderSpec,
      slot: slotSpec,
      timestamp: timestampSpec,
    }),
  );
  if (!read.ok) return read;
  const slotsIn: string[] = [];
  const slotConditions: Comparison<string>[] = [];
  const timestamps: Comparison<bigint>[] = [];
  let timestampProblem: string | null = null;
  let limit = read.value.request.options.defaultLimit;
  let order: Order = "asc";
  for (const filter of read.value.filters) {
    switch (filter.key) {
      case "slot":
        if (filter.op === "eq") slotsIn.push(filter.value);
        else slotConditions.push({ op: filter.op, value: filter.value });
        break;
      case "timestamp":
        if (filter.op === "ne")
          timestampProblem ??= "Not equals (ne) operator is not supported for timestamp";
        timestamps.push({ op: filter.op === "eq" ? "lte" : filter.op, value: filter.value });
        break;
      case "limit":
        limit = filter.value;
        break;
      case "order":
        order = filter.value;
        break;
    }
  }
  return succeed({
    contract: read.value.path,
    slotsIn,
    slotConditions,
    timestamps,
    timestampProblem,
    limit,
    order,
    paging: pagingFor(read.value.request, "slot", order, limit),
  });
}

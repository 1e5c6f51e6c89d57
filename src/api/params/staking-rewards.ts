/**
 * Query parameters of `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/rewards` (upstream
 * `AccountController.listStakingRewardsByAccountId`): `limit`, `order` (default desc), `timestamp` (equalities
 * one IN list, other operators ANDed, `ne` refused). Pages on `timestamp`.
 */
import {
  type AccountSubRequest,
  readAccountSubRequest,
  readSingleKeyList,
  succeed,
  withFilters,
} from "./account-relations.ts";
import type { ParamResult } from "./errors.ts";
import type { Comparison, Order } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";

export function stakingRewardsSpec(options: ParamOptions) {
  return { limit: limitSpec(options.maxLimit), order: orderSpec, timestamp: timestampSpec };
}

export type StakingRewardsQuery = {
  readonly timestamps: bigint[];
  readonly timestampConditions: Comparison<bigint>[];
  readonly order: Order;
  readonly limit: number;
  readonly paging: PagingContext;
};

export function parseStakingRewardsRequest(
  idText: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<AccountSubRequest<StakingRewardsQuery>> {
  return readAccountSubRequest(url, idText, options, (request) =>
    withFilters(request, stakingRewardsSpec(request.options), (filters) => {
      const list = readSingleKeyList<bigint>(
        request,
        filters,
        "timestamp",
        "Not equals (ne) operator is not supported for timestamp",
        "desc",
      );
      if (!list.ok) return list;
      const { values, conditions, order, limit, paging } = list.value;
      return succeed({ timestamps: values, timestampConditions: conditions, order, limit, paging });
    }),
  );
}

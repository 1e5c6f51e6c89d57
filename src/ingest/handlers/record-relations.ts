import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { applyApprovedSpends } from "./allowance.ts";
import type { HandlerContext } from "./context.ts";

/**
 * What any record may carry for the account relations, whatever its transaction type: staking reward payouts
 * (every record, failed ones too, as upstream inserts them before looking at the status) and approved spends
 * of allowances (`applyApprovedSpends`).
 */
export function applyRecordRelations(ctx: HandlerContext): void {
  const { item, store } = ctx;
  for (const reward of item.record.paidStakingRewards ?? []) {
    const accountId = entityIdOf(reward.accountID);
    if (accountId === null) continue;
    store.accountRelations.insertStakingReward(
      accountId,
      item.consensusNs,
      toBigInt(reward.amount),
      item.payerId,
    );
  }
  const tokenListsApply = item.successful || item.status === proto.ResponseCodeEnum.FAIL_INVALID;
  applyApprovedSpends(ctx, tokenListsApply);
}

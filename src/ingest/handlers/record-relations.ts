import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { RECORD_PARTS } from "../../streams/record-fields.ts";
import { applyApprovedSpends } from "./allowance.ts";
import type { HandlerContext } from "./context.ts";

/**
 * What any record may carry for the account relations, whatever its transaction type: staking reward payouts
 * (every record, failed ones too, as upstream inserts them before looking at the status) and approved spends
 * of allowances (`applyApprovedSpends`).
 */
export function applyRecordRelations(ctx: HandlerContext): void {
  const { item, store } = ctx;
  const rewards =
    (item.recordFields.parts & RECORD_PARTS.paidStakingRewards) === 0 ? null : item.record.paidStakingRewards;
  for (const reward of rewards ?? []) {
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

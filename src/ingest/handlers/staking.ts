/**
 * Staking fields of accounts: the election's start day, and the payout rule of upstream's
 * `SqlEntityListener.onStakingRewardTransfer`.
 */
import { entityIdOf } from "../../ids.ts";
import { RECORD_PARTS } from "../../streams/record-fields.ts";
import type { HandlerContext } from "./context.ts";

/** `staked_node_id` of an account staked to no node. */
export const NO_NODE = -1n;
/** `stake_period_start` of an account that never elected to stake. */
export const NO_STAKE_PERIOD = -1n;

const NS_PER_DAY = 86_400_000_000_000n;

/** Days since the epoch of a consensus instant (upstream `Utility.getEpochDay`). */
export function epochDay(consensusNs: bigint): bigint {
  return consensusNs / NS_PER_DAY;
}

/**
 * A paid staking reward (the record's `paid_staking_rewards`, paid with any transaction that changes the
 * account's stake, successful or not) restarts the account's staking period the day before, so that it earns
 * again when the day ends: `stake_period_start` becomes yesterday's epoch day when it was unset or earlier, as a
 * new version of the account. Accounts the mirror has no version of are left alone (upstream writes a row of
 * unknown type for them, which no endpoint shows).
 */
export function applyPaidStakingRewards({ item, store }: HandlerContext): void {
  // Most records pay none: only those that do are decoded whole.
  if ((item.recordFields.parts & RECORD_PARTS.paidStakingRewards) === 0) return;
  const rewards = item.record.paidStakingRewards;
  if (rewards == null || rewards.length === 0) return;
  const start = epochDay(item.consensusNs) - 1n;
  for (const reward of rewards) {
    const accountId = entityIdOf(reward.accountID);
    if (accountId === null) continue;
    const current = store.entity.current([accountId]);
    if (current === undefined) continue;
    const period = current.stake_period_start as bigint | null;
    if (period === null || period < start) {
      store.entity.change([accountId], item.consensusNs, { stake_period_start: start });
    }
  }
}

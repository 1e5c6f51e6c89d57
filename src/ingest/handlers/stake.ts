/**
 * NodeStakeUpdate: one network-wide row and one row per listed node (api.md §3.7, §5.2). `stake_total` is the
 * sum of every listed node's rewarded and unrewarded stake.
 */
import { toBigInt } from "../../streams/long.ts";
import { timestampToNs } from "../../time.ts";
import type { HandlerContext } from "./context.ts";

export function handleNodeStakeUpdate({ item, store }: HandlerContext): void {
  const body = item.body.nodeStakeUpdate!;
  const nodes = (body.nodeStake ?? []).map((n) => ({
    nodeId: toBigInt(n.nodeId),
    maxStake: toBigInt(n.maxStake),
    minStake: toBigInt(n.minStake),
    rewardRate: toBigInt(n.rewardRate),
    stake: toBigInt(n.stake),
    stakeNotRewarded: toBigInt(n.stakeNotRewarded),
    stakeRewarded: toBigInt(n.stakeRewarded),
  }));
  const stakeTotal = nodes.reduce((sum, n) => sum + n.stakeRewarded + n.stakeNotRewarded, 0n);
  store.network.insertStakeUpdate(
    {
      consensusNs: item.consensusNs,
      maxStakeRewarded: toBigInt(body.maxStakeRewarded),
      maxStakingRewardRatePerHbar: toBigInt(body.maxStakingRewardRatePerHbar),
      maxTotalReward: toBigInt(body.maxTotalReward),
      nodeRewardFeeNumerator: toBigInt(body.nodeRewardFeeFraction?.numerator),
      nodeRewardFeeDenominator: toBigInt(body.nodeRewardFeeFraction?.denominator),
      reservedStakingRewards: toBigInt(body.reservedStakingRewards),
      rewardBalanceThreshold: toBigInt(body.rewardBalanceThreshold),
      stakeTotal,
      stakingPeriodNs: timestampToNs(body.endOfStakingPeriod),
      stakingPeriodDuration: toBigInt(body.stakingPeriod),
      stakingPeriodsStored: toBigInt(body.stakingPeriodsStored),
      stakingRewardFeeNumerator: toBigInt(body.stakingRewardFeeFraction?.numerator),
      stakingRewardFeeDenominator: toBigInt(body.stakingRewardFeeFraction?.denominator),
      stakingRewardRate: toBigInt(body.stakingRewardRate),
      stakingStartThreshold: toBigInt(body.stakingStartThreshold),
      unreservedStakingRewardBalance: toBigInt(body.unreservedStakingRewardBalance),
    },
    nodes,
  );
}

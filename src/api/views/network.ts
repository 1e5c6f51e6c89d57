/**
 * Response shapes of the network group (api.md §3.3, §3.5, §3.6, §3.7). Field order is upstream's
 * (alphabetical); int64 values stay bigint.
 */
import { formatEntityId } from "../../ids.ts";
import type { NetworkNodeRow } from "../../store/network.ts";
import type { NetworkStakeRow, ServiceEndpointValue } from "../../store/network-writes.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { toJson } from "../json.ts";
import { javaFractionJson, javaTimestamp } from "./java-numbers.ts";
import { keyView } from "./keys.ts";

const NS_PER_SECOND = 1_000_000_000n;
const DAY_NS = 86_400n * NS_PER_SECOND;

type RateView = { cent_equivalent: number; expiration_time: bigint; hbar_equivalent: number };

function rateView(rate: proto.IExchangeRate | null | undefined): RateView {
  return {
    cent_equivalent: rate?.centEquiv ?? 0,
    expiration_time: toBigInt(rate?.expirationTime?.seconds),
    hbar_equivalent: rate?.hbarEquiv ?? 0,
  };
}

/** `GET /network/exchangerate`: an absent rate prints as zeros, as Java's default instance does. */
export function exchangeRateView(set: proto.IExchangeRateSet, consensusNs: bigint) {
  return {
    current_rate: rateView(set.currentRate),
    next_rate: rateView(set.nextRate),
    timestamp: javaTimestamp(consensusNs),
  };
}

/** The transaction types `/network/fees` reports, by HederaFunctionality. */
const GAS_TYPES = new Map<number, string>([
  [proto.HederaFunctionality.ContractCall, "ContractCall"],
  [proto.HederaFunctionality.ContractCreate, "ContractCreate"],
  [proto.HederaFunctionality.EthereumTransaction, "EthereumTransaction"],
]);

/** Fee-schedule values are in 1/1000 tinycent. */
const FEE_DIVISOR = 1000n;

/**
 * `GET /network/fees`: gas prices in tinybars from the schedule and rate in force at `referenceNs` (the next
 * ones once the current ones have expired), sorted by type (case-insensitively) in `order`.
 */
export function networkFeesView(
  schedules: proto.ICurrentAndNextFeeSchedule,
  rates: proto.IExchangeRateSet,
  referenceNs: bigint,
  scheduleNs: bigint,
  order: "asc" | "desc",
) {
  const current = schedules.currentFeeSchedule;
  const schedule =
    referenceNs > toBigInt(current?.expiryTime?.seconds) * NS_PER_SECOND
      ? schedules.nextFeeSchedule
      : current;
  const currentRate = rates.currentRate;
  const rate =
    referenceNs > toBigInt(currentRate?.expirationTime?.seconds) * NS_PER_SECOND
      ? rates.nextRate
      : currentRate;
  const hbars = BigInt(rate?.hbarEquiv ?? 0);
  const cents = BigInt(rate?.centEquiv ?? 0);
  const fees: Array<{ gas: bigint; transaction_type: string }> = [];
  for (const entry of schedule?.transactionFeeSchedule ?? []) {
    const type = GAS_TYPES.get(entry.hederaFunctionality ?? 0);
    const first = entry.fees?.[0];
    if (type === undefined || first === undefined || first.servicedata == null || cents === 0n) continue;
    const tinycents = toBigInt(first.servicedata.gas) / FEE_DIVISOR;
    const tinybars = (tinycents * hbars) / cents;
    fees.push({ gas: tinybars > 1n ? tinybars : 1n, transaction_type: type });
  }
  const ascending = (a: { transaction_type: string }, b: { transaction_type: string }) => {
    const x = a.transaction_type.toLowerCase();
    const y = b.transaction_type.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  };
  fees.sort(order === "asc" ? ascending : (a, b) => ascending(b, a));
  return { fees, timestamp: javaTimestamp(scheduleNs) };
}

/** `{from: period + 1 ns, to: from + 1 day}`, upstream's staking period range. */
function stakingPeriodView(periodNs: bigint) {
  const from = periodNs + 1n;
  return { from: javaTimestamp(from), to: javaTimestamp(from + DAY_NS) };
}

/**
 * `GET /network/stake` as JSON text: the two fee fractions are Java floats (`1.0`, `0.33333334`), which a
 * JSON number of JavaScript cannot spell, so the body is written field by field.
 */
export function networkStakeJson(row: NetworkStakeRow): string {
  const fields: Array<[string, string]> = [
    ["max_stake_rewarded", toJson(row.maxStakeRewarded)],
    ["max_staking_reward_rate_per_hbar", toJson(row.maxStakingRewardRatePerHbar)],
    ["max_total_reward", toJson(row.maxTotalReward)],
    ["node_reward_fee_fraction", javaFractionJson(row.nodeRewardFeeNumerator, row.nodeRewardFeeDenominator)],
    ["reserved_staking_rewards", toJson(row.reservedStakingRewards)],
    ["reward_balance_threshold", toJson(row.rewardBalanceThreshold)],
    ["stake_total", toJson(row.stakeTotal)],
    ["staking_period", toJson(stakingPeriodView(row.stakingPeriodNs))],
    ["staking_period_duration", toJson(row.stakingPeriodDuration)],
    ["staking_periods_stored", toJson(row.stakingPeriodsStored)],
    [
      "staking_reward_fee_fraction",
      javaFractionJson(row.stakingRewardFeeNumerator, row.stakingRewardFeeDenominator),
    ],
    ["staking_reward_rate", toJson(row.stakingRewardRate)],
    ["staking_start_threshold", toJson(row.stakingStartThreshold)],
    ["unreserved_staking_reward_balance", toJson(row.unreservedStakingRewardBalance)],
  ];
  return `{${fields.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(",")}}`;
}

/** Hex text stored as UTF-8 (certificate hash, RSA key) with upstream's `0x` rules. */
function hexText(text: string | null): string {
  if (text === null || text === "") return "0x";
  return text.startsWith("0x") ? text : `0x${text}`;
}

function endpointView(endpoint: ServiceEndpointValue): ServiceEndpointValue {
  return {
    domain_name: endpoint.domain_name ?? "",
    ip_address_v4: endpoint.ip_address_v4 ?? "",
    port: endpoint.port ?? 0,
  };
}

/** Service endpoints sorted by IPv4 text, then port. */
function sortedEndpoints(endpoints: readonly ServiceEndpointValue[]): ServiceEndpointValue[] {
  return endpoints.map(endpointView).sort((a, b) => {
    if (a.ip_address_v4 !== b.ip_address_v4) return a.ip_address_v4 < b.ip_address_v4 ? -1 : 1;
    return a.port - b.port;
  });
}

/** −1 means "not set" for some stake values; upstream prints null. */
const unlessUnset = (value: bigint) => (value === -1n ? null : value);

/** One item of `GET /network/nodes`. */
export function networkNodeView(row: NetworkNodeRow) {
  const stake = row.stake;
  return {
    admin_key: row.hasNode ? keyView(row.adminKey) : null,
    associated_registered_nodes: row.associatedRegisteredNodes,
    decline_reward: row.declineReward,
    description: row.description,
    file_id: formatEntityId(row.fileId),
    grpc_proxy_endpoint: row.grpcProxyEndpoint === null ? null : endpointView(row.grpcProxyEndpoint),
    max_stake: stake === null ? null : unlessUnset(stake.maxStake),
    memo: row.memo,
    min_stake: stake === null ? null : unlessUnset(stake.minStake),
    node_account_id: formatEntityId(row.nodeAccountId ?? row.entryAccountId),
    node_cert_hash: hexText(
      row.nodeCertHash === null ? null : Buffer.from(row.nodeCertHash).toString("utf8"),
    ),
    node_id: row.nodeId,
    public_key: hexText(row.publicKey),
    reward_rate_start: stake === null ? null : stake.rewardRate,
    service_endpoints: sortedEndpoints(row.serviceEndpoints),
    stake: stake === null ? null : stake.stake,
    stake_not_rewarded: stake === null ? null : unlessUnset(stake.stakeNotRewarded),
    stake_rewarded: stake === null ? null : stake.stakeRewarded,
    staking_period: stake === null ? null : stakingPeriodView(stake.stakingPeriodNs),
    timestamp: { from: javaTimestamp(row.startNs), to: row.endNs === null ? null : javaTimestamp(row.endNs) },
  };
}

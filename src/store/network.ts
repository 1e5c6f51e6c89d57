/**
 * Read queries of the network group: the latest stake update and the nodes of the newest address book, joined
 * with the current node versions and the latest per-node stake (api.md §3.6, §3.7).
 */
import type { Db } from "./db.ts";
import type { NetworkStakeRow, ServiceEndpointValue } from "./network-writes.ts";

/** One node of `/network/nodes`, before shaping. Stake columns are null without a row in the latest update. */
export type NetworkNodeRow = {
  fileId: bigint;
  startNs: bigint;
  endNs: bigint | null;
  nodeId: bigint;
  entryAccountId: bigint;
  description: string;
  memo: string | null;
  publicKey: string;
  nodeCertHash: Uint8Array | null;
  serviceEndpoints: ServiceEndpointValue[];
  /** Whether a node row (NodeCreate/Update/Delete) exists; the next four fields are null otherwise. */
  hasNode: boolean;
  nodeAccountId: bigint | null;
  adminKey: Uint8Array | null;
  declineReward: boolean | null;
  grpcProxyEndpoint: ServiceEndpointValue | null;
  associatedRegisteredNodes: bigint[];
  stake: {
    maxStake: bigint;
    minStake: bigint;
    rewardRate: bigint;
    stake: bigint;
    stakeNotRewarded: bigint;
    stakeRewarded: bigint;
    stakingPeriodNs: bigint;
  } | null;
};

export type NetworkNodeFilter = {
  /** Encoded file id of the address book (0.0.101 or 0.0.102; any other finds nothing). */
  fileId: bigint;
  /** Inclusive node id range. */
  lowerNodeId: bigint;
  upperNodeId: bigint;
  /** Only these node ids (already within the range), or null for all. */
  nodeIds: readonly bigint[] | null;
  order: "asc" | "desc";
  limit: number;
};

export type NetworkQueries = {
  latestNetworkStake(): NetworkStakeRow | undefined;
  /** Whether any address book of this file (encoded id) is stored (the gRPC `getNodes` 404). One seek. */
  hasAddressBook(fileId: bigint): boolean;
  networkNodes(filter: NetworkNodeFilter): NetworkNodeRow[];
};

export function createNetworkQueries(db: Db): NetworkQueries {
  const latestStake = db.prepare(
    `SELECT consensus_ns AS consensusNs, max_stake_rewarded AS maxStakeRewarded,
       max_staking_reward_rate_per_hbar AS maxStakingRewardRatePerHbar, max_total_reward AS maxTotalReward,
       node_reward_fee_numerator AS nodeRewardFeeNumerator, node_reward_fee_denominator AS nodeRewardFeeDenominator,
       reserved_staking_rewards AS reservedStakingRewards, reward_balance_threshold AS rewardBalanceThreshold,
       stake_total AS stakeTotal, staking_period_ns AS stakingPeriodNs,
       staking_period_duration AS stakingPeriodDuration, staking_periods_stored AS stakingPeriodsStored,
       staking_reward_fee_numerator AS stakingRewardFeeNumerator,
       staking_reward_fee_denominator AS stakingRewardFeeDenominator, staking_reward_rate AS stakingRewardRate,
       staking_start_threshold AS stakingStartThreshold,
       unreserved_staking_reward_balance AS unreservedStakingRewardBalance
     FROM network_stake WHERE consensus_ns = (SELECT max(consensus_ns) FROM network_stake)`,
  );
  const nodesSql = (withIds: boolean, order: "ASC" | "DESC") =>
    `WITH book AS (SELECT file_id, start_ns, end_ns FROM address_book WHERE file_id = @fileId
                   ORDER BY start_ns DESC LIMIT 1),
          stake_at AS (SELECT max(consensus_ns) AS consensus_ns FROM node_stake)
     SELECT b.file_id, b.start_ns, b.end_ns, e.node_id, e.account_id AS entry_account_id, e.description, e.memo,
       e.public_key, e.node_cert_hash, e.service_endpoints,
       n.node_id IS NOT NULL AS has_node, n.account_id AS node_account_id, n.admin_key, n.decline_reward,
       n.grpc_proxy_endpoint, n.associated_registered_nodes,
       s.node_id IS NOT NULL AS has_stake, s.max_stake, s.min_stake, s.reward_rate, s.stake, s.stake_not_rewarded,
       s.stake_rewarded, s.staking_period_ns
     FROM book b
     JOIN address_book_entry e ON e.file_id = b.file_id AND e.start_ns = b.start_ns
     LEFT JOIN node n ON n.node_id = e.node_id AND n.valid_to IS NULL
     LEFT JOIN node_stake s ON s.consensus_ns = (SELECT consensus_ns FROM stake_at) AND s.node_id = e.node_id
     WHERE e.node_id >= @lower AND e.node_id <= @upper
       ${withIds ? "AND e.node_id IN (SELECT CAST(value AS INTEGER) FROM json_each(@ids))" : ""}
     ORDER BY e.node_id ${order} LIMIT +@limit`;
  const statements = {
    asc: db.prepare(nodesSql(false, "ASC")),
    desc: db.prepare(nodesSql(false, "DESC")),
    ascIds: db.prepare(nodesSql(true, "ASC")),
    descIds: db.prepare(nodesSql(true, "DESC")),
  };

  const anyBook = db.prepare("SELECT 1 FROM address_book WHERE file_id = ? LIMIT 1").pluck();

  return {
    latestNetworkStake: () => latestStake.get() as NetworkStakeRow | undefined,
    hasAddressBook: (fileId) => anyBook.get(fileId) !== undefined,
    networkNodes(filter) {
      const params: Record<string, unknown> = {
        fileId: filter.fileId,
        lower: filter.lowerNodeId,
        upper: filter.upperNodeId,
        limit: filter.limit,
      };
      let statement = filter.order === "asc" ? statements.asc : statements.desc;
      if (filter.nodeIds !== null) {
        statement = filter.order === "asc" ? statements.ascIds : statements.descIds;
        params.ids = JSON.stringify(filter.nodeIds.map((id) => id.toString()));
      }
      return (statement.all(params) as Array<Record<string, unknown>>).map(toNodeRow);
    },
  };
}

function toNodeRow(r: Record<string, unknown>): NetworkNodeRow {
  const hasNode = r.has_node === 1n;
  const proxy = r.grpc_proxy_endpoint as string | null;
  const registered = r.associated_registered_nodes as string | null;
  return {
    fileId: r.file_id as bigint,
    startNs: r.start_ns as bigint,
    endNs: (r.end_ns as bigint | null) ?? null,
    nodeId: r.node_id as bigint,
    entryAccountId: r.entry_account_id as bigint,
    description: r.description as string,
    memo: (r.memo as string | null) ?? null,
    publicKey: r.public_key as string,
    nodeCertHash: (r.node_cert_hash as Uint8Array | null) ?? null,
    serviceEndpoints: JSON.parse(r.service_endpoints as string) as ServiceEndpointValue[],
    hasNode,
    nodeAccountId: hasNode ? ((r.node_account_id as bigint | null) ?? null) : null,
    adminKey: hasNode ? ((r.admin_key as Uint8Array | null) ?? null) : null,
    declineReward: hasNode ? r.decline_reward === 1n : null,
    grpcProxyEndpoint: proxy === null ? null : (JSON.parse(proxy) as ServiceEndpointValue),
    associatedRegisteredNodes:
      registered === null ? [] : (JSON.parse(registered) as string[]).map((id) => BigInt(id)),
    stake:
      r.has_stake === 1n
        ? {
            maxStake: r.max_stake as bigint,
            minStake: r.min_stake as bigint,
            rewardRate: r.reward_rate as bigint,
            stake: r.stake as bigint,
            stakeNotRewarded: r.stake_not_rewarded as bigint,
            stakeRewarded: r.stake_rewarded as bigint,
            stakingPeriodNs: r.staking_period_ns as bigint,
          }
        : null,
  };
}

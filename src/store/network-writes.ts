/**
 * Writes of the network group: system-file contents, address books, consensus nodes and stake updates.
 *
 * These transactions are rare (a few per staking period), so every write goes straight to SQLite inside the
 * commit group's transaction: nothing is held in memory, and a rolled-back group leaves nothing behind.
 */
import type { Db } from "./db.ts";

/** HAPI transaction type ids of the three file transactions (`TransactionBody` field numbers). */
export const FILE_APPEND = 16;
export const FILE_CREATE = 17;
export const FILE_UPDATE = 19;

export type FileDataRow = { fileId: bigint; consensusNs: bigint; type: number; contents: Uint8Array };

export type ServiceEndpointValue = { domain_name: string; ip_address_v4: string; port: number };

export type AddressBookEntryRow = {
  nodeId: bigint;
  accountId: bigint;
  description: string;
  memo: string | null;
  publicKey: string;
  nodeCertHash: Uint8Array | null;
  stake: bigint;
  serviceEndpoints: ServiceEndpointValue[];
};

/** The columns of a node version (JSON columns already rendered). */
export type NodeRow = {
  created_ns: bigint;
  deleted: boolean;
  account_id: bigint | null;
  admin_key: Uint8Array | null;
  description: string | null;
  decline_reward: boolean;
  grpc_proxy_endpoint: string | null;
  gossip_endpoints: string | null;
  service_endpoints: string | null;
  associated_registered_nodes: string | null;
};

export type NetworkStakeRow = {
  consensusNs: bigint;
  maxStakeRewarded: bigint;
  maxStakingRewardRatePerHbar: bigint;
  maxTotalReward: bigint;
  nodeRewardFeeNumerator: bigint;
  nodeRewardFeeDenominator: bigint;
  reservedStakingRewards: bigint;
  rewardBalanceThreshold: bigint;
  stakeTotal: bigint;
  stakingPeriodNs: bigint;
  stakingPeriodDuration: bigint;
  stakingPeriodsStored: bigint;
  stakingRewardFeeNumerator: bigint;
  stakingRewardFeeDenominator: bigint;
  stakingRewardRate: bigint;
  stakingStartThreshold: bigint;
  unreservedStakingRewardBalance: bigint;
};

export type NodeStakeRow = {
  nodeId: bigint;
  maxStake: bigint;
  minStake: bigint;
  rewardRate: bigint;
  stake: bigint;
  stakeNotRewarded: bigint;
  stakeRewarded: bigint;
};

export type NetworkWrites = {
  insertFileData(row: FileDataRow): void;
  /**
   * The bytes an address-book append completes: the newest FileCreate/FileUpdate of the file before `atNs`
   * (empty or not), then every FileAppend after it and before `atNs`; undefined when there is no such
   * create/update.
   */
  appendBaseContents(fileId: bigint, atNs: bigint): Uint8Array[] | undefined;
  /** Opens address book `[startNs, ∞)` for the file and closes the file's previous open one at `closeAtNs`. */
  insertAddressBook(
    fileId: bigint,
    startNs: bigint,
    closeAtNs: bigint,
    nodeCount: number,
    entries: readonly AddressBookEntryRow[],
  ): void;
  currentNode(nodeId: bigint): NodeRow | undefined;
  /** Writes `row` as the node's version from `atNs` on, closing the current one (a same-instant change overwrites). */
  putNode(nodeId: bigint, atNs: bigint, row: NodeRow): void;
  insertStakeUpdate(network: NetworkStakeRow, nodes: readonly NodeStakeRow[]): void;
};

export function createNetworkWrites(db: Db): NetworkWrites {
  const insertFileData = db.prepare(
    `INSERT INTO file_data (file_id, consensus_ns, type, contents) VALUES (?, ?, ?, ?)
     ON CONFLICT (file_id, consensus_ns) DO UPDATE SET type = excluded.type, contents = excluded.contents`,
  );
  const selectBase = db.prepare(
    `SELECT consensus_ns, contents FROM file_data WHERE file_id = ? AND consensus_ns < ? AND type IN (17, 19)
     ORDER BY consensus_ns DESC LIMIT 1`,
  );
  const selectAppends = db
    .prepare(
      `SELECT contents FROM file_data WHERE file_id = ? AND consensus_ns > ? AND consensus_ns < ? AND type = 16
       ORDER BY consensus_ns`,
    )
    .pluck();
  const closeBooks = db.prepare(
    `UPDATE address_book SET end_ns = ? WHERE file_id = ? AND end_ns IS NULL AND start_ns <= ? AND start_ns <> ?`,
  );
  const insertBook = db.prepare(
    `INSERT INTO address_book (file_id, start_ns, end_ns, node_count) VALUES (?, ?, NULL, ?)
     ON CONFLICT (file_id, start_ns) DO NOTHING`,
  );
  const insertEntry = db.prepare(
    `INSERT INTO address_book_entry (file_id, start_ns, node_id, account_id, description, memo, public_key,
       node_cert_hash, stake, service_endpoints)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const nodeColumns = [
    "created_ns",
    "deleted",
    "account_id",
    "admin_key",
    "description",
    "decline_reward",
    "grpc_proxy_endpoint",
    "gossip_endpoints",
    "service_endpoints",
    "associated_registered_nodes",
  ] as const;
  const selectNode = db.prepare(
    `SELECT valid_from, ${nodeColumns.join(", ")} FROM node WHERE node_id = ? AND valid_to IS NULL`,
  );
  const closeNode = db.prepare("UPDATE node SET valid_to = ? WHERE node_id = ? AND valid_from = ?");
  const deleteNodeVersion = db.prepare("DELETE FROM node WHERE node_id = ? AND valid_from = ?");
  const insertNode = db.prepare(
    `INSERT INTO node (node_id, valid_from, valid_to, ${nodeColumns.join(", ")})
     VALUES (?, ?, NULL, ${nodeColumns.map(() => "?").join(", ")})`,
  );
  const insertNetworkStake = db.prepare(
    `INSERT OR REPLACE INTO network_stake (consensus_ns, max_stake_rewarded, max_staking_reward_rate_per_hbar,
       max_total_reward, node_reward_fee_numerator, node_reward_fee_denominator, reserved_staking_rewards,
       reward_balance_threshold, stake_total, staking_period_ns, staking_period_duration, staking_periods_stored,
       staking_reward_fee_numerator, staking_reward_fee_denominator, staking_reward_rate, staking_start_threshold,
       unreserved_staking_reward_balance)
     VALUES (@consensusNs, @maxStakeRewarded, @maxStakingRewardRatePerHbar, @maxTotalReward,
       @nodeRewardFeeNumerator, @nodeRewardFeeDenominator, @reservedStakingRewards, @rewardBalanceThreshold,
       @stakeTotal, @stakingPeriodNs, @stakingPeriodDuration, @stakingPeriodsStored, @stakingRewardFeeNumerator,
       @stakingRewardFeeDenominator, @stakingRewardRate, @stakingStartThreshold, @unreservedStakingRewardBalance)`,
  );
  const insertNodeStake = db.prepare(
    `INSERT OR REPLACE INTO node_stake (consensus_ns, node_id, max_stake, min_stake, reward_rate, stake,
       stake_not_rewarded, stake_rewarded, staking_period_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const flag = (value: boolean) => (value ? 1 : 0);

  return {
    insertFileData: (row) => insertFileData.run(row.fileId, row.consensusNs, row.type, row.contents),
    appendBaseContents(fileId, atNs) {
      const base = selectBase.get(fileId, atNs) as { consensus_ns: bigint; contents: Uint8Array } | undefined;
      if (base === undefined) return undefined;
      return [base.contents, ...(selectAppends.all(fileId, base.consensus_ns, atNs) as Uint8Array[])];
    },
    insertAddressBook(fileId, startNs, closeAtNs, nodeCount, entries) {
      closeBooks.run(closeAtNs, fileId, closeAtNs, startNs);
      insertBook.run(fileId, startNs, nodeCount);
      for (const e of entries) {
        insertEntry.run(
          fileId,
          startNs,
          e.nodeId,
          e.accountId,
          e.description,
          e.memo,
          e.publicKey,
          e.nodeCertHash,
          e.stake,
          JSON.stringify(e.serviceEndpoints),
        );
      }
    },
    currentNode(nodeId) {
      const row = selectNode.get(nodeId) as Record<string, unknown> | undefined;
      if (row === undefined) return undefined;
      return {
        created_ns: row.created_ns as bigint,
        deleted: row.deleted === 1n,
        account_id: (row.account_id as bigint | null) ?? null,
        admin_key: (row.admin_key as Uint8Array | null) ?? null,
        description: (row.description as string | null) ?? null,
        decline_reward: row.decline_reward === 1n,
        grpc_proxy_endpoint: (row.grpc_proxy_endpoint as string | null) ?? null,
        gossip_endpoints: (row.gossip_endpoints as string | null) ?? null,
        service_endpoints: (row.service_endpoints as string | null) ?? null,
        associated_registered_nodes: (row.associated_registered_nodes as string | null) ?? null,
      };
    },
    putNode(nodeId, atNs, row) {
      const current = selectNode.get(nodeId) as { valid_from: bigint } | undefined;
      if (current !== undefined) {
        if (current.valid_from === atNs) deleteNodeVersion.run(nodeId, atNs);
        else closeNode.run(atNs, nodeId, current.valid_from);
      }
      insertNode.run(
        nodeId,
        atNs,
        row.created_ns,
        flag(row.deleted),
        row.account_id,
        row.admin_key,
        row.description,
        flag(row.decline_reward),
        row.grpc_proxy_endpoint,
        row.gossip_endpoints,
        row.service_endpoints,
        row.associated_registered_nodes,
      );
    },
    insertStakeUpdate(network, nodes) {
      insertNetworkStake.run(network);
      for (const n of nodes) {
        insertNodeStake.run(
          network.consensusNs,
          n.nodeId,
          n.maxStake,
          n.minStake,
          n.rewardRate,
          n.stake,
          n.stakeNotRewarded,
          n.stakeRewarded,
          network.stakingPeriodNs,
        );
      }
    },
  };
}

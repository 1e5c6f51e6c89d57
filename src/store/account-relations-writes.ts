import { createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";
import { createVersionedTable, type VersionedTable } from "./versioned.ts";

/**
 * Writes of the account relations (migration 0050): allowances and token airdrops, versioned like the other
 * stateful tables, and staking reward payouts, appended. Held back like the rest of the write store until the
 * file's transaction commits.
 */
export type AccountRelationWrites = {
  /** Key (owner, spender): amount, amount_granted, payer_id. */
  cryptoAllowance: VersionedTable;
  /** Key (owner, spender, token_id): amount, amount_granted, payer_id. */
  tokenAllowance: VersionedTable;
  /** Key (owner, spender, token_id): approved_for_all, payer_id. */
  nftAllowance: VersionedTable;
  /** Key (sender, receiver, token_id, serial): state, amount. */
  tokenAirdrop: VersionedTable;
  insertStakingReward(accountId: bigint, consensusNs: bigint, amount: bigint, payerId: bigint): void;
  flush(): void;
  reset(): void;
};

export function createAccountRelationWrites(db: Db): AccountRelationWrites {
  const cryptoAllowance = createVersionedTable(
    db,
    "crypto_allowance",
    ["owner", "spender"],
    ["amount", "amount_granted", "payer_id"],
  );
  const tokenAllowance = createVersionedTable(
    db,
    "token_allowance",
    ["owner", "spender", "token_id"],
    ["amount", "amount_granted", "payer_id"],
  );
  const nftAllowance = createVersionedTable(
    db,
    "nft_allowance",
    ["owner", "spender", "token_id"],
    ["approved_for_all", "payer_id"],
  );
  const tokenAirdrop = createVersionedTable(
    db,
    "token_airdrop",
    ["sender", "receiver", "token_id", "serial"],
    ["state", "amount"],
  );
  // An account paid twice in one record (never seen, but not excluded by HAPI) keeps the sum.
  const stakingRewards = createBatchInsert(
    db,
    "staking_reward_transfer",
    ["account_id", "consensus_ns", "amount", "payer_id"],
    { onConflict: "ON CONFLICT (account_id, consensus_ns) DO UPDATE SET amount = amount + excluded.amount" },
  );
  const tables = [cryptoAllowance, tokenAllowance, nftAllowance, tokenAirdrop];
  return {
    cryptoAllowance,
    tokenAllowance,
    nftAllowance,
    tokenAirdrop,
    insertStakingReward: (accountId, consensusNs, amount, payerId) =>
      stakingRewards.add(accountId, consensusNs, amount, payerId),
    flush() {
      stakingRewards.flush();
      for (const table of tables) table.flush();
    },
    reset() {
      stakingRewards.clear();
      for (const table of tables) table.reset();
    },
  };
}

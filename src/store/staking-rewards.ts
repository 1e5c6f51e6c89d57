import { MAX_INT64 } from "../int64.ts";
import {
  type Condition,
  createStatementCache,
  direction,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";

export type StakingRewardRow = { account_id: bigint; amount: bigint; consensus_ns: bigint };

export type StakingRewardsQuery = {
  accountId: bigint;
  /** `timestamp` equalities: one IN list (empty: none). */
  timestamps: readonly bigint[];
  timestampConditions: readonly Condition<bigint>[];
  order: Order;
  limit: number;
};

export type StakingRewardQueries = {
  /** The account's staking reward payouts, by consensus time. */
  listRewards(query: StakingRewardsQuery): StakingRewardRow[];
};

export function createStakingRewardQueries(
  db: Db,
  statement: StatementCache = createStatementCache(db),
): StakingRewardQueries {
  return {
    listRewards(query) {
      const where = new WhereBuilder()
        .add("account_id = ?", query.accountId)
        // A 10-digit timestamp may pass int64: it names no transaction, as the greatest int64 names none.
        .in(
          "consensus_ns",
          query.timestamps.map((t) => (t > MAX_INT64 ? MAX_INT64 : t)),
        )
        .compare("consensus_ns", query.timestampConditions);
      const sql = `SELECT account_id, amount, consensus_ns FROM staking_reward_transfer ${where.sql()}
        ORDER BY consensus_ns ${direction(query.order)} LIMIT +?`;
      return statement(sql).all(...where.params, query.limit) as StakingRewardRow[];
    },
  };
}

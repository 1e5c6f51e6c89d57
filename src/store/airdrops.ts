import {
  createStatementCache,
  direction,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";
import { type RangeBound, rangeBoundsCondition } from "./range-bounds.ts";

export type TokenAirdropRow = {
  sender: bigint;
  receiver: bigint;
  token_id: bigint;
  /** 0 for a fungible token. */
  serial: bigint;
  /** Null for an NFT. */
  amount: bigint | null;
  valid_from: bigint;
  valid_to: bigint | null;
};

export type AirdropsQuery = {
  /** The path account: the sender (`outstanding`) or the receiver (pending). */
  accountId: bigint;
  outstanding: boolean;
  /** Bounds, primary first, for `range-bounds.ts`; their columns are `receiver`/`sender`, `token_id`, `serial`. */
  bounds: readonly RangeBound[];
  order: Order;
  limit: number;
};

export type AirdropQueries = {
  /** Pending airdrops the account sent (outstanding) or may claim, by the other account, token and serial. */
  listAirdrops(query: AirdropsQuery): TokenAirdropRow[];
};

/**
 * The lists name their partial index of pending airdrops (`INDEXED BY`, migration 0050): without statistics
 * SQLite prefers the covering primary key, which also walks every claimed and cancelled airdrop and every past
 * version.
 */
export function createAirdropQueries(
  db: Db,
  statement: StatementCache = createStatementCache(db),
): AirdropQueries {
  return {
    listAirdrops(query) {
      const [self, other] = query.outstanding ? ["sender", "receiver"] : ["receiver", "sender"];
      const where = new WhereBuilder()
        .add(`${self} = ?`, query.accountId)
        .add("valid_to IS NULL")
        .add("state = 'PENDING'");
      const bounds = rangeBoundsCondition(query.bounds);
      if (bounds !== null) where.add(bounds.sql, ...bounds.params);
      const dir = direction(query.order);
      const index = query.outstanding ? "token_airdrop_outstanding" : "token_airdrop_pending";
      const sql = `SELECT sender, receiver, token_id, serial, amount, valid_from, valid_to
        FROM token_airdrop INDEXED BY ${index} ${where.sql()} ORDER BY ${other} ${dir}, token_id ${dir}, serial ${dir} LIMIT +?`;
      return statement(sql).all(...where.params, query.limit) as TokenAirdropRow[];
    },
  };
}

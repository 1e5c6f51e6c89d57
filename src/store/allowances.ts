import {
  type Condition,
  createStatementCache,
  direction,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";
import { type PairPart, pairedUnion } from "./paired-union.ts";
import { type RangeBound, rangeBoundsCondition } from "./range-bounds.ts";

/** A current allowance with something left (hbar: no token). */
export type FungibleAllowanceRow = {
  owner: bigint;
  spender: bigint;
  token_id?: bigint;
  amount: bigint;
  amount_granted: bigint;
  valid_from: bigint;
  valid_to: bigint | null;
};

export type NftAllowanceRow = {
  owner: bigint;
  spender: bigint;
  token_id: bigint;
  approved_for_all: bigint;
  valid_from: bigint;
  valid_to: bigint | null;
};

export type CryptoAllowancesQuery = {
  owner: bigint;
  /** `spender.id` equalities (IN) and other conditions; a null value matches nothing. */
  spenderIds: readonly (bigint | null)[];
  spenderConditions: readonly Condition<bigint | null>[];
  order: Order;
  limit: number;
};

export type TokenAllowancesQuery = {
  owner: bigint;
  /** Parts on (spender, token_id) whose union the list is (see paired-union.ts). */
  parts: readonly PairPart[];
  order: Order;
  limit: number;
};

export type NftAllowancesQuery = {
  /** The path account: the owner (`byOwner`) or the spender. */
  accountId: bigint;
  byOwner: boolean;
  /** Bounds on the other account (primary) and the token, for `range-bounds.ts`. */
  bounds: readonly RangeBound[];
  order: Order;
  limit: number;
};

export type AllowanceQueries = {
  /** The owner's hbar allowances with an amount left, by spender. */
  listCryptoAllowances(query: CryptoAllowancesQuery): FungibleAllowanceRow[];
  /** The owner's fungible token allowances with an amount left, by spender then token. */
  listTokenAllowances(query: TokenAllowancesQuery): FungibleAllowanceRow[];
  /** NFT "approved for all" allowances the account gave (or was given), by the other account then token. */
  listNftAllowances(query: NftAllowancesQuery): NftAllowanceRow[];
};

/**
 * Each list names its partial index (`INDEXED BY`, migration 0050): without statistics SQLite prefers the
 * covering primary key, which also walks every past version and every spent or revoked allowance of the owner.
 * The partial indexes hold only what the lists show, and are never dropped (they are not catch-up indexes).
 */
export function createAllowanceQueries(
  db: Db,
  statement: StatementCache = createStatementCache(db),
): AllowanceQueries {
  return {
    listCryptoAllowances(query) {
      const where = new WhereBuilder()
        .add("owner = ?", query.owner)
        .add("valid_to IS NULL")
        .add("amount > 0")
        .in("spender", query.spenderIds)
        .compare("spender", query.spenderConditions);
      const sql = `SELECT owner, spender, amount, amount_granted, valid_from, valid_to
        FROM crypto_allowance INDEXED BY crypto_allowance_live ${where.sql()} ORDER BY spender ${direction(query.order)} LIMIT +?`;
      return statement(sql).all(...where.params, query.limit) as FungibleAllowanceRow[];
    },

    listTokenAllowances(query) {
      const { sql, params } = pairedUnion({
        select: `SELECT owner, spender, token_id, amount, amount_granted, valid_from, valid_to
          FROM token_allowance INDEXED BY token_allowance_live`,
        columns: ["spender", "token_id"],
        orderNames: ["spender", "token_id"],
        base: (where) => where.add("owner = ?", query.owner).add("valid_to IS NULL").add("amount > 0"),
        parts: query.parts,
        order: query.order,
        limit: query.limit,
      });
      return statement(sql).all(...params) as FungibleAllowanceRow[];
    },

    listNftAllowances(query) {
      const [self, other] = query.byOwner ? ["owner", "spender"] : ["spender", "owner"];
      const where = new WhereBuilder()
        .add(`${self} = ?`, query.accountId)
        .add("valid_to IS NULL")
        .add("approved_for_all = 1");
      const bounds = rangeBoundsCondition(query.bounds);
      if (bounds !== null) where.add(bounds.sql, ...bounds.params);
      const dir = direction(query.order);
      const index = query.byOwner ? "nft_allowance_by_owner" : "nft_allowance_by_spender";
      const sql = `SELECT owner, spender, token_id, approved_for_all, valid_from, valid_to
        FROM nft_allowance INDEXED BY ${index} ${where.sql()} ORDER BY ${other} ${dir}, token_id ${dir} LIMIT +?`;
      return statement(sql).all(...where.params, query.limit) as NftAllowanceRow[];
    },
  };
}

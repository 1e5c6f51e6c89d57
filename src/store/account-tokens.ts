import {
  type Condition,
  createStatementCache,
  direction,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";
import { NFT_COLUMNS, type NftRow, TOKEN_ENTITY_JOIN } from "./nfts.ts";
import { type PairPart, pairedUnion } from "./paired-union.ts";

/** One associated token of an account, with the token's decimals. */
export type TokenRelationshipRow = {
  token_id: bigint;
  automatic_association: bigint;
  balance: bigint;
  created_ns: bigint;
  freeze_status: string;
  kyc_status: string;
  decimals: bigint;
};

export type TokenRelationshipsQuery = {
  accountId: bigint;
  /** `token.id` equalities: one IN list (empty: none). */
  tokenIds: readonly bigint[];
  tokenConditions: readonly Condition<bigint>[];
  order: Order;
  limit: number;
};

export type AccountNftsQuery = {
  accountId: bigint;
  /** Parts on (token_id, serial) whose union the list is (see paired-union.ts); a null value matches nothing. */
  parts: readonly PairPart[];
  /** `spender.id` equalities (IN) and other conditions, applied to every part. */
  spenderIds: readonly (bigint | null)[];
  spenderConditions: readonly Condition<bigint | null>[];
  order: Order;
  limit: number;
};

export type AccountTokenQueries = {
  /** The account's associated token relationships (current versions), by token ID. */
  listTokenRelationships(query: TokenRelationshipsQuery): TokenRelationshipRow[];
  /** NFTs the account owns now, by token ID then serial. */
  listAccountNfts(query: AccountNftsQuery): NftRow[];
};

export function createAccountTokenQueries(
  db: Db,
  statement: StatementCache = createStatementCache(db),
): AccountTokenQueries {
  return {
    listTokenRelationships(query) {
      const where = new WhereBuilder()
        .add("ta.account_id = ?", query.accountId)
        .add("ta.valid_to IS NULL")
        .add("ta.associated = 1")
        .in("ta.token_id", query.tokenIds)
        .compare("ta.token_id", query.tokenConditions);
      const sql = `SELECT ta.token_id, ta.automatic_association, ta.balance, ta.created_ns, ta.freeze_status,
          ta.kyc_status, COALESCE(t.decimals, 0) AS decimals
        FROM token_account ta LEFT JOIN token t ON t.id = ta.token_id AND t.valid_to IS NULL
        ${where.sql()} ORDER BY ta.token_id ${direction(query.order)} LIMIT +?`;
      return statement(sql).all(...where.params, query.limit) as TokenRelationshipRow[];
    },

    listAccountNfts(query) {
      const { sql, params } = pairedUnion({
        select: `SELECT ${NFT_COLUMNS} FROM nft n ${TOKEN_ENTITY_JOIN}`,
        columns: ["n.token_id", "n.serial"],
        orderNames: ["token_id", "serial"],
        base: (where) => {
          // `unlikely`: without statistics SQLite would seek a token's serials on the primary key (token_id,
          // serial) and filter the owner; the hint makes it seek owner and token on one index
          // (nft_current_by_account, or nft_current_by_owner for one token).
          where.add("unlikely(n.account_id = ?)", query.accountId).add("n.valid_to IS NULL");
          where.in("n.spender", query.spenderIds).compare("n.spender", query.spenderConditions);
        },
        parts: query.parts,
        order: query.order,
        limit: query.limit,
      });
      return statement(sql).all(...params) as NftRow[];
    },
  };
}

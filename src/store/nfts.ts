import {
  bounds,
  type Condition,
  createStatementCache,
  direction,
  matchesNothing,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";
import { applyTokenScope, type TokenScope } from "./token-scope.ts";

/** The mirror node's type id of TokenDelete: its NFT history entry has no transfer. */
const TOKEN_DELETION = 35n;

/** An NFT as the API shows it: its current version, `deleted` also set when its token is deleted. */
export type NftRow = {
  token_id: bigint;
  serial: bigint;
  account_id: bigint | null;
  /** Mint time; null when this mirror never saw the mint. */
  created_ns: bigint | null;
  delegating_spender: bigint | null;
  deleted: bigint;
  metadata: Buffer | null;
  spender: bigint | null;
  /** Start of the current version: the NFT's last change. */
  valid_from: bigint;
};

export type NftsQuery = {
  scope: TokenScope;
  /** Conditions on the owner; a null value (an EVM address naming no account) matches nothing. */
  accountIds: readonly Condition<bigint | null>[];
  serials: readonly Condition<bigint>[];
  order: Order;
  limit: number;
};

export type NftHistoryQuery = {
  tokenId: bigint;
  serial: bigint;
  timestamps: readonly Condition<bigint>[];
  order: Order;
  limit: number;
};

/** One entry of an NFT's history: the transaction and the NFT's transfer in it (null parties when none). */
export type NftEvent = {
  consensus_ns: bigint;
  type: bigint;
  payer_id: bigint;
  valid_start_ns: bigint;
  nonce: bigint;
  sender_id: bigint | null;
  receiver_id: bigint | null;
  is_approval: boolean;
};

export type NftHistory = {
  events: NftEvent[];
  /** True when the NFT has no current version or its mint was never seen (the API answers 206 then). */
  partial: boolean;
};

export type NftQueries = {
  /** Current NFTs, ordered by token then serial. */
  listNfts(query: NftsQuery): NftRow[];
  getNft(tokenId: bigint, serial: bigint): NftRow | undefined;
  /**
   * The NFT's history: every version start (mint, transfers, allowance changes, metadata updates, burn, wipe)
   * and, once the token is deleted, the deletion; each joined with its transaction. A version whose
   * transaction is not indexed is left out, as the mirror node does.
   */
  listNftHistory(query: NftHistoryQuery): NftHistory;
};

/** The columns of an `NftRow`, from `nft n` joined with `TOKEN_ENTITY_JOIN` (the account NFT list shares them). */
export const NFT_COLUMNS = `n.token_id, n.serial, n.account_id, n.created_ns, n.delegating_spender,
  (n.deleted != 0 OR COALESCE(e.deleted, 0) != 0) AS deleted, n.metadata, n.spender, n.valid_from`;
export const TOKEN_ENTITY_JOIN = "LEFT JOIN entity e ON e.id = n.token_id AND e.valid_to IS NULL";

export function createNftQueries(db: Db, statement: StatementCache = createStatementCache(db)): NftQueries {
  const getNft = db.prepare(
    `SELECT ${NFT_COLUMNS} FROM nft n ${TOKEN_ENTITY_JOIN}
     WHERE n.token_id = ? AND n.serial = ? AND n.valid_to IS NULL`,
  );
  const getTransaction = db.prepare(
    `SELECT consensus_ns, type, payer_id, valid_start_ns, nonce FROM "transaction" WHERE consensus_ns = ?`,
  );
  // The first transfer of this NFT in the transaction, in record order (rowid follows insertion).
  const getTransfer = db.prepare(
    `SELECT sender_id, receiver_id, is_approval FROM nft_transfer
     WHERE consensus_ns = ? AND token_id = ? AND serial = ? ORDER BY rowid LIMIT 1`,
  );
  const getCreatedNs = db
    .prepare("SELECT created_ns FROM nft WHERE token_id = ? AND serial = ? AND valid_to IS NULL")
    .pluck();

  return {
    listNfts(query) {
      if (matchesNothing(query.accountIds)) return [];
      const where = new WhereBuilder().add("n.valid_to IS NULL");
      applyTokenScope(where, query.scope, "n.token_id", "n.serial");
      where.compare("n.account_id", query.accountIds).compare("n.serial", query.serials);
      const { scope } = query;
      // Across tokens with neither a token bound nor an owner to start from, the page is a walk from the first
      // token.
      if (
        scope.kind === "all" &&
        scope.tokenIds.length === 0 &&
        !bounds(scope.tokenConditions) &&
        scope.lower === null &&
        scope.upper === null &&
        !query.accountIds.some((c) => c.op === "eq")
      )
        where.startOf("n.token_id", query.order);
      const dir = direction(query.order);
      const orderBy = query.scope.kind === "one" ? `n.serial ${dir}` : `n.token_id ${dir}, n.serial ${dir}`;
      const sql = `SELECT ${NFT_COLUMNS} FROM nft n ${TOKEN_ENTITY_JOIN} ${where.sql()} ORDER BY ${orderBy} LIMIT +?`;
      return statement(sql).all(...where.params, query.limit) as NftRow[];
    },

    getNft: (tokenId, serial) => getNft.get(tokenId, serial) as NftRow | undefined,

    listNftHistory({ tokenId, serial, timestamps, order, limit }) {
      const versions = new WhereBuilder().add("token_id = ?", tokenId).add("serial = ?", serial);
      versions.compare("valid_from", timestamps);
      const deletion = new WhereBuilder().add("id = ?", tokenId).add("valid_to IS NULL").add("deleted = 1");
      deletion.compare("valid_from", timestamps);
      const sql = `SELECT ts FROM (
          SELECT valid_from AS ts FROM nft ${versions.sql()}
          UNION ALL
          SELECT valid_from AS ts FROM entity ${deletion.sql()}
        ) ORDER BY ts ${direction(order)} LIMIT +?`;
      const times = statement(sql)
        .pluck()
        .all(...versions.params, ...deletion.params, limit) as bigint[];

      const events: NftEvent[] = [];
      for (const ts of times) {
        const tx = getTransaction.get(ts) as
          | Omit<NftEvent, "sender_id" | "receiver_id" | "is_approval">
          | undefined;
        if (tx === undefined) continue;
        const transfer =
          tx.type === TOKEN_DELETION
            ? undefined
            : (getTransfer.get(ts, tokenId, serial) as
                | { sender_id: bigint | null; receiver_id: bigint | null; is_approval: bigint }
                | undefined);
        events.push({
          ...tx,
          sender_id: transfer?.sender_id ?? null,
          receiver_id: transfer?.receiver_id ?? null,
          is_approval: transfer !== undefined && transfer.is_approval !== 0n,
        });
      }
      const createdNs = getCreatedNs.get(tokenId, serial) as bigint | null | undefined;
      return { events, partial: events.length > 0 && createdNs == null };
    },
  };
}

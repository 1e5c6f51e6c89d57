import type { Migration } from "../migrations.ts";

/**
 * Migrations of the transaction index (transactions issue): keys 0020-… to 0029-….
 *
 * 0020 replaces the first `transaction` table (a few columns for NFT history) with the whole index: one row per
 * record, failed, child and scheduled ones included, keyed by consensus time. Its rows cannot be rebuilt from
 * the old columns (no hash, memo or transfers were kept), so an index built before it must be re-ingested to
 * list older transactions; the NFT history reads the same column names as before.
 */
export const TRANSACTIONS_MIGRATIONS: readonly Migration[] = [
  [
    "0020-transaction-index",
    `
    DROP TABLE "transaction";

    -- One row per record: what filters and the NFT history read as columns, the rest packed into details
    -- (store/transaction-lists.ts: charged and max fee, valid duration, node, entity, parent, memo bytes, the hbar
    -- transfer list with approvals, and the rarely present lists: staking reward payouts, assessed custom fees,
    -- max custom fees, batch key, pricing multiplier, inner transactions of a batch). Token and NFT transfers stay
    -- in token_transfer / nft_transfer. flags: TRANSACTION_FLAGS in store/transaction-lists.ts (bit 0: failed).
    CREATE TABLE "transaction" (
      consensus_ns   INTEGER PRIMARY KEY,
      type           INTEGER NOT NULL,
      result         INTEGER NOT NULL,
      payer_id       INTEGER NOT NULL,
      valid_start_ns INTEGER NOT NULL,
      nonce          INTEGER NOT NULL,
      flags          INTEGER NOT NULL,
      hash           BLOB    NOT NULL,
      details        BLOB    NOT NULL,
      -- Type and outcome in one number (type * 2 + failed), so that a type, a result or both are one seek each.
      kind           INTEGER GENERATED ALWAYS AS (type * 2 + (flags & 1)) VIRTUAL
    );

    -- Read-only indexes (store/catch-up-indexes.ts: a one-shot catch-up builds them once, at the end). Their
    -- entries end with the rowid, consensus_ns: a kind's transactions are in consensus order. The id index is
    -- valid start first, which follows consensus time, so live ingestion appends near its end. Hash lookups
    -- search the first 4 bytes (about one stray candidate per 4 billion transactions); the row's full hash
    -- decides.
    CREATE INDEX transaction_kind ON "transaction" (kind);
    CREATE INDEX transaction_id ON "transaction" (valid_start_ns, payer_id);
    CREATE INDEX transaction_hash ON "transaction" (substr(hash, 1, 4));

    -- Which transactions involve an account, for account.id filters: the account is the payer (of a user
    -- transaction, a child with a parent, or a crypto create/update), or has an hbar or fungible token
    -- transfer in the record. kind is type * 8 + failed * 4 + credit * 2 + debit, where credit / debit mean
    -- the account has a positive / negative hbar or token amount in it: every filter combination is a seek.
    -- One row per account and kind per record file (at most 512 transactions; the fee collector and node
    -- accounts are in every record): first_ns is the first transaction's consensus time, times the later
    -- ones as varint deltas from the previous (store/transaction-lists.ts), NULL for a row of one. Rows are
    -- appended; the key is a read-only index.
    CREATE TABLE transaction_account (
      account_id INTEGER NOT NULL,
      kind       INTEGER NOT NULL,
      first_ns   INTEGER NOT NULL,
      times      BLOB
    );
    CREATE INDEX transaction_account_key ON transaction_account (account_id, kind, first_ns);
    `,
  ],
];

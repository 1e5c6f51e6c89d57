import type { Db } from "../db.ts";
import type { Migration } from "../migrations.ts";

/**
 * Migrations of the read path's storage layout (issue 23): keys 0130-… to 0139-….
 *
 * 0130 replaces the account transaction lists of 0020 (`transaction_account`: one row per account, kind and
 * record file, times packed as varint deltas) with one entry per (account, transaction), clustered by account
 * then consensus time, so that an account's page is one range read of `limit` entries in order and a filter on
 * type, result or credit/debit is checked on the entry itself. The old rows could be unpacked into the new ones
 * only in JavaScript; they are derived data, so an index that holds any is refused (`refusal`) and re-ingested.
 */
export const READ_LAYOUT_MIGRATIONS: readonly Migration[] = [
  [
    "0130-account-transaction",
    `
    DROP INDEX IF EXISTS transaction_account_key;
    DROP TABLE transaction_account;

    -- The transactions that involve an account (store/transactions.ts reads it; ingest/handlers/
    -- transaction-index.ts decides who is involved): the payer (of a user transaction, of a child with a parent,
    -- of a crypto create / update), and every account with an hbar or fungible token amount in the record.
    -- kind = type * 8 + failed * 4 + credit * 2 + debit (ACCOUNT_KIND_BITS), credit / debit meaning the account
    -- has a positive / negative amount in it. About 17 bytes an entry: account (1-4), time (8), kind (1-2) and
    -- the cell's header.
    CREATE TABLE account_transaction (
      account_id   INTEGER NOT NULL,
      consensus_ns INTEGER NOT NULL,
      kind         INTEGER NOT NULL,
      PRIMARY KEY (account_id, consensus_ns)
    ) WITHOUT ROWID;
    `,
  ],
];

/**
 * Why a pending migration of this group cannot run on `db` (one line for the operator), or null. 0130 drops the
 * old account lists: an index that holds some would list no transaction for any account afterwards.
 */
export function readLayoutRefusal(key: string, db: Db): string | null {
  if (key !== "0130-account-transaction") return null;
  const old = db.prepare("SELECT 1 FROM transaction_account LIMIT 1").get();
  if (old === undefined) return null;
  return (
    "this index lists account transactions in an older layout (transaction_account, before migration " +
    "0130-account-transaction); it is derived data: remove the index file and ingest the streams again"
  );
}

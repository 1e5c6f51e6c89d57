import type { Db } from "./db.ts";

/**
 * Indexes that only reads use, on the tables a catch-up writes most. A one-shot `mirrorlite ingest` (no reader
 * is open) drops them while it applies files and builds them again, once, at the end: one sort instead of an
 * index update for every row written. Unique indexes stay: they guard "one current version per key".
 *
 * The statements are the ones their migrations (0001, 0020, 0030, 0050, 0080) ran, verbatim, so the rebuilt
 * schema is the same text. A process killed while they are dropped leaves them missing: every worker start calls
 * `restoreReadIndexes`.
 */
const READ_INDEXES: ReadonlyArray<readonly [name: string, sql: string]> = [
  [
    "token_account_current_by_account",
    "CREATE INDEX token_account_current_by_account ON token_account (account_id, token_id) WHERE valid_to IS NULL",
  ],
  [
    "nft_current_by_owner",
    "CREATE INDEX nft_current_by_owner ON nft (token_id, account_id, serial) WHERE valid_to IS NULL",
  ],
  [
    "nft_current_by_account",
    "CREATE INDEX nft_current_by_account ON nft (account_id, token_id, serial) WHERE valid_to IS NULL",
  ],
  // Migration 0030-topic-messages: consensus messages are most of a real network's transactions.
  ["topic_message_by_topic", "CREATE INDEX topic_message_by_topic ON topic_message (topic_id)"],
  [
    "topic_message_by_sequence",
    "CREATE INDEX topic_message_by_sequence ON topic_message (topic_id, sequence_number)",
  ],
  // Migration 0080 (read path).
  [
    "token_account_closed_by_account",
    "CREATE INDEX token_account_closed_by_account ON token_account (account_id, token_id, valid_from) WHERE valid_to IS NOT NULL",
  ],
  // The transaction index's (migrations/transactions.ts 0020).
  ["transaction_kind", 'CREATE INDEX transaction_kind ON "transaction" (kind)'],
  ["transaction_id", 'CREATE INDEX transaction_id ON "transaction" (valid_start_ns, payer_id)'],
  ["transaction_hash", 'CREATE INDEX transaction_hash ON "transaction" (substr(hash, 1, 4))'],
  // (account_transaction, migration 0130, is clustered on its key: a catch-up sorts each file's entries instead.)
];

export function dropReadIndexes(db: Db): void {
  db.transaction(() => {
    for (const [name] of READ_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
  })();
}

/** Builds whichever of the read indexes is missing. */
export function restoreReadIndexes(db: Db): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").pluck();
  db.transaction(() => {
    for (const [name, sql] of READ_INDEXES) if (exists.get(name) === undefined) db.exec(sql);
  })();
}

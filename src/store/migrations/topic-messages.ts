import type { Migration } from "../migrations.ts";

/** Migrations of consensus messages (topics): keys 0030-… to 0039-…. */
export const TOPIC_MESSAGES_MIGRATIONS: readonly Migration[] = [
  [
    "0030-topic-messages",
    `
    -- Every successful ConsensusSubmitMessage, keyed by its consensus time (the rowid: a lookup by time is one
    -- seek and costs no index). running_hash_version is NULL for version 3 (every current node's); chunk_num,
    -- chunk_total and initial_transaction_id (the body's TransactionID bytes) only for chunked messages;
    -- valid_start_ns only for a chunk that names no initial transaction (its own id stands in). The running hash
    -- and the message are kept in base64, the form answers print: a page of messages then reads 25 strings
    -- rather than 50 byte buffers, which cost a read more than the rest of the row (encoding=utf-8 decodes them).
    -- The message comes last: long ones spill to overflow pages without moving the other columns.
    CREATE TABLE topic_message (
      consensus_ns           INTEGER PRIMARY KEY,
      topic_id               INTEGER NOT NULL,
      sequence_number        INTEGER NOT NULL,
      payer_id               INTEGER NOT NULL,
      running_hash_version   INTEGER,
      chunk_num              INTEGER,
      chunk_total            INTEGER,
      initial_transaction_id BLOB,
      valid_start_ns         INTEGER,
      running_hash_base64    TEXT    NOT NULL,
      message_base64         TEXT    NOT NULL
    );
    -- A topic's messages in consensus order (SQLite appends the rowid, the consensus time, to every index
    -- entry), and by sequence number. Both are read-only indexes (see catch-up-indexes.ts).
    CREATE INDEX topic_message_by_topic ON topic_message (topic_id);
    CREATE INDEX topic_message_by_sequence ON topic_message (topic_id, sequence_number);
    `,
  ],
  [
    "0031-topic-custom-fees-time",
    `
    -- When a topic's fee schedule was last set (its create, or an update that carried custom fees): the
    -- created_timestamp of /api/v1/topics/{id}'s custom_fees. Versions written before this column existed get
    -- the start of the oldest version, among those up to theirs, with the same fees and no other fees since.
    ALTER TABLE topic ADD COLUMN custom_fees_ns INTEGER;
    UPDATE topic SET custom_fees_ns = (
      SELECT MIN(p.valid_from) FROM topic p
      WHERE p.id = topic.id AND p.valid_from <= topic.valid_from AND p.custom_fees = topic.custom_fees
        AND NOT EXISTS (
          SELECT 1 FROM topic q
          WHERE q.id = topic.id AND q.valid_from > p.valid_from AND q.valid_from <= topic.valid_from
            AND q.custom_fees <> topic.custom_fees
        )
    );
    `,
  ],
];

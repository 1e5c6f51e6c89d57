import type { Migration } from "../migrations.ts";

/** Migrations of scheduled transactions (schedules): keys 0110-… to 0119-…. */
export const SCHEDULES_MIGRATIONS: readonly Migration[] = [
  [
    "0110-schedules",
    `
    -- Schedules (ScheduleCreate / ScheduleSign / ScheduleDelete and the execution that names one), versioned like
    -- entities: a successful ScheduleCreate opens the first version; the record that carries scheduleRef (the
    -- scheduled transaction's execution, failed or not) opens one with executed_ns; a successful ScheduleDelete
    -- opens one with deleted = 1. created_ns is the ScheduleCreate's consensus time; creator_id its payer;
    -- payer_id the body's payerAccountID (else the creator); expiration_ns the body's expiration_time (NULL when
    -- absent); transaction_body the SchedulableTransactionBody bytes as the body carried them; admin_key the
    -- protobuf Key bytes. About 150 bytes per schedule and version, plus the scheduled body.
    CREATE TABLE schedule (
      id               INTEGER NOT NULL,
      valid_from       INTEGER NOT NULL,
      valid_to         INTEGER,
      created_ns       INTEGER NOT NULL,
      creator_id       INTEGER NOT NULL,
      payer_id         INTEGER NOT NULL,
      expiration_ns    INTEGER,
      wait_for_expiry  INTEGER NOT NULL,
      memo             TEXT    NOT NULL,
      admin_key        BLOB,
      deleted          INTEGER NOT NULL,
      executed_ns      INTEGER,
      transaction_body BLOB    NOT NULL,
      PRIMARY KEY (id, valid_from)
    ) WITHOUT ROWID;
    -- The list pages on the current versions by id, or by creator then id (account.id=<one account>).
    CREATE UNIQUE INDEX schedule_current ON schedule (id) WHERE valid_to IS NULL;
    CREATE INDEX schedule_current_by_creator ON schedule (creator_id, id) WHERE valid_to IS NULL;

    -- The signatures a schedule collected: every pair of the signature map of each successful ScheduleCreate and
    -- ScheduleSign of it, a public key prefix repeated within one transaction kept once (the first). position is
    -- the pair's place among those kept, so a schedule's signatures read in consensus then signature-map order.
    -- type is the SignaturePair oneof field number (3 ED25519, 6 ECDSA_secp256k1, …). About 110 bytes a pair.
    CREATE TABLE schedule_signature (
      schedule_id       INTEGER NOT NULL,
      consensus_ns      INTEGER NOT NULL,
      position          INTEGER NOT NULL,
      public_key_prefix BLOB    NOT NULL,
      signature         BLOB    NOT NULL,
      type              INTEGER NOT NULL,
      PRIMARY KEY (schedule_id, consensus_ns, position)
    ) WITHOUT ROWID;
    `,
  ],
];

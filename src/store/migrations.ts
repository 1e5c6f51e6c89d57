import type { Db } from "./db.ts";
import { ACCOUNT_RELATIONS_MIGRATIONS } from "./migrations/account-relations.ts";
import { ACCOUNTS_MIGRATIONS } from "./migrations/accounts.ts";
import { BLOCK_STREAMS_MIGRATIONS } from "./migrations/block-streams.ts";
import { CONTRACTS_MIGRATIONS } from "./migrations/contracts.ts";
import { HARDENING_MIGRATIONS } from "./migrations/hardening.ts";
import { HOOKS_AND_REGISTERED_NODES_MIGRATIONS } from "./migrations/hooks-and-registered-nodes.ts";
import { READ_LAYOUT_MIGRATIONS, readLayoutRefusal } from "./migrations/read-layout.ts";
import { READ_PATH_MIGRATIONS } from "./migrations/read-path.ts";
import { ROBUST_MIGRATIONS } from "./migrations/robust.ts";
import { SCHEDULES_MIGRATIONS } from "./migrations/schedules.ts";
import { TOPIC_MESSAGES_MIGRATIONS } from "./migrations/topic-messages.ts";
import { TRANSACTIONS_MIGRATIONS } from "./migrations/transactions.ts";

/** A migration: its key (applied in key order, once) and its SQL. */
export type Migration = readonly [key: string, sql: string];

/**
 * Append-only schema migrations, applied in key order inside one transaction each. Never edit a migration that
 * has shipped: add a new one. The first ones are here; later groups keep theirs in `migrations/<group>.ts`, each
 * group with a range of keys of its own, so that groups written side by side never collide.
 *
 * Conventions: entity ids are the mirror node's encoded int64 (shard << 54 | realm << 38 | num); every
 * timestamp is int64 nanoseconds since the epoch; versioned things carry `[valid_from, valid_to)` with
 * `valid_to` NULL on the current version; keys are protobuf `Key` bytes.
 */
const CORE_MIGRATIONS: readonly Migration[] = [
  [
    "0001-core",
    `
    CREATE TABLE record_file (
      number          INTEGER PRIMARY KEY,
      name            TEXT    NOT NULL,
      version         INTEGER NOT NULL,
      hapi_major      INTEGER,
      hapi_minor      INTEGER,
      hapi_patch      INTEGER,
      hash            TEXT    NOT NULL, -- lower-case hex, 96 digits for SHA-384
      previous_hash   TEXT    NOT NULL,
      consensus_start INTEGER NOT NULL,
      consensus_end   INTEGER NOT NULL,
      count           INTEGER NOT NULL,
      size            INTEGER,
      gas_used        INTEGER NOT NULL,
      logs_bloom      BLOB    NOT NULL
    );
    CREATE INDEX record_file_consensus_end ON record_file (consensus_end);
    CREATE INDEX record_file_hash ON record_file (hash);

    -- The resume point: the last committed record file. Written in the same transaction as its rows.
    CREATE TABLE ingest_cursor (
      id            INTEGER PRIMARY KEY CHECK (id = 1),
      file_name     TEXT    NOT NULL,
      version       INTEGER NOT NULL,
      hash          BLOB    NOT NULL,
      block_number  INTEGER NOT NULL,
      consensus_end INTEGER NOT NULL
    );

    CREATE TABLE "transaction" (
      consensus_ns   INTEGER PRIMARY KEY,
      type           INTEGER NOT NULL,
      result         INTEGER NOT NULL,
      payer_id       INTEGER NOT NULL,
      valid_start_ns INTEGER NOT NULL,
      nonce          INTEGER NOT NULL,
      scheduled      INTEGER NOT NULL,
      charged_fee    INTEGER NOT NULL,
      entity_id      INTEGER,
      block_number   INTEGER NOT NULL
    );

    CREATE TABLE token_transfer (
      consensus_ns INTEGER NOT NULL,
      token_id     INTEGER NOT NULL,
      account_id   INTEGER NOT NULL,
      amount       INTEGER NOT NULL,
      is_approval  INTEGER NOT NULL
    );
    CREATE INDEX token_transfer_consensus ON token_transfer (consensus_ns);

    CREATE TABLE nft_transfer (
      consensus_ns INTEGER NOT NULL,
      token_id     INTEGER NOT NULL,
      serial       INTEGER NOT NULL,
      sender_id    INTEGER,
      receiver_id  INTEGER,
      is_approval  INTEGER NOT NULL
    );
    CREATE INDEX nft_transfer_consensus ON nft_transfer (consensus_ns);

    -- Accounts, tokens and every other entity: the fields the mirror node keeps on its entity table.
    CREATE TABLE entity (
      id                    INTEGER NOT NULL,
      valid_from            INTEGER NOT NULL,
      valid_to              INTEGER,
      type                  TEXT    NOT NULL,
      created_ns            INTEGER,
      deleted               INTEGER,
      memo                  TEXT    NOT NULL DEFAULT '',
      key                   BLOB,
      public_key            TEXT,
      auto_renew_account_id INTEGER,
      auto_renew_period     INTEGER,
      expiration_ns         INTEGER,
      alias                 BLOB,
      evm_address           BLOB,
      PRIMARY KEY (id, valid_from)
    ) WITHOUT ROWID;
    CREATE INDEX entity_current_public_key ON entity (public_key, id) WHERE valid_to IS NULL;

    CREATE TABLE token (
      id               INTEGER NOT NULL,
      valid_from       INTEGER NOT NULL,
      valid_to         INTEGER,
      created_ns       INTEGER NOT NULL,
      name             TEXT    NOT NULL,
      symbol           TEXT    NOT NULL,
      decimals         INTEGER NOT NULL,
      initial_supply   INTEGER NOT NULL,
      max_supply       INTEGER NOT NULL,
      supply_type      TEXT    NOT NULL,
      type             TEXT    NOT NULL,
      treasury_id      INTEGER NOT NULL,
      freeze_default   INTEGER NOT NULL,
      freeze_key       BLOB,
      kyc_key          BLOB,
      wipe_key         BLOB,
      supply_key       BLOB,
      fee_schedule_key BLOB,
      pause_key        BLOB,
      metadata_key     BLOB,
      metadata         BLOB,
      pause_status     TEXT    NOT NULL,
      PRIMARY KEY (id, valid_from)
    ) WITHOUT ROWID;

    -- total_supply changes (mint, burn, wipe, deleted-token dissociation) without opening a token version,
    -- so it keeps a history of its own: the supply at T is the newest row at or before T.
    CREATE TABLE token_supply (
      token_id     INTEGER NOT NULL,
      valid_from   INTEGER NOT NULL,
      total_supply INTEGER NOT NULL,
      PRIMARY KEY (token_id, valid_from)
    ) WITHOUT ROWID;

    -- One version per fee schedule; fees is a JSON array whose int64 values are strings (see encode.ts).
    CREATE TABLE custom_fee (
      token_id   INTEGER NOT NULL,
      valid_from INTEGER NOT NULL,
      valid_to   INTEGER,
      fees       TEXT    NOT NULL,
      PRIMARY KEY (token_id, valid_from)
    ) WITHOUT ROWID;

    -- The relationship of an account with a token. balance/balance_ns are updated in place on the current
    -- version (as the mirror node does); token_balance keeps the exact balance history.
    CREATE TABLE token_account (
      token_id              INTEGER NOT NULL,
      account_id            INTEGER NOT NULL,
      valid_from            INTEGER NOT NULL,
      valid_to              INTEGER,
      associated            INTEGER NOT NULL,
      automatic_association INTEGER NOT NULL,
      freeze_status         TEXT    NOT NULL,
      kyc_status            TEXT    NOT NULL,
      created_ns            INTEGER NOT NULL,
      balance               INTEGER NOT NULL,
      balance_ns            INTEGER,
      PRIMARY KEY (token_id, account_id, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX token_account_current ON token_account (token_id, account_id) WHERE valid_to IS NULL;
    CREATE INDEX token_account_current_by_account ON token_account (account_id, token_id) WHERE valid_to IS NULL;

    CREATE TABLE token_balance (
      token_id   INTEGER NOT NULL,
      account_id INTEGER NOT NULL,
      valid_from INTEGER NOT NULL,
      balance    INTEGER NOT NULL,
      PRIMARY KEY (token_id, account_id, valid_from)
    ) WITHOUT ROWID;

    CREATE TABLE nft (
      token_id           INTEGER NOT NULL,
      serial             INTEGER NOT NULL,
      valid_from         INTEGER NOT NULL,
      valid_to           INTEGER,
      account_id         INTEGER,
      created_ns         INTEGER,
      deleted            INTEGER NOT NULL,
      metadata           BLOB,
      spender            INTEGER,
      delegating_spender INTEGER,
      PRIMARY KEY (token_id, serial, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX nft_current ON nft (token_id, serial) WHERE valid_to IS NULL;
    CREATE INDEX nft_current_by_owner ON nft (token_id, account_id, serial) WHERE valid_to IS NULL;
    `,
  ],
  [
    "0002-current-token-and-entity",
    `
    -- The token list and the NFT and balance lists join the current token and entity versions by id: one seek
    -- each instead of a walk over every version of the id.
    CREATE INDEX token_current ON token (id) WHERE valid_to IS NULL;
    CREATE INDEX entity_current ON entity (id) WHERE valid_to IS NULL;
    `,
  ],
  [
    "0010-network-files",
    `
    -- Contents of every successful FileCreate (17), FileUpdate (19) and FileAppend (16) of a system file (num
    -- below 1000), as the transaction body carried them. A file "as of" bounds is rebuilt from these rows
    -- (store/system-files.ts).
    CREATE TABLE file_data (
      file_id      INTEGER NOT NULL,
      consensus_ns INTEGER NOT NULL,
      type         INTEGER NOT NULL,
      contents     BLOB    NOT NULL,
      PRIMARY KEY (file_id, consensus_ns)
    ) WITHOUT ROWID;

    -- Every version of 0.0.101 / 0.0.102 that parsed as a NodeAddressBook: valid over [start_ns, end_ns), where
    -- start_ns is the consensus time of the transaction that completed it + 1 ns.
    CREATE TABLE address_book (
      file_id    INTEGER NOT NULL,
      start_ns   INTEGER NOT NULL,
      end_ns     INTEGER,
      node_count INTEGER NOT NULL,
      PRIMARY KEY (file_id, start_ns)
    ) WITHOUT ROWID;

    -- One row per node of an address book; service_endpoints is a JSON array of
    -- {"domain_name","ip_address_v4","port"} objects.
    CREATE TABLE address_book_entry (
      file_id           INTEGER NOT NULL,
      start_ns          INTEGER NOT NULL,
      node_id           INTEGER NOT NULL,
      account_id        INTEGER NOT NULL,
      description       TEXT    NOT NULL,
      memo              TEXT,
      public_key        TEXT    NOT NULL,
      node_cert_hash    BLOB,
      stake             INTEGER NOT NULL,
      service_endpoints TEXT    NOT NULL,
      PRIMARY KEY (file_id, start_ns, node_id)
    ) WITHOUT ROWID;

    -- Consensus nodes from NodeCreate / NodeUpdate / NodeDelete (HIP-869), versioned like entities. Endpoint
    -- lists and the gRPC proxy endpoint are JSON; associated_registered_nodes is a JSON array of int64 strings.
    CREATE TABLE node (
      node_id                     INTEGER NOT NULL,
      valid_from                  INTEGER NOT NULL,
      valid_to                    INTEGER,
      created_ns                  INTEGER NOT NULL,
      deleted                     INTEGER NOT NULL,
      account_id                  INTEGER,
      admin_key                   BLOB,
      description                 TEXT,
      decline_reward              INTEGER NOT NULL,
      grpc_proxy_endpoint         TEXT,
      gossip_endpoints            TEXT,
      service_endpoints           TEXT,
      associated_registered_nodes TEXT,
      PRIMARY KEY (node_id, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX node_current ON node (node_id) WHERE valid_to IS NULL;

    -- One row per successful NodeStakeUpdate (network-wide values) and one per node it lists.
    CREATE TABLE network_stake (
      consensus_ns                      INTEGER PRIMARY KEY,
      max_stake_rewarded                INTEGER NOT NULL,
      max_staking_reward_rate_per_hbar  INTEGER NOT NULL,
      max_total_reward                  INTEGER NOT NULL,
      node_reward_fee_numerator         INTEGER NOT NULL,
      node_reward_fee_denominator       INTEGER NOT NULL,
      reserved_staking_rewards          INTEGER NOT NULL,
      reward_balance_threshold          INTEGER NOT NULL,
      stake_total                       INTEGER NOT NULL,
      staking_period_ns                 INTEGER NOT NULL,
      staking_period_duration           INTEGER NOT NULL,
      staking_periods_stored            INTEGER NOT NULL,
      staking_reward_fee_numerator      INTEGER NOT NULL,
      staking_reward_fee_denominator    INTEGER NOT NULL,
      staking_reward_rate               INTEGER NOT NULL,
      staking_start_threshold           INTEGER NOT NULL,
      unreserved_staking_reward_balance INTEGER NOT NULL
    );
    CREATE TABLE node_stake (
      consensus_ns       INTEGER NOT NULL,
      node_id            INTEGER NOT NULL,
      max_stake          INTEGER NOT NULL,
      min_stake          INTEGER NOT NULL,
      reward_rate        INTEGER NOT NULL,
      stake              INTEGER NOT NULL,
      stake_not_rewarded INTEGER NOT NULL,
      stake_rewarded     INTEGER NOT NULL,
      staking_period_ns  INTEGER NOT NULL,
      PRIMARY KEY (consensus_ns, node_id)
    ) WITHOUT ROWID;
    `,
  ],
  [
    "0011-hbar-balances",
    `
    -- Where the hbar balance history starts: a balance snapshot (or the genesis state) at consensus_ns. Without
    -- this row no hbar balance is known, and none is tracked. shard/realm: the stream's, which decide the
    -- unreleased supply accounts.
    CREATE TABLE hbar_start (
      id           INTEGER PRIMARY KEY CHECK (id = 1),
      consensus_ns INTEGER NOT NULL,
      source       TEXT    NOT NULL,
      shard        INTEGER NOT NULL,
      realm        INTEGER NOT NULL
    );

    -- Exact hbar balance history, written once per record file per account (see store/hbar-ledger.ts): the
    -- balance after the account's first change in the file is at valid_from; when it changed more than once
    -- in the file, changes holds every (consensus_ns, balance) pair of the file as little-endian int64s; balance
    -- is always the balance after the file.
    CREATE TABLE hbar_balance (
      account_id INTEGER NOT NULL,
      valid_from INTEGER NOT NULL,
      balance    INTEGER NOT NULL,
      changes    BLOB,
      PRIMARY KEY (account_id, valid_from)
    ) WITHOUT ROWID;

    -- The summed balance of the unreleased supply accounts after every change of any of them (the starting
    -- state counts as one): the supply at T is the newest row at or before T.
    CREATE TABLE hbar_supply (
      valid_from INTEGER PRIMARY KEY,
      unreleased INTEGER NOT NULL
    ) WITHOUT ROWID;
    `,
  ],
  [
    "0012-topics",
    `
    -- Consensus topics with history (ConsensusCreateTopic / UpdateTopic / DeleteTopic). custom_fees is a JSON
    -- array of fixed fees in the custom_fee encoding (int64 values as strings); fee_exempt_keys is the protobuf
    -- FeeExemptKeyList bytes. STATE-mode fee estimation reads the current version.
    CREATE TABLE topic (
      id                    INTEGER NOT NULL,
      valid_from            INTEGER NOT NULL,
      valid_to              INTEGER,
      created_ns            INTEGER NOT NULL,
      deleted               INTEGER NOT NULL,
      memo                  TEXT    NOT NULL,
      admin_key             BLOB,
      submit_key            BLOB,
      fee_schedule_key      BLOB,
      fee_exempt_keys       BLOB,
      custom_fees           TEXT    NOT NULL,
      auto_renew_account_id INTEGER,
      auto_renew_period     INTEGER,
      expiration_ns         INTEGER,
      PRIMARY KEY (id, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX topic_current ON topic (id) WHERE valid_to IS NULL;
    `,
  ],
];

/** Every migration, in the order applied. */
export const MIGRATIONS: readonly Migration[] = [
  ...CORE_MIGRATIONS,
  ...TRANSACTIONS_MIGRATIONS,
  ...TOPIC_MESSAGES_MIGRATIONS,
  ...ACCOUNTS_MIGRATIONS,
  ...ACCOUNT_RELATIONS_MIGRATIONS,
  ...BLOCK_STREAMS_MIGRATIONS,
  ...HARDENING_MIGRATIONS,
  ...READ_PATH_MIGRATIONS,
  ...SCHEDULES_MIGRATIONS,
  ...HOOKS_AND_REGISTERED_NODES_MIGRATIONS,
  ...READ_LAYOUT_MIGRATIONS,
  ...CONTRACTS_MIGRATIONS,
  ...ROBUST_MIGRATIONS,
].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export function migrate(db: Db): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migration (key TEXT PRIMARY KEY, applied_ns INTEGER NOT NULL)");
  const applied = new Set(
    db
      .prepare("SELECT key FROM schema_migration")
      .pluck()
      .all()
      .map((k) => String(k)),
  );
  const record = db.prepare("INSERT INTO schema_migration (key, applied_ns) VALUES (?, ?)");
  for (const [key, sql] of MIGRATIONS) {
    if (applied.has(key)) continue;
    // A migration that would silently lose derived data refuses the index instead (one line: re-ingest).
    const refusal = readLayoutRefusal(key, db);
    if (refusal !== null) throw new Error(refusal);
    db.transaction(() => {
      db.exec(sql);
      record.run(key, BigInt(Date.now()) * 1_000_000n);
    })();
  }
}

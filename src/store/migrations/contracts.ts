import type { Migration } from "../migrations.ts";

/**
 * Migrations of the contracts group (issue 22): keys 0100-… to 0109-…. docs/contracts-schema.md describes every
 * table, column and index below and which endpoint reads it.
 *
 * Byte conventions (as upstream stores them): ids are encoded int64 entity ids; hashes, addresses, topics, slots
 * and values are raw bytes (BLOB), never hex text. Topics, slots and values keep upstream's trimming (leading
 * zero bytes removed) where the column says so, so a filter value trimmed the same way is one equality seek.
 */
export const CONTRACTS_MIGRATIONS: readonly Migration[] = [
  [
    "0100-contracts",
    `
    -- Contract entities live in entity (type 'CONTRACT', versioned like accounts); these are the upstream entity
    -- columns only contracts set. NULL on every other entity.
    ALTER TABLE entity ADD COLUMN obtainer_id INTEGER;
    ALTER TABLE entity ADD COLUMN permanent_removal INTEGER;
    ALTER TABLE entity ADD COLUMN proxy_account_id INTEGER;
    -- /contracts walks current contracts in id order.
    CREATE INDEX entity_current_contract ON entity (id) WHERE valid_to IS NULL AND type = 'CONTRACT';

    -- What a contract runs, one row per contract (not versioned, as upstream's contract table): file_id of the
    -- ContractCreate body (or its parent's), initcode (body, else the bytecode sidecar / block trace), runtime
    -- bytecode (bytecode sidecar / block state changes; a migration sidecar replaces it in place).
    CREATE TABLE contract (
      id               INTEGER PRIMARY KEY,
      file_id          INTEGER,
      initcode         BLOB,
      runtime_bytecode BLOB
    );

    -- One packed row per contract result (contracts.md §3.1-3.2), immutable. Clustered by contract and time so a
    -- contract's results page is one range read; consensus_ns is unique (one result per record).
    --   call_result, bloom, gas_used: NULL when the record had no function result (206); bloom is empty when the
    --     record's bloom was 256 zero bytes.
    --   sender_id: fr.sender_id, else the payer. amount: tinybars. created_contract_ids: encoded ids as a JSON
    --     array of decimal strings ('[]' when none). error_message: NULL when empty.
    --   transaction_hash: 32 bytes (Ethereum hash, else the first 32 bytes of the 48-byte record hash).
    --   transaction_nonce: the transaction id's nonce (0 top-level, > 0 child: 'internal').
    --   transaction_index: position in its record file / block (children counted). block_number: its block.
    --   type: the transaction type id (7 call, 8 create, 50 ethereum, ... for precompile children).
    CREATE TABLE contract_result (
      contract_id          INTEGER NOT NULL,
      consensus_ns         INTEGER NOT NULL,
      payer_id             INTEGER NOT NULL,
      sender_id            INTEGER,
      type                 INTEGER NOT NULL,
      amount               INTEGER NOT NULL,
      gas_limit            INTEGER NOT NULL,
      gas_used             INTEGER,
      gas_consumed         INTEGER,
      function_parameters  BLOB    NOT NULL,
      call_result          BLOB,
      bloom                BLOB,
      error_message        TEXT,
      created_contract_ids TEXT    NOT NULL,
      failed_initcode      BLOB,
      transaction_hash     BLOB    NOT NULL,
      transaction_index    INTEGER NOT NULL,
      transaction_nonce    INTEGER NOT NULL,
      transaction_result   INTEGER NOT NULL,
      block_number         INTEGER NOT NULL,
      PRIMARY KEY (contract_id, consensus_ns)
    ) WITHOUT ROWID;
    -- /contracts/results (global time order), lookups by timestamp or transaction id: one seek by time.
    CREATE UNIQUE INDEX contract_result_time ON contract_result (consensus_ns);
    -- from= on both result lists.
    CREATE INDEX contract_result_sender ON contract_result (sender_id, consensus_ns);

    -- /contracts/results/{hash} and /actions by hash: every contract result's 32-byte transaction_hash.
    CREATE TABLE contract_transaction_hash (
      hash               BLOB    NOT NULL,
      consensus_ns       INTEGER NOT NULL,
      entity_id          INTEGER NOT NULL,
      payer_id           INTEGER NOT NULL,
      transaction_result INTEGER NOT NULL,
      PRIMARY KEY (hash, consensus_ns)
    ) WITHOUT ROWID;

    -- One row per EthereumTransaction whose ethereumData decoded (failed ones included), contracts.md §3.3.
    -- Byte columns are the RLP bytes as sent (weibar amounts, big-endian); value is minimal two's complement.
    -- access_list: the list item's content bytes (NULL for legacy); authorization_list: JSON (type 4) or NULL.
    -- hash: the record's ethereum_hash, else keccak-256 of the (re-encoded) transaction; NULL when not computable.
    CREATE TABLE ethereum_transaction (
      consensus_ns             INTEGER PRIMARY KEY,
      payer_id                 INTEGER NOT NULL,
      type                     INTEGER NOT NULL,
      chain_id                 BLOB,
      nonce                    INTEGER NOT NULL,
      gas_price                BLOB,
      max_fee_per_gas          BLOB,
      max_priority_fee_per_gas BLOB,
      gas_limit                INTEGER NOT NULL,
      to_address               BLOB,
      value                    BLOB,
      call_data                BLOB,
      call_data_id             INTEGER,
      access_list              BLOB,
      authorization_list       TEXT,
      signature_v              BLOB,
      recovery_id              INTEGER,
      signature_r              BLOB,
      signature_s              BLOB,
      max_gas_allowance        INTEGER,
      hash                     BLOB
    );

    -- Logs, one packed row each (contracts.md §5.1). topic0..3: leading zero bytes removed (one byte kept), NULL
    -- when absent. index: per-transaction counter from 0. transaction_hash/_index: those of the result (kept on
    -- the log so a logs page needs no join). root_contract_id: the result's contract.
    CREATE TABLE contract_log (
      contract_id       INTEGER NOT NULL,
      consensus_ns      INTEGER NOT NULL,
      "index"           INTEGER NOT NULL,
      root_contract_id  INTEGER,
      payer_id          INTEGER NOT NULL,
      bloom             BLOB    NOT NULL,
      data              BLOB    NOT NULL,
      topic0            BLOB,
      topic1            BLOB,
      topic2            BLOB,
      topic3            BLOB,
      transaction_hash  BLOB    NOT NULL,
      transaction_index INTEGER NOT NULL,
      PRIMARY KEY (contract_id, consensus_ns, "index")
    ) WITHOUT ROWID;
    -- /contracts/results/logs: every log in (timestamp, index) order; a result's logs by timestamp.
    CREATE UNIQUE INDEX contract_log_time ON contract_log (consensus_ns, "index");
    -- Topic filters (which upstream only takes with a timestamp range of at most 7 days): one range seek per topic
    -- value within the range, never a walk over every log of the range. Entries carry contract_id (the key).
    CREATE INDEX contract_log_topic0 ON contract_log (topic0, consensus_ns, "index") WHERE topic0 IS NOT NULL;
    CREATE INDEX contract_log_topic1 ON contract_log (topic1, consensus_ns, "index") WHERE topic1 IS NOT NULL;
    CREATE INDEX contract_log_topic2 ON contract_log (topic2, consensus_ns, "index") WHERE topic2 IS NOT NULL;
    CREATE INDEX contract_log_topic3 ON contract_log (topic3, consensus_ns, "index") WHERE topic3 IS NOT NULL;

    -- Storage reads and writes of each result (CONTRACT_STATE_CHANGE sidecar; block trace slot usages), one row
    -- per (contract, slot) of a transaction. slot and value_read trimmed (zero is empty); value_written NULL for a
    -- read, empty for a zero written. migration: from a migration sidecar record.
    CREATE TABLE contract_state_change (
      consensus_ns  INTEGER NOT NULL,
      contract_id   INTEGER NOT NULL,
      slot          BLOB    NOT NULL,
      payer_id      INTEGER NOT NULL,
      value_read    BLOB    NOT NULL,
      value_written BLOB,
      migration     INTEGER NOT NULL,
      PRIMARY KEY (consensus_ns, contract_id, slot)
    ) WITHOUT ROWID;
    -- /contracts/{id}/state?timestamp=: per slot (trimmed bytes, upstream's order) the latest change in a range.
    CREATE INDEX contract_state_change_slot ON contract_state_change (contract_id, slot, consensus_ns);

    -- Every storage slot's value history (written values; a migration's read value), versioned [valid_from,
    -- valid_to): the value of (contract, slot) at T is one seek on the key; the current state is valid_to IS
    -- NULL. slot: 32 bytes, left-padded (numeric order); value: as written (trimmed, zero is empty).
    -- created_ns: when the slot was first written (upstream's created_timestamp).
    CREATE TABLE contract_state (
      contract_id INTEGER NOT NULL,
      slot        BLOB    NOT NULL,
      valid_from  INTEGER NOT NULL,
      valid_to    INTEGER,
      value       BLOB    NOT NULL,
      created_ns  INTEGER NOT NULL,
      PRIMARY KEY (contract_id, slot, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX contract_state_current ON contract_state (contract_id, slot) WHERE valid_to IS NULL;

    -- The call tree of each result (CONTRACT_ACTION sidecar; block trace contract_actions), contracts.md §7.
    -- caller_type / recipient: which oneof member was set. result_data_type: 11 output, 12 revert, 13 error.
    CREATE TABLE contract_action (
      consensus_ns        INTEGER NOT NULL,
      "index"             INTEGER NOT NULL,
      payer_id            INTEGER NOT NULL,
      call_depth          INTEGER NOT NULL,
      call_type           INTEGER NOT NULL,
      call_operation_type INTEGER NOT NULL,
      caller              INTEGER,
      caller_type         TEXT,
      gas                 INTEGER NOT NULL,
      gas_used            INTEGER NOT NULL,
      value               INTEGER NOT NULL,
      input               BLOB,
      recipient_account   INTEGER,
      recipient_contract  INTEGER,
      recipient_address   BLOB,
      result_data         BLOB,
      result_data_type    INTEGER NOT NULL,
      PRIMARY KEY (consensus_ns, "index")
    ) WITHOUT ROWID;
    `,
  ],
];

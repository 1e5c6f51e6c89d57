import type { Migration } from "../migrations.ts";

/** Migrations of hooks (HIP-1195) and registered nodes (HIP-1137): keys 0120-… to 0129-…. */
export const HOOKS_AND_REGISTERED_NODES_MIGRATIONS: readonly Migration[] = [
  [
    "0120-hooks",
    `
    -- Hooks, one versioned row per (owner, hook id): created by CryptoCreate/CryptoUpdate/ContractCreate/
    -- ContractUpdate hook_creation_details, marked deleted by hook_ids_to_delete. extension_point and type are
    -- the HAPI enum numbers (0: ACCOUNT_ALLOWANCE_HOOK; 0: EVM). admin_key is protobuf Key bytes.
    CREATE TABLE hook (
      owner_id        INTEGER NOT NULL,
      hook_id         INTEGER NOT NULL,
      valid_from      INTEGER NOT NULL,
      valid_to        INTEGER,
      contract_id     INTEGER,
      admin_key       BLOB,
      created_ns      INTEGER,
      deleted         INTEGER NOT NULL,
      extension_point INTEGER NOT NULL,
      type            INTEGER NOT NULL,
      PRIMARY KEY (owner_id, hook_id, valid_from)
    ) WITHOUT ROWID;
    -- An owner's current hooks in hook id order: /accounts/{id}/hooks is one range read.
    CREATE UNIQUE INDEX hook_current ON hook (owner_id, hook_id) WHERE valid_to IS NULL;

    -- Every storage access of a hook (HookStore bodies, creation storage_updates), append-only. key is the slot
    -- as logged (minimal big-endian bytes for explicit slots, 32 bytes for mapping-derived ones), value_read
    -- and value_written without leading zero bytes; value_written NULL for a read. The time comes last in the
    -- key, so the newest access of each slot of a hook in a window is a range read.
    CREATE TABLE hook_storage_change (
      owner_id      INTEGER NOT NULL,
      hook_id       INTEGER NOT NULL,
      key           BLOB    NOT NULL,
      consensus_ns  INTEGER NOT NULL,
      value_read    BLOB    NOT NULL,
      value_written BLOB,
      PRIMARY KEY (owner_id, hook_id, key, consensus_ns)
    ) WITHOUT ROWID;

    -- The current storage of a hook: one row per slot (key left-padded to 32 bytes), the last written value
    -- (leading zero bytes removed; empty: the slot is deleted, kept with deleted = 1 as upstream keeps it).
    CREATE TABLE hook_storage (
      owner_id    INTEGER NOT NULL,
      hook_id     INTEGER NOT NULL,
      key         BLOB    NOT NULL,
      value       BLOB    NOT NULL,
      created_ns  INTEGER NOT NULL,
      modified_ns INTEGER NOT NULL,
      deleted     INTEGER NOT NULL,
      PRIMARY KEY (owner_id, hook_id, key)
    ) WITHOUT ROWID;
    `,
  ],
  [
    "0121-registered-nodes",
    `
    -- Registered nodes (block nodes, mirror nodes, relays…), versioned. service_endpoints is the JSON list as
    -- answered (address text or domain, port, TLS flag, kind and its details); type_mask has bit k set for
    -- each endpoint kind k (0 none, 1 block node, 2 general service, 3 mirror node, 4 RPC relay).
    CREATE TABLE registered_node (
      registered_node_id INTEGER NOT NULL,
      valid_from         INTEGER NOT NULL,
      valid_to           INTEGER,
      admin_key          BLOB,
      created_ns         INTEGER,
      deleted            INTEGER NOT NULL,
      description        TEXT,
      service_endpoints  TEXT    NOT NULL,
      type_mask          INTEGER NOT NULL,
      PRIMARY KEY (registered_node_id, valid_from)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX registered_node_current ON registered_node (registered_node_id) WHERE valid_to IS NULL;
    `,
  ],
];

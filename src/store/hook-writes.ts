/**
 * Writes of hooks (HIP-1195) and registered nodes (HIP-1137): the versioned `hook` and `registered_node` tables
 * (write-behind, as every versioned table) and hook storage, written through: each access one row of
 * `hook_storage_change`, each write also an upsert of the slot's current row in `hook_storage`.
 */
import type { Db } from "./db.ts";
import { createVersionedTable, type VersionedTable } from "./versioned.ts";

/** One access to a hook's storage slot. Values without leading zero bytes; `written` null for a read. */
export type HookStorageAccess = {
  ownerId: bigint;
  hookId: bigint;
  /** The slot as logged (minimal bytes, or 32 for a mapping-derived slot). */
  key: Uint8Array;
  consensusNs: bigint;
  read: Uint8Array;
  written: Uint8Array | null;
};

export type HookWrites = {
  /** `hook`: key (owner_id, hook_id). */
  hooks: VersionedTable;
  /** `registered_node`: key (registered_node_id). */
  registeredNodes: VersionedTable;
  /** Logs an access and, for a write, sets the slot's current value (an empty value deletes it). */
  storageAccess(access: HookStorageAccess): void;
  flush(): void;
  reset(): void;
};

const SLOT_BYTES = 32;

/** `bytes` left-padded with zeros to 32 bytes (slots are 32-byte words). */
export function padSlot(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= SLOT_BYTES) return bytes.subarray(bytes.length - SLOT_BYTES);
  const out = new Uint8Array(SLOT_BYTES);
  out.set(bytes, SLOT_BYTES - bytes.length);
  return out;
}

export function createHookWrites(db: Db): HookWrites {
  const hooks = createVersionedTable(
    db,
    "hook",
    ["owner_id", "hook_id"],
    ["contract_id", "admin_key", "created_ns", "deleted", "extension_point", "type"],
  );
  const registeredNodes = createVersionedTable(
    db,
    "registered_node",
    ["registered_node_id"],
    ["admin_key", "created_ns", "deleted", "description", "service_endpoints", "type_mask"],
  );
  // Re-delivering a file writes the same rows again: the log keeps its first copy.
  const insertChange = db.prepare(
    `INSERT INTO hook_storage_change (owner_id, hook_id, key, consensus_ns, value_read, value_written)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const upsertSlot = db.prepare(
    `INSERT INTO hook_storage (owner_id, hook_id, key, value, created_ns, modified_ns, deleted)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (owner_id, hook_id, key) DO UPDATE SET value = excluded.value,
       modified_ns = excluded.modified_ns, deleted = excluded.deleted`,
  );
  return {
    hooks,
    registeredNodes,
    storageAccess(a) {
      insertChange.run(a.ownerId, a.hookId, a.key, a.consensusNs, a.read, a.written);
      if (a.written === null) return;
      const deleted = a.written.length === 0 ? 1 : 0;
      upsertSlot.run(a.ownerId, a.hookId, padSlot(a.key), a.written, a.consensusNs, a.consensusNs, deleted);
    },
    flush() {
      hooks.flush();
      registeredNodes.flush();
    },
    reset() {
      hooks.reset();
      registeredNodes.reset();
    },
  };
}

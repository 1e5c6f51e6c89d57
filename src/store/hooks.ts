/**
 * Reads of hooks, hook storage and registered nodes (`/api/v1/accounts/{id}/hooks`, `…/hooks/{hookId}/storage`,
 * `/api/v1/network/registered-nodes`). Every list is one range read on a primary key or on a current-row index;
 * an IN set is one JSON parameter (value-list.ts), so its length never changes the statement text.
 */
import type { StatementCache } from "./conditions.ts";
import type { Db } from "./db.ts";
import { inList, jsonList, type ListValue } from "./value-list.ts";

export type ListOrder = "asc" | "desc";

export type HookRow = {
  hook_id: bigint;
  contract_id: bigint | null;
  admin_key: Uint8Array | null;
  created_ns: bigint | null;
  deleted: bigint;
  valid_from: bigint;
};

export type HookStorageRow = { key: Uint8Array; value: Uint8Array | null; timestamp_ns: bigint };

export type RegisteredNodeRow = {
  registered_node_id: bigint;
  admin_key: Uint8Array | null;
  created_ns: bigint | null;
  description: string | null;
  service_endpoints: string;
  valid_from: bigint;
};

/** Inclusive bounds on an integer or byte key, and an optional set of exact values (already within them). */
export type KeyRange<K> = { lower: K; upper: K; values: readonly K[] | null };

export type HookQueries = {
  /** An owner's current hooks (deleted ones included) by hook id. */
  listHooks(ownerId: bigint, ids: KeyRange<bigint>, order: ListOrder, limit: number): HookRow[];
  /** The current, not deleted slots of a hook by 32-byte key. */
  currentStorage(
    ownerId: bigint,
    hookId: bigint,
    keys: KeyRange<Uint8Array>,
    order: ListOrder,
    limit: number,
  ): HookStorageRow[];
  /** The newest logged access of each slot in [fromNs, toNs], by logged key bytes. */
  storageAsOf(
    ownerId: bigint,
    hookId: bigint,
    keys: KeyRange<Uint8Array>,
    fromNs: bigint,
    toNs: bigint,
    order: ListOrder,
    limit: number,
  ): HookStorageRow[];
  /** Current registered nodes not deleted, by id, optionally with an endpoint kind (bit mask). */
  listRegisteredNodes(
    lower: bigint,
    upper: bigint,
    typeMask: bigint | null,
    order: ListOrder,
    limit: number,
  ): RegisteredNodeRow[];
};

const dir = (order: ListOrder) => (order === "asc" ? "ASC" : "DESC");
/** ` AND column IN (…)` with its one JSON parameter (value-list.ts), or nothing for no values. */
const andIn = (column: string, values: readonly ListValue[]): [string, string[]] => {
  if (values.length === 0) return ["", []];
  const [sql, param] = inList(column, values);
  return [` AND ${sql}`, [param]];
};

export function createHookQueries(_db: Db, statements: StatementCache): HookQueries {
  return {
    listHooks(ownerId, ids, order, limit) {
      const [idsIn, values] = andIn("hook_id", ids.values ?? []);
      const sql = `SELECT hook_id, contract_id, admin_key, created_ns, deleted, valid_from FROM hook
        WHERE owner_id = ? AND valid_to IS NULL AND hook_id >= ? AND hook_id <= ?${idsIn}
        ORDER BY hook_id ${dir(order)} LIMIT +?`;
      return statements(sql).all(ownerId, ids.lower, ids.upper, ...values, limit) as HookRow[];
    },
    currentStorage(ownerId, hookId, keys, order, limit) {
      const [keysIn, values] = andIn("key", keys.values ?? []);
      const sql = `SELECT key, value, modified_ns AS timestamp_ns FROM hook_storage
        WHERE owner_id = ? AND hook_id = ? AND key >= ? AND key <= ?${keysIn} AND deleted = 0
        ORDER BY key ${dir(order)} LIMIT +?`;
      return statements(sql).all(
        ownerId,
        hookId,
        keys.lower,
        keys.upper,
        ...values,
        limit,
      ) as HookStorageRow[];
    },
    storageAsOf(ownerId, hookId, keys, fromNs, toNs, order, limit) {
      // Upstream: with exact keys the range is not applied (the keys were checked against it already).
      const values = keys.values ?? [];
      const keyCondition = values.length === 0 ? "key >= ? AND key <= ?" : inList("key", values)[0];
      const keyArgs = values.length === 0 ? [keys.lower, keys.upper] : [jsonList(values)];
      // SQLite returns the other columns of the row holding MAX(): the newest access of each key.
      const sql = `SELECT key, value_written AS value, MAX(consensus_ns) AS timestamp_ns FROM hook_storage_change
        WHERE owner_id = ? AND hook_id = ? AND ${keyCondition} AND consensus_ns >= ? AND consensus_ns <= ?
        GROUP BY key ORDER BY key ${dir(order)} LIMIT +?`;
      return statements(sql).all(ownerId, hookId, ...keyArgs, fromNs, toNs, limit) as HookStorageRow[];
    },
    listRegisteredNodes(lower, upper, typeMask, order, limit) {
      const typeCondition = typeMask === null ? "" : " AND (type_mask & ?) <> 0";
      const sql = `SELECT registered_node_id, admin_key, created_ns, description, service_endpoints, valid_from
        FROM registered_node
        WHERE valid_to IS NULL AND registered_node_id >= ? AND registered_node_id <= ? AND deleted = 0${typeCondition}
        ORDER BY registered_node_id ${dir(order)} LIMIT +?`;
      const args = typeMask === null ? [lower, upper, limit] : [lower, upper, typeMask, limit];
      return statements(sql).all(...args) as RegisteredNodeRow[];
    },
  };
}

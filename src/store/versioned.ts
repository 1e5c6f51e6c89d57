import { createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";

export type Row = Record<string, unknown>;

/**
 * Writes to a table of versions with `[valid_from, valid_to)` ranges. A change at consensus time t closes the
 * current version at t and opens a new one from t that copies every column the change did not set. Two changes
 * at the same t (a transaction's body and then its transfer lists) fold into one version.
 *
 * Writes are held in memory (write-behind) until `flush()`, which ingestion calls once per commit group (whole
 * record files sharing one SQLite transaction), just before the commit: an NFT minted and moved in the group,
 * or an association whose balance changes a hundred times, costs one row write instead of one per change (the
 * table also flushes when its cache is full). Cached rows hold values as a read would return them (integers
 * and booleans as bigint). `reset()` must be called when a group's transaction rolls back.
 */
export type VersionedTable = {
  /** The current version of the thing identified by `key`, or undefined. */
  current(key: readonly unknown[]): Row | undefined;
  /** Opens the first version (or a new one, if the thing exists already) with every data column given. */
  create(key: readonly unknown[], atNs: bigint, row: Row): void;
  /** Applies `patch` as a new version at `atNs`; returns false (and writes nothing) when nothing is current. */
  change(key: readonly unknown[], atNs: bigint, patch: Row): boolean;
  /** Changes columns of the current version in place, without opening a version (balances). */
  touch(key: readonly unknown[], patch: Row): void;
  /** Writes everything held back. Runs before the group's transaction commits, and before raw reads of the table. */
  flush(): void;
  /** Forgets cached rows and unwritten changes (after a rolled-back commit group). */
  reset(): void;
};

/**
 * How many current rows a table keeps; when full it writes what it holds back and forgets the older half. Bounds
 * memory (the worker's old generation is capped) and old-generation GC work.
 */
const CACHE_LIMIT = 10_000;

type Entry = {
  key: readonly unknown[];
  /** The current version (`valid_from` and data columns), or null when there is none. */
  row: Row | null;
  /** `valid_from` of the version the database holds as current (valid_to NULL), or null when it holds none. */
  dbFrom: bigint | null;
  /** Whether `row` differs from what the database holds. */
  dirty: boolean;
};

export function createVersionedTable(
  db: Db,
  table: string,
  keyColumns: readonly string[],
  dataColumns: readonly string[],
): VersionedTable {
  const keyWhere = keyColumns.map((c) => `${c} = ?`).join(" AND ");
  const selectCurrent = db.prepare(
    `SELECT valid_from, ${dataColumns.join(", ")} FROM ${table} WHERE ${keyWhere} AND valid_to IS NULL`,
  );
  // Closing a version the database holds, overwriting the current one in place, and adding a new one are each
  // an upsert on the primary key (key, valid_from), written many rows per statement in the order added. Only a
  // closing sets valid_to: an upsert that leaves the columns of an index alone leaves that index alone too.
  const allColumns = [...keyColumns, "valid_from", "valid_to", ...dataColumns];
  const conflict = (columns: readonly string[]) =>
    `ON CONFLICT (${[...keyColumns, "valid_from"].join(", ")}) DO UPDATE SET ${columns
      .map((c) => `${c} = excluded.${c}`)
      .join(", ")}`;
  const closes = createBatchInsert(db, table, allColumns, {
    onConflict: conflict(["valid_to", ...dataColumns]),
  });
  const writes = createBatchInsert(db, table, allColumns, { onConflict: conflict(dataColumns) });

  const cache = new Map<string, Entry>();
  const dirty = new Set<Entry>();
  /** Database versions to close (they were current when loaded): written first, before any new current row. */
  let closings: Array<{ entry: Entry; from: bigint; to: bigint; row: Row }> = [];
  /** Versions opened and closed again before a flush: inserted whole. */
  let closedRows: unknown[][] = [];

  const cacheKey = (key: readonly unknown[]) => (key.length === 1 ? String(key[0]) : key.join(":"));
  const dataOf = (row: Row) => dataColumns.map((c) => row[c]);

  function entryOf(key: readonly unknown[]): Entry {
    const k = cacheKey(key);
    let entry = cache.get(k);
    if (entry === undefined) {
      if (cache.size >= CACHE_LIMIT) evict();
      const row = (selectCurrent.get(...key) as Row | undefined) ?? null;
      entry = { key, row, dbFrom: row === null ? null : (row.valid_from as bigint), dirty: false };
      cache.set(k, entry);
    }
    return entry;
  }

  function open(entry: Entry, atNs: bigint, next: Row): void {
    const row: Row = { valid_from: atNs };
    for (const column of dataColumns) row[column] = normalize(next[column]);
    const previous = entry.row;
    if (previous !== null && (previous.valid_from as bigint) !== atNs) {
      const from = previous.valid_from as bigint;
      if (entry.dbFrom === from) {
        closings.push({ entry, from, to: atNs, row: previous });
        entry.dbFrom = null;
      } else {
        closedRows.push([...entry.key, from, atNs, ...dataOf(previous)]);
      }
    }
    entry.row = row;
    entry.dirty = true;
    dirty.add(entry);
  }

  function flush(): void {
    // Close first: a table's "one current version per key" index must never see two. The upsert writes rows
    // in the order they are added.
    for (const { entry, from, to, row } of closings) closes.add(...entry.key, from, to, ...dataOf(row));
    closings = [];
    closes.flush();
    for (const values of closedRows) writes.add(...values);
    closedRows = [];
    for (const entry of dirty) {
      const row = entry.row;
      if (row === null) continue;
      const from = row.valid_from as bigint;
      writes.add(...entry.key, from, null, ...dataOf(row));
      entry.dbFrom = from;
      entry.dirty = false;
    }
    dirty.clear();
    writes.flush();
  }

  /** Makes room in a full cache: writes what is held back, then forgets the older half of the entries. */
  function evict(): void {
    flush();
    let drop = cache.size >>> 1;
    for (const k of cache.keys()) {
      if (drop-- <= 0) break;
      cache.delete(k);
    }
  }

  return {
    current: (key) => entryOf(key).row ?? undefined,
    create(key, atNs, row) {
      open(entryOf(key), atNs, row);
    },
    change(key, atNs, patch) {
      const entry = entryOf(key);
      if (entry.row === null) return false;
      open(entry, atNs, { ...entry.row, ...patch });
      return true;
    },
    touch(key, patch) {
      const entry = entryOf(key);
      if (entry.row === null) return;
      for (const [column, value] of Object.entries(patch)) entry.row[column] = normalize(value);
      entry.dirty = true;
      dirty.add(entry);
    },
    flush,
    reset() {
      cache.clear();
      dirty.clear();
      closings = [];
      closedRows = [];
      closes.clear();
      writes.clear();
    },
  };
}

/** Values as SQLite hands them back with safe integers on: booleans and numbers become bigint. */
function normalize(value: unknown): unknown {
  switch (typeof value) {
    case "boolean":
      return value ? 1n : 0n;
    case "number":
      return BigInt(value);
    case "undefined":
      return null;
    default:
      return value;
  }
}

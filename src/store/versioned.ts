import type { Db } from "./db.ts";

export type Row = Record<string, unknown>;

/**
 * Writes to a table of versions with `[valid_from, valid_to)` ranges. A change at consensus time t closes the
 * current version at t and opens a new one from t that copies every column the change did not set. Two changes
 * at the same t (a transaction's body and then its transfer lists) fold into one version.
 *
 * Current versions are cached (write-through): ingestion reads a row it has just written far more often than
 * anything else, and a Map lookup costs a fraction of an SQLite seek. Cached rows hold values as a read would
 * return them (integers and booleans as bigint). `reset()` must be called when a file's transaction rolls back.
 */
export type VersionedTable = {
  /** The current version of the thing identified by `key`, or undefined. */
  current(key: readonly unknown[]): Row | undefined;
  /** Opens the first version (or a new one, if the thing exists already) with every data column given. */
  create(key: readonly unknown[], atNs: bigint, row: Row): void;
  /** Applies `patch` as a new version at `atNs`; returns false (and writes nothing) when nothing is current. */
  change(key: readonly unknown[], atNs: bigint, patch: Row): boolean;
  /**
   * Changes columns of the current version in place, without opening a version (balances). The change is made
   * in memory at once and written by `flush()`, so that many changes to one row in a file cost one write.
   */
  touch(key: readonly unknown[], patch: Row): void;
  /** Writes the rows `touch` changed. Runs before the file's transaction commits. */
  flush(): void;
  /** Forgets cached rows and unwritten changes (after a rolled-back file). */
  reset(): void;
};

/** How many current rows a table keeps in memory before it starts over (bounds memory on huge replays). */
const CACHE_LIMIT = 500_000;

export function createVersionedTable(
  db: Db,
  table: string,
  keyColumns: readonly string[],
  dataColumns: readonly string[],
): VersionedTable {
  const keyWhere = keyColumns.map((c) => `${c} = ?`).join(" AND ");
  const allColumns = [...keyColumns, "valid_from", "valid_to", ...dataColumns];
  const selectCurrent = db.prepare(
    `SELECT valid_from, ${dataColumns.join(", ")} FROM ${table} WHERE ${keyWhere} AND valid_to IS NULL`,
  );
  const close = db.prepare(`UPDATE ${table} SET valid_to = ? WHERE ${keyWhere} AND valid_from = ?`);
  const insert = db.prepare(
    `INSERT INTO ${table} (${allColumns.join(", ")}) VALUES (${allColumns.map(() => "?").join(", ")})`,
  );
  const overwrite = db.prepare(
    `UPDATE ${table} SET ${dataColumns.map((c) => `${c} = ?`).join(", ")} WHERE ${keyWhere} AND valid_from = ?`,
  );
  // null marks "known to have no current version", so misses are not asked again.
  const cache = new Map<string, Row | null>();
  const touched = new Map<string, readonly unknown[]>();
  const cacheKey = (key: readonly unknown[]) => (key.length === 1 ? String(key[0]) : key.join(":"));

  function current(key: readonly unknown[]): Row | undefined {
    const k = cacheKey(key);
    const cached = cache.get(k);
    if (cached !== undefined) return cached ?? undefined;
    const row = selectCurrent.get(...key) as Row | undefined;
    remember(k, row ?? null);
    return row;
  }

  function remember(k: string, row: Row | null): void {
    if (cache.size >= CACHE_LIMIT) {
      flush();
      cache.clear();
    }
    cache.set(k, row);
  }

  function flush(): void {
    for (const [k, key] of touched) {
      const row = cache.get(k);
      if (row) overwrite.run(...dataColumns.map((c) => row[c]), ...key, row.valid_from);
    }
    touched.clear();
  }

  function write(key: readonly unknown[], atNs: bigint, previous: Row | undefined, next: Row): void {
    const row: Row = { valid_from: atNs };
    const values: unknown[] = [...key, atNs, null];
    for (const column of dataColumns) {
      const value = normalize(next[column]);
      row[column] = value;
      values.push(value);
    }
    if (previous !== undefined) {
      const from = previous.valid_from as bigint;
      if (from === atNs) {
        overwrite.run(...values.slice(key.length + 2), ...key, from);
        remember(cacheKey(key), row);
        return;
      }
      close.run(atNs, ...key, from);
    }
    insert.run(values);
    remember(cacheKey(key), row);
  }

  return {
    current,
    create(key, atNs, row) {
      write(key, atNs, current(key), row);
    },
    change(key, atNs, patch) {
      const previous = current(key);
      if (previous === undefined) return false;
      write(key, atNs, previous, { ...previous, ...patch });
      return true;
    },
    touch(key, patch) {
      const row = current(key);
      if (row === undefined) return;
      for (const [column, value] of Object.entries(patch)) row[column] = normalize(value);
      touched.set(cacheKey(key), key);
    },
    flush,
    reset() {
      cache.clear();
      touched.clear();
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

import type Database from "better-sqlite3";
import type { Db } from "./db.ts";

export type Row = Record<string, unknown>;

/**
 * Writes to a table of versions with `[valid_from, valid_to)` ranges. A change at consensus time t closes the
 * current version at t and opens a new one from t that copies every column the change did not set. Two changes
 * at the same t (a transaction's body and then its transfer lists) fold into one version.
 */
export type VersionedTable = {
  /** The current version of the thing identified by `key`, or undefined. */
  current(key: readonly unknown[]): Row | undefined;
  /** Opens the first version (or a new one, if the thing exists already) with every data column given. */
  create(key: readonly unknown[], atNs: bigint, row: Row): void;
  /** Applies `patch` as a new version at `atNs`; returns false (and writes nothing) when nothing is current. */
  change(key: readonly unknown[], atNs: bigint, patch: Row): boolean;
};

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

  const dataValues = (row: Row) => dataColumns.map((c) => normalize(row[c]));

  function write(key: readonly unknown[], atNs: bigint, current: Row | undefined, next: Row): void {
    if (current !== undefined) {
      const from = current.valid_from as bigint;
      if (from === atNs) {
        overwrite.run(...dataValues(next), ...key, from);
        return;
      }
      close.run(atNs, ...key, from);
    }
    insert.run(...key, atNs, null, ...dataValues(next));
  }

  return {
    current: (key) => selectCurrent.get(...key) as Row | undefined,
    create(key, atNs, row) {
      write(key, atNs, selectCurrent.get(...key) as Row | undefined, row);
    },
    change(key, atNs, patch) {
      const current = selectCurrent.get(...key) as Row | undefined;
      if (current === undefined) return false;
      write(key, atNs, current, { ...current, ...patch });
      return true;
    },
  };
}

/** SQLite has no boolean; store 1/0 so that reads (as bigint) are unambiguous. */
function normalize(value: unknown): unknown {
  if (value === true) return 1n;
  if (value === false) return 0n;
  if (value === undefined) return null;
  return value;
}

export type Statement = Database.Statement;

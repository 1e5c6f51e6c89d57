import type Database from "better-sqlite3";
import type { Db } from "./db.ts";

/**
 * Append-mostly rows (transactions, transfers, balance history) are collected and inserted many per statement:
 * one multi-row INSERT crosses from JavaScript into SQLite once per batch instead of once per row, which is
 * most of the cost of a small insert. Callers flush before the commit group's transaction commits.
 */
export type BatchInsert = {
  add(...values: unknown[]): void;
  flush(): void;
  /** Drops rows not yet written (after a rolled-back commit group). */
  clear(): void;
};

const ROWS_PER_STATEMENT = 50;

/**
 * `orReplace` writes `INSERT OR REPLACE`; `onConflict` (an `ON CONFLICT … DO UPDATE …` clause) makes it a batched
 * upsert. Rows are written in the order they were added, so a later row sees what an earlier one wrote.
 */
export function createBatchInsert(
  db: Db,
  table: string,
  columns: readonly string[],
  options: { orReplace?: boolean; onConflict?: string } = {},
): BatchInsert {
  const row = `(${columns.map(() => "?").join(", ")})`;
  const verb = options.orReplace === true ? "INSERT OR REPLACE" : "INSERT";
  const conflict = options.onConflict === undefined ? "" : ` ${options.onConflict}`;
  const sql = (rows: number) =>
    `${verb} INTO ${table} (${columns.join(", ")}) VALUES ${Array(rows).fill(row).join(", ")}${conflict}`;
  const many = db.prepare(sql(ROWS_PER_STATEMENT));
  const one = db.prepare(sql(1));
  const width = columns.length;
  const full = ROWS_PER_STATEMENT * width;
  let pending: unknown[] = [];

  // An array binds as the anonymous parameters: no spreading of hundreds of arguments.
  const write = (statement: Database.Statement, values: unknown[]) => statement.run(values);

  return {
    add(...values) {
      for (const value of values) pending.push(value);
      if (pending.length >= full) {
        write(many, pending);
        pending = [];
      }
    },
    flush() {
      for (let offset = 0; offset < pending.length; offset += width)
        write(one, pending.slice(offset, offset + width));
      pending = [];
    },
    clear() {
      pending = [];
    },
  };
}

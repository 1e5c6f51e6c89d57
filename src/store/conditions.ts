import type Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import { MAX_INT64 } from "../int64.ts";

const MIN_INT64 = -MAX_INT64 - 1n;

import type { Db } from "./db.ts";
import { inList, type ListValue, notInList } from "./value-list.ts";

/** A comparison operator of the REST filters, as the store understands it. */
export type Op = "eq" | "ne" | "lt" | "lte" | "gt" | "gte";

/** One `column <op> value` condition; a list of them is ANDed. */
export type Condition<V> = { readonly op: Op; readonly value: V };

export type Order = "asc" | "desc";

const SQL_OPERATORS: Readonly<Record<Op, string>> = {
  eq: "=",
  ne: "!=",
  lt: "<",
  lte: "<=",
  gt: ">",
  gte: ">=",
};

/**
 * Collects the WHERE clause of a dynamic query with its positional parameters, in the order they appear, so the
 * SQL text (and hence the cached prepared statement) depends only on which filters a request uses.
 */
export class WhereBuilder {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  /** Adds a literal clause with its parameters. */
  add(clause: string, ...params: unknown[]): this {
    this.clauses.push(clause);
    this.params.push(...params);
    return this;
  }

  /**
   * Adds the conditions on `column`, ANDed, in a shape that depends only on which kinds of condition are present,
   * never on how many of each (a request may repeat a filter up to 100 times): at most `column = ?`, one lower
   * bound (`>` or `>=`, the tightest given), one upper bound (the tightest), and one
   * `column NOT IN (SELECT value FROM json_each(?))` for every `ne` value. Distinct `eq` values match nothing:
   * the first is kept as the equality and also excluded. Values that do not order alike in JavaScript and in
   * SQLite (mixed kinds) keep one clause per condition. Integers above int64 (a 10-digit timestamp can reach
   * 10^19 ns) are compared as the greatest int64, which no stored value reaches, so every operator keeps its
   * meaning.
   */
  compare<V>(column: string, conditions: readonly Condition<V>[]): this {
    const clamped = conditions.map(({ op, value }) => ({
      op,
      value: typeof value === "bigint" && value > MAX_INT64 ? MAX_INT64 : value,
    }));
    const folded = foldConditions(clamped);
    if (folded === null) {
      for (const { op, value } of clamped) this.add(`${column} ${SQL_OPERATORS[op]} ?`, value);
      return this;
    }
    if (folded.equal !== undefined) this.add(`${column} = ?`, folded.equal);
    if (folded.lower !== undefined)
      this.add(`${column} ${SQL_OPERATORS[folded.lower.op]} ?`, folded.lower.value);
    if (folded.upper !== undefined)
      this.add(`${column} ${SQL_OPERATORS[folded.upper.op]} ?`, folded.upper.value);
    if (folded.excluded.length > 0) this.add(...notInList(column, folded.excluded));
    return this;
  }

  /**
   * Where a keyset walk over `column` starts when nothing else bounds it: `column >= <least int64>` ascending,
   * `column <= <greatest int64>` descending. It admits every row, and makes the walk what it is, a range from
   * the start of the key read in order up to the LIMIT, rather than a pass over the whole index: every list
   * statement is then an index range (see the plan test, test/api/query-plans.test.ts).
   */
  startOf(column: string, order: Order): this {
    return order === "asc" ? this.add(`${column} >= ?`, MIN_INT64) : this.add(`${column} <= ?`, MAX_INT64);
  }

  /** `column IN (SELECT value FROM json_each(?))`, one statement shape for any length; nothing for an empty list. */
  in(column: string, values: readonly ListValue[]): this {
    if (values.length > 0) this.add(...inList(column, values));
    return this;
  }

  sql(): string {
    return this.clauses.length === 0 ? "" : `WHERE ${this.clauses.join(" AND ")}`;
  }
}

/** True when a condition on an EVM address that names no entity (value null) is present: it matches nothing. */
export function matchesNothing(conditions: readonly Condition<unknown>[]): boolean {
  return conditions.some((c) => c.value === null);
}

/** Prepared statements by SQL text: `statement(sql)`, and how many are kept. */
export type StatementCache = ((sql: string) => Database.Statement) & { readonly size: number };

/** Statements a cache keeps by default: far more than the shapes ordinary requests produce. */
export const DEFAULT_CACHED_STATEMENTS = 128;

/**
 * Page sizes are bound as `LIMIT +?`, never `LIMIT ?`: SQLite plans with the value of a bare `LIMIT ?`, so binding
 * one (better-sqlite3 binds every parameter on every run) expires the prepared statement, and SQLite parses and
 * plans it again on each run (a fifth of a page of topic messages). An expression keeps the prepared plan, which is
 * the plan for an unknown limit: the one the plan test EXPLAINs, and which checks this spelling too.
 *
 * Prepared statements by SQL text, least recently used dropped beyond `maxStatements`. List queries are
 * assembled from the filters a request uses, and a request may repeat a filter up to 100 times with any mix of
 * operators, so the number of distinct texts input can produce is huge: the bound keeps memory flat whatever
 * is asked, while the few shapes real clients use stay prepared.
 */
export function createStatementCache(db: Db, maxStatements = DEFAULT_CACHED_STATEMENTS): StatementCache {
  const statements = new LRUCache<string, Database.Statement>({ max: maxStatements });
  const statement = (sql: string) => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  };
  return Object.defineProperty(statement, "size", { get: () => statements.size }) as StatementCache;
}

/** Whether the conditions bound a column for an index (anything but `ne`, which no index serves). */
export function bounds(conditions: readonly Condition<unknown>[]): boolean {
  return conditions.some((c) => c.op !== "ne");
}

/** SQL `ASC`/`DESC` for an order. */
export function direction(order: Order): "ASC" | "DESC" {
  return order === "asc" ? "ASC" : "DESC";
}

/** The conditions on one column folded to at most one of each kind (see `WhereBuilder.compare`). */
type FoldedConditions = {
  equal?: NonNullable<ListValue>;
  lower?: { op: "gt" | "gte"; value: NonNullable<ListValue> };
  upper?: { op: "lt" | "lte"; value: NonNullable<ListValue> };
  excluded: NonNullable<ListValue>[];
};

/** Orders two values as SQLite does, or null when they are of kinds that cannot be compared alike here. */
function order(a: unknown, b: unknown): number | null {
  const numeric = (v: unknown) => typeof v === "bigint" || typeof v === "number";
  if (numeric(a) && numeric(b))
    return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  // Code-unit order equals SQLite's byte order for printable ASCII (keys, hex, names of types), all the filters take.
  if (typeof a === "string" && typeof b === "string" && PRINTABLE.test(a) && PRINTABLE.test(b))
    return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

const PRINTABLE = /^[ -~]*$/;

function isListValue(value: unknown): value is NonNullable<ListValue> {
  return (
    typeof value === "bigint" ||
    (typeof value === "number" && Number.isInteger(value)) ||
    typeof value === "string" ||
    value instanceof Uint8Array
  );
}

/** Folds ANDed conditions; null when their values are not all of one comparable kind. */
function foldConditions(conditions: readonly Condition<unknown>[]): FoldedConditions | null {
  const folded: FoldedConditions = { excluded: [] };
  const first = conditions[0]?.value;
  for (const { op, value } of conditions) {
    if (!isListValue(value) || order(first, value) === null) return null;
    if (op === "ne") folded.excluded.push(value);
    else if (op === "eq") {
      if (folded.equal === undefined) folded.equal = value;
      // `column = a AND column = b` with a != b: nothing matches; excluding a says so in the same shape.
      else if (order(folded.equal, value) !== 0) folded.excluded.push(folded.equal);
    } else if (op === "gt" || op === "gte") {
      const current = folded.lower;
      const c = current === undefined ? 1 : order(value, current.value)!;
      if (c > 0 || (c === 0 && op === "gt")) folded.lower = { op, value };
    } else {
      const current = folded.upper;
      const c = current === undefined ? -1 : order(value, current.value)!;
      if (c < 0 || (c === 0 && op === "lt")) folded.upper = { op, value };
    }
  }
  return folded;
}

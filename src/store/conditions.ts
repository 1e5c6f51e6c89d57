import type Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import { MAX_INT64 } from "../int64.ts";

const MIN_INT64 = -MAX_INT64 - 1n;

import type { Db } from "./db.ts";

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
   * Adds `column <op> ?` for each condition. Integers above int64 (a 10-digit timestamp can reach 10^19 ns)
   * are compared as the greatest int64, which no stored value reaches, so every operator keeps its meaning.
   */
  compare<V>(column: string, conditions: readonly Condition<V>[]): this {
    for (const { op, value } of conditions) {
      this.add(
        `${column} ${SQL_OPERATORS[op]} ?`,
        typeof value === "bigint" && value > MAX_INT64 ? MAX_INT64 : value,
      );
    }
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

  /** `column IN (?, ?, …)`; nothing for an empty list. */
  in(column: string, values: readonly unknown[]): this {
    if (values.length > 0) this.add(`${column} IN (${values.map(() => "?").join(", ")})`, ...values);
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

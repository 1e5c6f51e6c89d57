import type Database from "better-sqlite3";
import type { Db } from "./db.ts";

/** A comparison operator of the REST filters, as the store understands it. */
export type Op = "eq" | "ne" | "lt" | "lte" | "gt" | "gte";

/** One `column <op> value` condition; a list of them is ANDed. */
export type Condition<V> = { readonly op: Op; readonly value: V };

export type Order = "asc" | "desc";

const INT64_MAX = 9223372036854775807n;

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
        typeof value === "bigint" && value > INT64_MAX ? INT64_MAX : value,
      );
    }
    return this;
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

/**
 * Prepared statements by SQL text. List queries are assembled from the filters a request uses, so the number
 * of distinct texts is small and bounded; preparing each once keeps per-request work to binding and stepping.
 */
export function createStatementCache(db: Db): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/** SQL `ASC`/`DESC` for an order. */
export function direction(order: Order): "ASC" | "DESC" {
  return order === "asc" ? "ASC" : "DESC";
}

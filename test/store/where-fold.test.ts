/**
 * `WhereBuilder.compare` folds a repeated filter into one statement shape (at most one equality, one bound each
 * way, one NOT IN list): for any mix of conditions it keeps exactly the values that the conditions written one
 * clause each keep. Checked by SQLite itself over a small grid of values read from a JSON array (no table), for
 * integers and for byte strings (contract slots, compared as blobs).
 */
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type Condition, type Op, WhereBuilder } from "../../src/store/conditions.ts";

const db = new Database(":memory:");
db.defaultSafeIntegers(true);
afterAll(() => db.close());

const SQL: Record<Op, string> = { eq: "=", ne: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=" };
const OPS: Op[] = ["eq", "ne", "lt", "lte", "gt", "gte"];

/** The values of `grid` (a JSON array read by SQLite) that `where` keeps, in order. */
function kept(
  grid: string,
  column: string,
  clauses: string[],
  params: unknown[],
  select = "value",
): unknown[] {
  const where = clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`;
  return db
    .prepare(`SELECT ${column} FROM (SELECT ${select} AS ${column} FROM json_each(?)) ${where} ORDER BY 1`)
    .pluck()
    .all(grid, ...params);
}

/** The conditions written one clause each, as before folding. */
function unfolded<V>(column: string, conditions: readonly Condition<V>[]) {
  return {
    clauses: conditions.map((c) => `${column} ${SQL[c.op]} ?`),
    params: conditions.map((c) => c.value),
  };
}

describe("WhereBuilder.compare folds repeated conditions without changing what they keep", () => {
  it("on integers", () => {
    const grid = `[${Array.from({ length: 13 }, (_, i) => i - 6).join(",")}]`;
    const condition = fc.record({
      op: fc.constantFrom(...OPS),
      value: fc.bigInt({ min: -5n, max: 5n }),
    });
    fc.assert(
      fc.property(fc.array(condition, { maxLength: 8 }), (conditions) => {
        const folded = new WhereBuilder().compare("v", conditions);
        const plain = unfolded("v", conditions);
        expect(kept(grid, "v", folded.clauses, folded.params)).toEqual(
          kept(grid, "v", plain.clauses, plain.params),
        );
        // One clause per kind of condition at most.
        expect(folded.clauses.length).toBeLessThanOrEqual(4);
      }),
      { numRuns: 400, seed: 25 },
    );
  });

  it("on byte strings", () => {
    const bytes = ["", "00", "0000", "01", "0100", "ff", "ff00"];
    const grid = JSON.stringify(bytes);
    const condition = fc.record({
      op: fc.constantFrom(...OPS),
      value: fc.constantFrom(...bytes).map((hex) => Buffer.from(hex, "hex")),
    });
    fc.assert(
      fc.property(fc.array(condition, { maxLength: 6 }), (conditions) => {
        const folded = new WhereBuilder().compare("v", conditions);
        const plain = unfolded("v", conditions);
        const select = "unhex(value)";
        expect(kept(grid, "v", folded.clauses, folded.params, select)).toEqual(
          kept(grid, "v", plain.clauses, plain.params, select),
        );
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  it("binds a list of any length as one parameter", () => {
    const grid = "[1,2,3,4,5,6,7,8,9]";
    for (const length of [1, 2, 5, 9]) {
      const values = Array.from({ length }, (_, i) => BigInt(i + 1));
      const where = new WhereBuilder().in("v", values).compare(
        "v",
        values.map((value) => ({ op: "ne" as const, value: value + 1n })),
      );
      expect(where.sql()).toBe(
        "WHERE v IN (SELECT value FROM json_each(?)) AND v NOT IN (SELECT value FROM json_each(?))",
      );
      expect(kept(grid, "v", where.clauses, where.params)).toEqual([1n]);
    }
  });
});

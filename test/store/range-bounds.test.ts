/**
 * The multi-key bound conditions of the Java-style lists (upstream `JooqRepository.getBoundConditions`): what
 * rows they keep on a small grid, and that the primary key's range ANDed in front for SQLite's sake
 * (`rangeBoundsCondition`) keeps exactly the rows upstream's condition keeps, for every shape of bounds.
 */
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  type RangeBound,
  type RangeParam,
  rangeBoundsCondition,
  upstreamBoundsCondition,
} from "../../src/store/range-bounds.ts";

type Row = { p: number; s: number; t: number };

const db = new Database(":memory:");
db.defaultSafeIntegers(false);
db.exec("CREATE TABLE g (p INTEGER, s INTEGER, t INTEGER)");
const insert = db.prepare("INSERT INTO g VALUES (?, ?, ?)");
for (let p = 0; p <= 5; p++) for (let s = 0; s <= 5; s++) for (let t = 0; t <= 3; t++) insert.run(p, s, t);
afterAll(() => db.close());

function rowsOf(condition: { sql: string; params: unknown[] } | null): string[] {
  const where = condition === null ? "" : `WHERE ${condition.sql}`;
  const rows = db
    .prepare(`SELECT p, s, t FROM g ${where} ORDER BY p, s, t`)
    .all(...(condition?.params ?? []));
  return (rows as Row[]).map(({ p, s, t }) => `${p}${s}${t}`);
}

function gridWhere(predicate: (row: Row) => boolean): string[] {
  const rows: string[] = [];
  for (let p = 0; p <= 5; p++) {
    for (let s = 0; s <= 5; s++)
      for (let t = 0; t <= 3; t++) if (predicate({ p, s, t })) rows.push(`${p}${s}${t}`);
  }
  return rows;
}

const param = (op: RangeParam["op"], value: number): RangeParam => ({ op, value: BigInt(value) });
const bound = (column: string, lower: RangeParam | null, upper: RangeParam | null = null): RangeBound => ({
  column,
  lower,
  upper,
});

describe("upstream's bound conditions", () => {
  it("keeps the secondary bounds at the primary's edges only", () => {
    const bounds = [
      bound("p", param("gte", 2), param("lte", 4)),
      bound("s", param("gte", 1), param("lte", 3)),
    ];
    const expected = gridWhere(({ p, s }) => (p === 2 && s >= 1) || p === 3 || (p === 4 && s <= 3));
    expect(rowsOf(upstreamBoundsCondition(bounds))).toEqual(expected);
    expect(rowsOf(rangeBoundsCondition(bounds))).toEqual(expected);
  });

  it("pages on three keys: each key's bound applies where the keys before it sit on their edge", () => {
    const bounds = [bound("p", param("gte", 2)), bound("s", param("gte", 4)), bound("t", param("gt", 1))];
    const expected = gridWhere(({ p, s, t }) => (p === 2 && ((s === 4 && t > 1) || s > 4)) || p > 2);
    expect(rowsOf(upstreamBoundsCondition(bounds))).toEqual(expected);
    expect(rowsOf(rangeBoundsCondition(bounds))).toEqual(expected);
  });

  it("applies a secondary equality across the primary's range", () => {
    const bounds = [bound("p", param("gt", 1), param("lt", 4)), bound("s", param("eq", 2))];
    const expected = gridWhere(({ p, s }) => p > 1 && p < 4 && s === 2);
    expect(rowsOf(upstreamBoundsCondition(bounds))).toEqual(expected);
  });

  it("leaves the caller's bounds as they were", () => {
    const bounds = [bound("p", param("gte", 3), param("lte", 3)), bound("s", param("eq", 2))];
    const copy = structuredClone(bounds);
    rangeBoundsCondition(bounds);
    expect(bounds).toEqual(copy);
  });
});

describe("the primary key's range in front", () => {
  const lower = fc.option(
    fc.tuple(
      fc.constantFrom("eq", "gt", "gte") as fc.Arbitrary<RangeParam["op"]>,
      fc.integer({ min: 0, max: 5 }),
    ),
  );
  const upper = fc.option(
    fc.tuple(fc.constantFrom("lt", "lte") as fc.Arbitrary<RangeParam["op"]>, fc.integer({ min: 0, max: 5 })),
  );
  const boundOn = (column: string) =>
    fc.tuple(lower, upper).map(([l, u]) => bound(column, l && param(l[0], l[1]), u && param(u[0], u[1])));

  it("keeps the rows upstream's condition keeps, whatever the bounds (the same bound listed twice too)", () => {
    fc.assert(
      fc.property(
        boundOn("p"),
        boundOn("s"),
        boundOn("t"),
        fc.integer({ min: 0, max: 3 }),
        (p, s, t, shape) => {
          // The shapes the routes build: [account, token], [account, token, serial], and upstream's airdrop
          // request with no account bound, whose token bound comes twice.
          const asToken = { ...p, column: "s" };
          const bounds = [[p, s], [p, s, t], [asToken, asToken, t], [p]][shape]!;
          expect(rowsOf(rangeBoundsCondition(bounds))).toEqual(rowsOf(upstreamBoundsCondition(bounds)));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

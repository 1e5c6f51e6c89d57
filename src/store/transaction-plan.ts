/**
 * How a transaction list filter reduces to bounds and key sets before any statement runs, following upstream's
 * `getTransactions` (`rest/transactions.js`) and `parseTimestampFilters` (`rest/utils.js`):
 *
 * - timestamps are ANDed: gt/gte raise the lower bound (never below 0), lt/lte lower the upper bound; two
 *   different eq values, or a lower bound above the upper, match nothing; ne values are excluded;
 * - account eq values form an IN list, every other operator is ANDed with it; an EVM address that names no
 *   account (a null value) matches nothing;
 * - types form an IN list; `result` is success (the three success codes) or fail (every other code);
 *   `creditDebit` asks for a positive / negative amount.
 */
import { MAX_INT64 } from "../int64.ts";
import type { Condition } from "./conditions.ts";

export const MIN_INT64 = -MAX_INT64 - 1n;

export type TimeBounds = {
  /** Inclusive bounds, within int64. */
  readonly lower: bigint;
  readonly upper: bigint;
  /** `ne` values, distinct. */
  readonly excluded: readonly bigint[];
};

/** The timestamp bounds of ANDed conditions; null when they match nothing. */
export function timeBounds(conditions: readonly Condition<bigint>[]): TimeBounds | null {
  const eq = new Set<bigint>();
  const excluded = new Set<bigint>();
  let earliest: bigint | null = null;
  let latest: bigint | null = null;
  for (const { op, value } of conditions) {
    switch (op) {
      case "eq":
        eq.add(value);
        break;
      case "ne":
        excluded.add(value);
        break;
      case "gt":
      case "gte": {
        const bound = op === "gt" ? value + 1n : value;
        earliest = bound > (earliest ?? 0n) ? bound : (earliest ?? 0n);
        break;
      }
      case "lt":
      case "lte": {
        const bound = op === "lt" ? value - 1n : value;
        latest = bound < (latest ?? MAX_INT64) ? bound : (latest ?? MAX_INT64);
        break;
      }
    }
  }
  if (eq.size > 1) return null;
  let lower = earliest ?? MIN_INT64;
  let upper = latest ?? MAX_INT64;
  for (const value of eq) {
    if (value > lower) lower = value;
    if (value < upper) upper = value;
  }
  if (upper > MAX_INT64) upper = MAX_INT64;
  if (lower > upper) return null;
  return { lower, upper, excluded: [...excluded].filter((v) => v >= lower && v <= upper) };
}

/** Which accounts a filter asks about. */
export type AccountScope =
  | { readonly kind: "any" }
  | { readonly kind: "list"; readonly ids: readonly bigint[] }
  | {
      readonly kind: "range";
      readonly lower: bigint;
      readonly upper: bigint;
      readonly excluded: ReadonlySet<bigint>;
    };

/** The accounts ANDed account conditions name; null when they name none. */
export function accountScope(conditions: readonly Condition<bigint | null>[]): AccountScope | null {
  if (conditions.length === 0) return { kind: "any" };
  const eq: bigint[] = [];
  const excluded = new Set<bigint>();
  let lower = MIN_INT64;
  let upper = MAX_INT64;
  let ranged = false;
  for (const { op, value } of conditions) {
    // Upstream compares the column with SQL NULL: true for no row, whatever the operator.
    if (value === null) return null;
    switch (op) {
      case "eq":
        if (!eq.includes(value)) eq.push(value);
        break;
      case "ne":
        excluded.add(value);
        ranged = true;
        break;
      case "gt":
        if (value + 1n > lower) lower = value + 1n;
        ranged = true;
        break;
      case "gte":
        if (value > lower) lower = value;
        ranged = true;
        break;
      case "lt":
        if (value - 1n < upper) upper = value - 1n;
        ranged = true;
        break;
      case "lte":
        if (value < upper) upper = value;
        ranged = true;
        break;
    }
  }
  const inRange = (id: bigint) => id >= lower && id <= upper && !excluded.has(id);
  if (eq.length > 0) {
    const ids = eq.filter(inRange);
    return ids.length === 0 ? null : { kind: "list", ids };
  }
  if (!ranged) return { kind: "any" };
  return lower > upper ? null : { kind: "range", lower, upper, excluded };
}

import { MAX_INT64 } from "../int64.ts";
import type { Condition } from "./conditions.ts";

/**
 * ANDed conditions on one integer column, as what an index can seek: one inclusive range, plus the values that
 * `ne` conditions leave out (each removes at most one row of a unique column). Null when no value satisfies
 * them all (`gt:5&lt:5`, two different `eq`, a lower bound above every int64).
 */
export type IntegerRange = { lower: bigint; upper: bigint; excluded: bigint[] };

/** Folds `conditions` into a range within [min, MAX_INT64]; values beyond int64 keep their meaning. */
export function integerRange(conditions: readonly Condition<bigint>[], min = 0n): IntegerRange | null {
  let lower = min;
  let upper = MAX_INT64;
  const excluded: bigint[] = [];
  for (const { op, value } of conditions) {
    switch (op) {
      case "eq":
        if (value > lower) lower = value;
        if (value < upper) upper = value;
        break;
      case "gt":
        if (value + 1n > lower) lower = value + 1n;
        break;
      case "gte":
        if (value > lower) lower = value;
        break;
      case "lt":
        if (value - 1n < upper) upper = value - 1n;
        break;
      case "lte":
        if (value < upper) upper = value;
        break;
      case "ne":
        excluded.push(value);
        break;
    }
  }
  if (lower > upper) return null;
  return { lower, upper, excluded: excluded.filter((v) => v >= lower && v <= upper) };
}

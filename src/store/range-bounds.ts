/**
 * The SQL condition of a list paged on several keys, as upstream's Java service builds it
 * (`rest-java/…/repository/JooqRepository.getBoundConditions` over `service/Bound`), for NFT allowances and
 * token airdrops. With a primary key bounded by [L, U] and secondary keys bounded too, the condition is
 *
 *   (primary = L AND <secondaries' lower parts, recursively>)
 *   OR (L < primary < U, AND any secondary that has an `eq`)
 *   OR (primary = U AND <secondaries' upper parts, recursively>)
 *
 * reproduced step for step, mutations of the bounds included (the same bound may appear twice in the list, as
 * upstream's airdrop request builds it), so that every edge case answers as upstream's does. Absent parts are
 * neutral (jOOQ's `noCondition`), not true.
 */

export type RangeOp = "eq" | "gt" | "gte" | "lt" | "lte" | "ne";

/** One `op:value` parameter of a bound. */
export type RangeParam = { readonly op: RangeOp; readonly value: bigint };

/** A bound on one column: its lower (`gt`, `gte`, `eq`) and upper (`lt`, `lte`) parameters. */
export type RangeBound = { column: string; lower: RangeParam | null; upper: RangeParam | null };

/** A condition; null is "no condition" (neutral in AND and OR). */
type Cond = { readonly sql: string; readonly params: unknown[] } | null;

const SQL_OPS: Readonly<Record<RangeOp, string>> = {
  eq: "=",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  ne: "!=",
};

function compare(column: string, op: RangeOp, value: bigint): Cond {
  return { sql: `${column} ${SQL_OPS[op]} ?`, params: [value] };
}

function join(kind: "AND" | "OR", conds: Cond[]): Cond {
  const present = conds.filter((c): c is NonNullable<Cond> => c !== null);
  if (present.length === 0) return null;
  if (present.length === 1) return present[0]!;
  return {
    sql: `(${present.map((c) => c.sql).join(` ${kind} `)})`,
    params: present.flatMap((c) => c.params),
  };
}

const adjustedLower = (b: RangeBound) =>
  b.lower === null ? 0n : b.lower.op === "gt" ? b.lower.value + 1n : b.lower.value;
const adjustedUpper = (b: RangeBound) =>
  b.upper === null ? null : b.upper.op === "lt" ? b.upper.value - 1n : b.upper.value;
const hasEqualBounds = (b: RangeBound) =>
  b.lower !== null && b.upper !== null && adjustedLower(b) === adjustedUpper(b);

function conditionOf(b: RangeBound): Cond {
  return join("AND", [
    b.lower === null ? null : compare(b.column, b.lower.op, b.lower.value),
    b.upper === null ? null : compare(b.column, b.upper.op, b.upper.value),
  ]);
}

/** A secondary bound whose lower parameter is an equality gets the same upper (upstream `adjustUpperRange`). */
function adjustUpperRange(b: RangeBound): void {
  if ((b.lower !== null || b.upper !== null) && b.lower?.op === "eq") b.upper = b.lower;
}

/** A primary range of one value becomes an equality (upstream `adjustLowerRange`); returns the lower part. */
function adjustLowerRange(b: RangeBound): RangeParam | null {
  if (hasEqualBounds(b)) {
    b.lower = { op: "eq", value: adjustedLower(b) };
    b.upper = null;
  }
  return b.lower;
}

function inclusiveValue(param: RangeParam): bigint {
  return param.op === "gt" ? param.value + 1n : param.op === "lt" ? param.value - 1n : param.value;
}

/** A fresh bound with only the lower (or upper) parameter of `b`; an empty one when it has none. */
function onlyPart(b: RangeBound, upper: boolean): RangeBound {
  const param = upper ? b.upper : b.lower;
  if (param === null) return { column: b.column, lower: null, upper: null };
  const isLower = param.op === "gt" || param.op === "gte" || param.op === "eq";
  return { column: b.column, lower: isLower ? param : null, upper: isLower ? null : param };
}

function boundConditions(bounds: RangeBound[], lowerProcessed: boolean, upperProcessed: boolean): Cond {
  const primary = bounds[0];
  if (primary === undefined) return null;
  if (bounds.length === 1) return conditionOf(primary);
  const secondaries = bounds.slice(1);
  if (!lowerProcessed) for (const b of secondaries) adjustUpperRange(b);
  // The lower part first: it may rewrite the primary bound.
  const lower = outerCondition(primary, secondaries, false, lowerProcessed);
  const middle = middleCondition(primary, secondaries);
  const upper = outerCondition(primary, secondaries, true, upperProcessed);
  return join("OR", [lower, middle, upper]);
}

function outerCondition(primary: RangeBound, secondaries: RangeBound[], upper: boolean, processed: boolean) {
  const param = upper ? primary.upper : adjustLowerRange(primary);
  if (param === null || param.op === "eq") return null;
  const edge = compare(primary.column, "eq", inclusiveValue(param));
  const rest = processed ? secondaries : secondaries.map((b) => onlyPart(b, upper));
  return join("AND", [edge, boundConditions(rest, true, upper)]);
}

function middleCondition(primary: RangeBound, secondaries: RangeBound[]): Cond {
  const { lower, upper, column } = primary;
  const strict = (param: RangeParam | null, inclusiveOp: "gt" | "lt"): Cond => {
    if (param === null) return null;
    if (param.op === "eq") return compare(column, "eq", param.value);
    return compare(column, param.op === "gte" || param.op === "lte" ? inclusiveOp : param.op, param.value);
  };
  const parts: Cond[] = [strict(lower, "gt"), strict(upper, "lt")];
  for (const b of secondaries) {
    if ([lower, upper, b.upper, b.lower].some((p) => p?.op === "eq")) parts.push(conditionOf(b));
  }
  return join("AND", parts);
}

/** Upstream's condition for bounds listed primary first, as it builds it; null when they impose nothing. */
export function upstreamBoundsCondition(
  bounds: readonly RangeBound[],
): { sql: string; params: unknown[] } | null {
  // The bounds are copied first (keeping which entries are the same bound): the caller's stay as they were.
  return boundConditions(structuredClone([...bounds]), false, false);
}

/**
 * The WHERE fragment (and its parameters) for bounds listed primary first: upstream's condition, with the
 * primary key's own bounds ANDed in front where that changes nothing (see below); null when they impose nothing.
 */
export function rangeBoundsCondition(
  bounds: readonly RangeBound[],
): { sql: string; params: unknown[] } | null {
  const condition = upstreamBoundsCondition(bounds);
  const primary = bounds[0];
  if (condition === null || primary === undefined || bounds.length === 1) return condition;
  // Every part of the OR keeps the primary key within its own bounds (the edges are its inclusive values, the
  // middle lies between), so the bounds ANDed in front let SQLite seek the key's range instead of walking the
  // list from its start. Not when an equality comes with an upper bound (the upper edge part then reaches past
  // the equality), nor for an empty range (whose edges upstream's condition still keeps); requests never
  // combine those: their constraints refuse them.
  if (primary.lower?.op === "eq" && primary.upper !== null) return condition;
  const upperValue = adjustedUpper(primary);
  if (upperValue !== null && adjustedLower(primary) > upperValue) return condition;
  const range = conditionOf(primary);
  return range === null ? condition : join("AND", [range, condition]);
}

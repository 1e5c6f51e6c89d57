/**
 * Parameter readers for the Java-implemented endpoints (`/api/v1/network/*`), reproducing what upstream's
 * Spring service accepts and the exact errors it answers (see `errors.ts` for the bodies).
 *
 * Two families of parameters exist upstream, with different error shapes:
 * - plain `@RequestParam`s (`timestamp`, `order` on `/network/fees`, `q` on `/network/supply`): a value that
 *   does not convert gives 400 `Failed to convert '<name>'`; a repeated single-valued one silently uses its
 *   first value (Spring converts the array to one value by taking element 0);
 * - fields of a request object (`/network/nodes`: `file.id`, `node.id`, `limit`, `order`): a bad value gives
 *   `Invalid parameter: <name>` without detail, all bad fields reported together; a repeated single-valued
 *   field gives 400 `Only a single instance is supported for <name>` (`readSingle`).
 *
 * Everywhere: unknown parameters are ignored, and a blank value counts as absent (the default applies).
 */

import { MAX_INT64 } from "../../int64.ts";
import { failedToConvert, javaBadRequest } from "./errors.ts";
import type { JavaQuery } from "./query.ts";

export type Order = "asc" | "desc";

/**
 * Inclusive nanosecond bounds from `timestamp` parameters: `lowerNs ≤ t ≤ upperNs`. Without a lower bound
 * `lowerNs` is 0; without an upper bound `upperNs` is the greatest int64.
 */
export type TimestampBounds = {
  readonly lowerNs: bigint;
  readonly upperNs: bigint;
  /** Whether an upper-bound value (`lt`, `lte`, `eq` or bare) was given; R for `/network/fees` depends on it. */
  readonly hasUpper: boolean;
  readonly hasLower: boolean;
};

/** No `timestamp` at all: everything. */
export const ALL_TIME: TimestampBounds = {
  lowerNs: 0n,
  upperNs: MAX_INT64,
  hasUpper: false,
  hasLower: false,
};

type RangeOperator = "eq" | "gt" | "gte" | "lt" | "lte";

/** Upstream `TimestampParameter`: `[op:]seconds[.nanos]`, case-insensitive operator, `ne` refused. */
const TIMESTAMP = /^(?:(eq|gt|gte|lt|lte|ne):)?(\d{1,17})(?:\.(\d{1,9}))?$/i;

/**
 * One timestamp value as upstream's Java service reads it; null when it does not convert. The fraction is a
 * raw count of nanoseconds, not right-padded: `1.1` is 1 s + 1 ns. A value beyond int64 does not convert.
 */
export function parseJavaTimestamp(value: string): JavaTimestamp | null {
  const match = TIMESTAMP.exec(value);
  if (match === null) return null;
  const operator = (match[1] ?? "eq").toLowerCase();
  if (operator === "ne") return null;
  const ns = BigInt(match[2] ?? "0") * 1_000_000_000n + BigInt(match[3] ?? "0");
  if (ns > MAX_INT64) return null;
  return { operator: operator as RangeOperator, ns };
}

/**
 * The values of a multi-valued `@RequestParam`. A single value is split on commas (Spring's String-to-array
 * conversion), each piece trimmed; blank pieces are dropped.
 */
export function multiValues(query: JavaQuery, name: string): string[] {
  const values = query.get(name) ?? [];
  const pieces = values.length === 1 ? (values[0] ?? "").split(",").map((v) => v.trim()) : [...values];
  return pieces.filter((v) => v.trim() !== "");
}

export type TimestampOptions = {
  /** Parameter name (default `timestamp`). */
  name?: string;
  /** Most values accepted (default 2): more give `<name> size must be between 0 and <max>`. */
  maxValues?: number;
  /**
   * Refuse a lower bound above the upper bound with `Invalid range provided for <name>` (default false).
   * Upstream checks this for `/network/supply` only; `fees` and `exchangerate` just find nothing.
   */
  rejectInvertedRange?: boolean;
};

/**
 * `timestamp` bounds as upstream's `Bound` builds them (api.md §3.1): every value must convert
 * (`Failed to convert 'timestamp'`, checked first), at most two values, `eq` means `lte`, the last lower-bound
 * value (`gt`/`gte`) and the last upper-bound value (`lt`/`lte`/`eq`) win, `gt` adds 1 ns and `lt` takes
 * 1 ns away. Throws `JavaHttpError`.
 */
export function readTimestampBounds(query: JavaQuery, options: TimestampOptions = {}): TimestampBounds {
  return timestampBounds(convertTimestamps(query, options.name), options);
}

/** A converted `timestamp` value: operator (`eq` when none) and nanoseconds. */
export type JavaTimestamp = { operator: RangeOperator; ns: bigint };

/**
 * The conversion step alone (`Failed to convert '<name>'`): upstream converts every argument of a request
 * before it validates any, so an endpoint with more parameters converts them all before `timestampBounds`.
 */
export function convertTimestamps(query: JavaQuery, name = "timestamp"): JavaTimestamp[] {
  return multiValues(query, name).map((value) => {
    const timestamp = parseJavaTimestamp(value);
    if (timestamp === null) throw failedToConvert(name);
    return timestamp;
  });
}

/** The validation step: the count (`<name> size must be between 0 and 2`), then the bounds. */
export function timestampBounds(
  parsed: readonly JavaTimestamp[],
  options: TimestampOptions = {},
): TimestampBounds {
  const name = options.name ?? "timestamp";
  const maxValues = options.maxValues ?? 2;
  if (parsed.length > maxValues) {
    throw javaBadRequest(`${name} size must be between 0 and ${maxValues}`);
  }
  let lower: JavaTimestamp | undefined;
  let upper: JavaTimestamp | undefined;
  for (const value of parsed) {
    if (value.operator === "gt" || value.operator === "gte") lower = value;
    else upper = value;
  }
  const lowerNs = lower === undefined ? 0n : lower.operator === "gt" ? lower.ns + 1n : lower.ns;
  const upperNs = upper === undefined ? MAX_INT64 : upper.operator === "lt" ? upper.ns - 1n : upper.ns;
  if (options.rejectInvertedRange === true && lowerNs > upperNs) {
    throw javaBadRequest(`Invalid range provided for ${name}`);
  }
  return { lowerNs, upperNs, hasUpper: upper !== undefined, hasLower: lower !== undefined };
}

/**
 * The one value of a single-valued request-object field, or undefined when absent or blank (upstream looks at
 * the first value: a blank first value means "use the default"). More than one value gives 400
 * `Only a single instance is supported for <name>`.
 */
export function readSingle(query: JavaQuery, name: string): string | undefined {
  const values = query.get(name);
  if (values === undefined || values.length === 0 || (values[0] ?? "").trim() === "") return undefined;
  if (values.length > 1) throw javaBadRequest(`Only a single instance is supported for ${name}`);
  return values[0];
}

/**
 * The value of a single-valued plain `@RequestParam`: its first value (Spring takes element 0 of a repeated
 * one), or undefined when absent or empty.
 */
export function readFirst(query: JavaQuery, name: string): string | undefined {
  const first = query.get(name)?.[0];
  return first === undefined || first.trim() === "" ? undefined : first;
}

/** `asc`/`desc` in any case (surrounding blanks ignored); null for anything else. */
export function parseOrder(value: string): Order | null {
  const lower = value.trim().toLowerCase();
  return lower === "asc" || lower === "desc" ? lower : null;
}

/** `order` as a plain `@RequestParam` (`/network/fees`): default asc, `Failed to convert 'order'`. */
export function readOrderParam(query: JavaQuery, name = "order", fallback: Order = "asc"): Order {
  const value = readFirst(query, name);
  if (value === undefined) return fallback;
  const order = parseOrder(value);
  if (order === null) throw failedToConvert(name);
  return order;
}

/**
 * A case-insensitive choice among `allowed` as a plain `@RequestParam` (e.g. `q` of `/network/supply`):
 * undefined when absent, the lower-cased choice, or `Failed to convert '<name>'`.
 */
export function readChoiceParam<T extends string>(
  query: JavaQuery,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = readFirst(query, name);
  if (value === undefined) return undefined;
  const lower = value.trim().toLowerCase();
  const choice = allowed.find((a) => a.toLowerCase() === lower);
  if (choice === undefined) throw failedToConvert(name);
  return choice;
}

/** A Java `int` in decimal (optional sign, surrounding blanks ignored); null when it is not one. */
export function parseJavaInt(value: string): number | null {
  const trimmed = value.trim();
  if (!/^[+-]?\d{1,10}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : null;
}

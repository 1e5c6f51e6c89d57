/**
 * Integer value checks of upstream's `rest/utils.js`: `isPositiveLong` (at most 19 decimal digits, within
 * int64) and `isHexPositiveInt` (a `0x` number read with JavaScript's `parseInt`, quirks included).
 */

import { MAX_INT64 } from "../../int64.ts";

export const MAX_LONG = MAX_INT64;

const POSITIVE_LONG = /^\d{1,19}$/;

/** A decimal int64 from 1 (or 0 with `allowZero`) to 2^63-1, with at most 19 digits. */
export function isPositiveLong(value: string, allowZero = false): boolean {
  if (!POSITIVE_LONG.test(value)) return false;
  const parsed = BigInt(value);
  return parsed >= (allowZero ? 0n : 1n) && parsed <= MAX_LONG;
}

/**
 * Reads a `0x`-prefixed block number the way upstream does: `parseInt(value, 16)` stops at the first non-hex
 * character (so `0x1g` reads as 1) and goes through a double, then the decimal text of that double must be a
 * positive long. Returns null when upstream rejects the value.
 */
export function parseHexLong(value: string, allowZero = false): bigint | null {
  if (!value.startsWith("0x")) return null;
  const parsed = Number.parseInt(value, 16);
  if (!isPositiveLong(String(parsed), allowZero)) return null;
  return BigInt(parsed);
}

/** Java `long` arithmetic as the fee library uses it: sums and products saturate at 2^63-1 instead of wrapping. */
import { MAX_INT64 } from "../int64.ts";

export function clampedAdd(a: bigint, b: bigint): bigint {
  const sum = a + b;
  return sum > MAX_INT64 ? MAX_INT64 : sum;
}

export function clampedMultiply(a: bigint, b: bigint): bigint {
  const product = a * b;
  return product > MAX_INT64 ? MAX_INT64 : product;
}

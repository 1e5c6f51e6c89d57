import type Long from "long";

/** Converts a protobufjs int64 (a `Long`, or a plain number for small values) to an exact bigint. */
export function toBigInt(value: Long | number | null | undefined): bigint {
  if (value == null) return 0n;
  if (typeof value === "number") return BigInt(value);
  const big = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
  return value.unsigned ? big : BigInt.asIntN(64, big);
}

import Long from "long";

const TWO_32 = 4294967296;

/** Converts a protobufjs int64 (a `Long`, or a plain number for small values) to an exact bigint. */
export function toBigInt(value: Long | number | null | undefined): bigint {
  if (value == null) return 0n;
  if (typeof value === "number") return BigInt(value);
  const { high, low } = value;
  // Most int64 values on a ledger (ids, amounts, nanos) fit 53 bits: one exact double, one BigInt.
  if (high >= 0 && high < 0x200000) return BigInt(high * TWO_32 + (low >>> 0));
  const big = (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
  return value.unsigned ? big : BigInt.asIntN(64, big);
}

/** The protobufjs int64 for an exact bigint (wrapped to 64 bits), built from its two halves without a string. */
export function toLong(value: bigint, unsigned = false): Long {
  const bits = BigInt.asUintN(64, value);
  return Long.fromBits(Number(bits & 0xffffffffn) | 0, Number(bits >> 32n) | 0, unsigned);
}

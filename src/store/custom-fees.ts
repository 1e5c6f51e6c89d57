/**
 * A token's fee schedule as stored in `custom_fee.fees`: JSON whose int64 values (amounts, entity ids) are
 * decimal strings so that no value passes through a JS number.
 */
export type FixedFeeValue = {
  kind: "fixed";
  amount: bigint;
  collectorId: bigint | null;
  denominatingTokenId: bigint | null;
  allCollectorsAreExempt: boolean;
};
export type FractionalFeeValue = {
  kind: "fractional";
  numerator: bigint;
  denominator: bigint;
  minimum: bigint;
  maximum: bigint | null;
  netOfTransfers: boolean;
  collectorId: bigint | null;
  allCollectorsAreExempt: boolean;
};
export type RoyaltyFeeValue = {
  kind: "royalty";
  numerator: bigint;
  denominator: bigint;
  fallback: { amount: bigint; denominatingTokenId: bigint | null } | null;
  collectorId: bigint | null;
  allCollectorsAreExempt: boolean;
};
export type CustomFeeValue = FixedFeeValue | FractionalFeeValue | RoyaltyFeeValue;

const BIGINT_FIELDS = new Set([
  "amount",
  "collectorId",
  "denominatingTokenId",
  "numerator",
  "denominator",
  "minimum",
  "maximum",
]);

export function encodeCustomFees(fees: readonly CustomFeeValue[]): string {
  return JSON.stringify(fees, (_key, value) => (typeof value === "bigint" ? value.toString() : value));
}

export function decodeCustomFees(json: string): CustomFeeValue[] {
  return JSON.parse(json, (key, value) =>
    BIGINT_FIELDS.has(key) && typeof value === "string" ? BigInt(value) : value,
  ) as CustomFeeValue[];
}

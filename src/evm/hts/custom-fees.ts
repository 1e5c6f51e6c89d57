import type { CustomFeeValue } from "../../store/custom-fees.ts";
import { longZeroAddress } from "../address.ts";
import { type AbiValue, addressWord, arrayValue, boolWord, tupleValue, uintWord } from "./abi.ts";

const ZERO_ADDRESS = new Uint8Array(20);
const UINT32_MAX = 0xffff_ffffn;

const idAddress = (id: bigint | null): Uint8Array =>
  id === null || id === 0n ? ZERO_ADDRESS : longZeroAddress(id);

/** A `uint32` field; null where headlong would refuse the value (the consensus node then halts). */
function uint32(value: bigint): AbiValue | null {
  return value < 0n || value > UINT32_MAX ? null : uintWord(value);
}

function tupleOf(values: Array<AbiValue | null>): AbiValue | null {
  return values.includes(null) ? null : tupleValue(...(values as AbiValue[]));
}

/**
 * The token service's three fee arrays (`FixedFee[]`, `FractionalFee[]`, `RoyaltyFee[]`) of a fee schedule, as
 * `TokenTupleUtils.feesTupleFor` builds them (amounts as uint32, ids as long-zero addresses, `useHbarsForPayment`
 * when a fee names no token), or null when an amount does not fit a uint32.
 */
export function customFeeArrays(fees: readonly CustomFeeValue[]): AbiValue[] | null {
  const fixed: Array<AbiValue | null> = [];
  const fractional: Array<AbiValue | null> = [];
  const royalty: Array<AbiValue | null> = [];
  for (const fee of fees) {
    const collector = addressWord(idAddress(fee.collectorId));
    if (fee.kind === "fixed") {
      fixed.push(
        tupleOf([
          uint32(fee.amount),
          addressWord(idAddress(fee.denominatingTokenId)),
          boolWord(fee.denominatingTokenId === null),
          boolWord(false),
          collector,
        ]),
      );
    } else if (fee.kind === "fractional") {
      fractional.push(
        tupleOf([
          uint32(fee.numerator),
          uint32(fee.denominator),
          uint32(fee.minimum),
          uint32(fee.maximum ?? 0n),
          boolWord(fee.netOfTransfers),
          collector,
        ]),
      );
    } else {
      const denomination = fee.fallback?.denominatingTokenId ?? null;
      royalty.push(
        tupleOf([
          uint32(fee.numerator),
          uint32(fee.denominator),
          uint32(fee.fallback?.amount ?? 0n),
          addressWord(idAddress(denomination)),
          boolWord(denomination === null),
          collector,
        ]),
      );
    }
  }
  const all = [fixed, fractional, royalty];
  if (all.some((list) => list.includes(null))) return null;
  return all.map((list) => arrayValue(list as AbiValue[]));
}

/**
 * Custom fee schedules as scenarios write them, as a TokenCreate / TokenFeeScheduleUpdate body carries
 * them, and as the ledger keeps them, with the checks a node applies when a schedule is set.
 *
 * Scenario form (a list):
 *   - fixed: { amount: 5, denom: hbar | self | <TOKEN>, collector: carol, allCollectorsExempt: true }
 *   - fractional: { numerator: 1, denominator: 100, min: 1, max: 50, netOfTransfers: true, collector: carol }
 *   - royalty: { numerator: 1, denominator: 10, fallback: { amount: "1 hbar", denom: hbar }, collector: carol }
 * `denom: self` is the sentinel 0.0.0 that a node replaces with the token the fee belongs to.
 */
import type { proto } from "../proto.ts";
import { Args } from "./args.ts";
import {
  type CustomFee,
  type FixedAmount,
  type Ledger,
  ScenarioError,
  type TokenType,
  TxFailure,
} from "./ledger.ts";
import { accountId, long, tokenId } from "./pb.ts";

export type DenomSpec = { kind: "hbar" } | { kind: "self" } | { kind: "token"; handle: string };

type FixedSpec = { amount: bigint; denom: DenomSpec };

export type CustomFeeSpec = { collector: string; allCollectorsExempt: boolean } & (
  | ({ kind: "fixed" } & FixedSpec)
  | {
      kind: "fractional";
      numerator: bigint;
      denominator: bigint;
      minimum: bigint;
      maximum: bigint;
      netOfTransfers: boolean;
    }
  | { kind: "royalty"; numerator: bigint; denominator: bigint; fallback: FixedSpec | null }
);

export function parseCustomFees(where: string, list: unknown[]): CustomFeeSpec[] {
  return list.map((item, i) => {
    const outer = new Args(`${where}[${i}]`, item);
    const kinds = outer.keys();
    if (kinds.length !== 1)
      throw new ScenarioError(`${outer.where}: expected one of fixed, fractional, royalty`);
    const kind = kinds[0]!;
    const a = outer.sub(kind);
    const common = {
      collector: a.str("collector"),
      allCollectorsExempt: a.bool("allCollectorsExempt", false),
    };
    let spec: CustomFeeSpec;
    if (kind === "fixed") spec = { kind, ...common, ...parseFixed(a) };
    else if (kind === "fractional") {
      spec = {
        kind,
        ...common,
        numerator: a.bigint("numerator"),
        denominator: a.bigint("denominator"),
        minimum: a.optBigint("min") ?? 0n,
        maximum: a.optBigint("max") ?? 0n,
        netOfTransfers: a.bool("netOfTransfers", false),
      };
    } else if (kind === "royalty") {
      spec = {
        kind,
        ...common,
        numerator: a.bigint("numerator"),
        denominator: a.bigint("denominator"),
        fallback: a.has("fallback") ? parseFallback(a.sub("fallback")) : null,
      };
    } else throw new ScenarioError(`${outer.where}: unknown fee kind ${kind}`);
    a.done();
    return spec;
  });
}

function parseFallback(a: Args): FixedSpec {
  const spec = parseFixed(a);
  a.done();
  return spec;
}

function parseFixed(a: Args): FixedSpec {
  const denomName = a.optStr("denom") ?? "hbar";
  const denom: DenomSpec =
    denomName === "hbar"
      ? { kind: "hbar" }
      : denomName === "self"
        ? { kind: "self" }
        : { kind: "token", handle: denomName };
  return { amount: denom.kind === "hbar" ? a.tinybars("amount") : a.bigint("amount"), denom };
}

/** The body form: `self` stays the 0.0.0 sentinel. */
export function customFeesToProto(specs: CustomFeeSpec[], ledger: Ledger): proto.ICustomFee[] {
  return specs.map((spec) => {
    const fee: proto.ICustomFee = { feeCollectorAccountId: accountId(ledger.account(spec.collector).num) };
    if (spec.allCollectorsExempt) fee.allCollectorsAreExempt = true;
    if (spec.kind === "fixed") fee.fixedFee = fixedToProto(spec, ledger);
    else if (spec.kind === "fractional") {
      const fractional: proto.IFractionalFee = {
        fractionalAmount: fraction(spec.numerator, spec.denominator),
      };
      if (spec.minimum !== 0n) fractional.minimumAmount = long(spec.minimum);
      if (spec.maximum !== 0n) fractional.maximumAmount = long(spec.maximum);
      if (spec.netOfTransfers) fractional.netOfTransfers = true;
      fee.fractionalFee = fractional;
    } else {
      const royalty: proto.IRoyaltyFee = {
        exchangeValueFraction: fraction(spec.numerator, spec.denominator),
      };
      if (spec.fallback !== null) royalty.fallbackFee = fixedToProto(spec.fallback, ledger);
      fee.royaltyFee = royalty;
    }
    return fee;
  });
}

function fixedToProto(spec: FixedSpec, ledger: Ledger): proto.IFixedFee {
  const fixed: proto.IFixedFee = { amount: long(spec.amount) };
  if (spec.denom.kind === "self") fixed.denominatingTokenId = tokenId(0n);
  if (spec.denom.kind === "token") fixed.denominatingTokenId = tokenId(ledger.token(spec.denom.handle).num);
  return fixed;
}

function fraction(numerator: bigint, denominator: bigint): proto.IFraction {
  return { numerator: long(numerator), denominator: long(denominator) };
}

/** The ledger form, with `self` replaced by the token the schedule belongs to. */
export function customFeesToState(specs: CustomFeeSpec[], ledger: Ledger, ownerToken: bigint): CustomFee[] {
  const amount = (spec: FixedSpec): FixedAmount => ({
    amount: spec.amount,
    denomination:
      spec.denom.kind === "hbar"
        ? 0n
        : spec.denom.kind === "self"
          ? ownerToken
          : ledger.token(spec.denom.handle).num,
  });
  return specs.map((spec): CustomFee => {
    const common = {
      collector: ledger.account(spec.collector).num,
      allCollectorsExempt: spec.allCollectorsExempt,
    };
    if (spec.kind === "fixed") return { kind: "fixed", ...common, ...amount(spec) };
    if (spec.kind === "fractional") {
      const { numerator, denominator, minimum, maximum, netOfTransfers } = spec;
      return { kind: "fractional", ...common, numerator, denominator, minimum, maximum, netOfTransfers };
    }
    return {
      kind: "royalty",
      ...common,
      numerator: spec.numerator,
      denominator: spec.denominator,
      fallback: spec.fallback === null ? null : amount(spec.fallback),
    };
  });
}

/**
 * The checks a node makes on a fee schedule. At creation, collectors of fractional and self-denominated
 * fees are associated by the TokenCreate itself; on a fee schedule update they must already be.
 */
export function validateCustomFees(
  fees: CustomFee[],
  owner: { num: bigint; type: TokenType },
  ledger: Ledger,
  atCreation: boolean,
): void {
  if (fees.length > 10) throw new TxFailure("CUSTOM_FEES_LIST_TOO_LONG", "at most 10 custom fees");
  for (const fee of fees) {
    const collector = ledger.accounts.get(fee.collector);
    if (collector === undefined || collector.deleted) {
      throw new TxFailure("INVALID_CUSTOM_FEE_COLLECTOR", `collector 0.0.${fee.collector}`);
    }
    const fixed = fee.kind === "fixed" ? fee : fee.kind === "royalty" ? fee.fallback : null;
    if (fee.kind === "fractional") {
      if (owner.type !== "fungible") {
        throw new TxFailure(
          "CUSTOM_FRACTIONAL_FEE_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON",
          "fractional fee on an NFT",
        );
      }
      if (fee.denominator === 0n) throw new TxFailure("FRACTION_DIVIDES_BY_ZERO", "fractional fee");
      if (fee.maximum !== 0n && fee.maximum < fee.minimum) {
        throw new TxFailure("FRACTIONAL_FEE_MAX_AMOUNT_LESS_THAN_MIN_AMOUNT", "fractional fee");
      }
      if (!atCreation) requireCollectorAssociated(fee.collector, owner.num, ledger);
    }
    if (fee.kind === "royalty") {
      if (owner.type !== "nft") {
        throw new TxFailure(
          "CUSTOM_ROYALTY_FEE_ONLY_ALLOWED_FOR_NON_FUNGIBLE_UNIQUE",
          "royalty fee on a fungible token",
        );
      }
      if (fee.denominator === 0n) throw new TxFailure("FRACTION_DIVIDES_BY_ZERO", "royalty fee");
    }
    if (fixed !== null && fixed.denomination !== 0n) {
      if (fixed.denomination === owner.num) {
        if (owner.type !== "fungible") {
          throw new TxFailure("CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON", "fee in units of an NFT");
        }
        if (!atCreation) requireCollectorAssociated(fee.collector, owner.num, ledger);
      } else {
        const denom = ledger.tokens.get(fixed.denomination);
        if (denom === undefined)
          throw new TxFailure("INVALID_TOKEN_ID_IN_CUSTOM_FEES", `0.0.${fixed.denomination}`);
        if (denom.type !== "fungible") {
          throw new TxFailure(
            "CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON",
            `fee in units of ${denom.handle}`,
          );
        }
        requireCollectorAssociated(fee.collector, denom.num, ledger);
      }
    }
  }
}

function requireCollectorAssociated(collector: bigint, token: bigint, ledger: Ledger): void {
  if (ledger.rel(collector, token) === undefined) {
    throw new TxFailure(
      "TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR",
      `collector 0.0.${collector} and 0.0.${token}`,
    );
  }
}

/** Collectors a TokenCreate associates with the new token: fractional and self-denominated fixed fees. */
export function collectorsNeedingAssociation(fees: CustomFee[], ownerToken: bigint): bigint[] {
  return fees
    .filter((fee) => fee.kind === "fractional" || (fee.kind === "fixed" && fee.denomination === ownerToken))
    .map((fee) => fee.collector);
}

/**
 * The simple-fee schedule (system file 0.0.113) in the form the calculator reads: every amount a bigint in
 * tinycents, extras by their `Extra` enum name, service definitions by `HederaFunctionality` name.
 */
import type { ExtraName } from "./extra-names.ts";

/** An extra a fee definition charges for, and how many units its base fee already includes. */
export type ExtraReference = { name: ExtraName; includedCount: bigint };

/** HIP-1313 rates: multipliers are fixed point, 1000 = 1x. */
export type HighVolumeRates = {
  maxMultiplier: bigint;
  points: ReadonlyArray<{ utilizationBasisPoints: bigint; multiplier: bigint }>;
};

export type ServiceFeeDefinition = {
  functionality: string;
  baseFee: bigint;
  /** In schedule order; lookups go through `includedCount` in the calculator. */
  extras: readonly ExtraReference[];
  highVolumeRates: HighVolumeRates | null;
  nodeNetworkFeeExempt: boolean;
};

export type FeeSchedule = {
  nodeBaseFee: bigint;
  /** In schedule order: the order node extras appear in a response. */
  nodeExtras: readonly ExtraReference[];
  networkMultiplier: bigint;
  /** Tinycents per unit of each defined extra. */
  extraFees: ReadonlyMap<ExtraName, bigint>;
  /** By functionality name; the first definition wins when services repeat one. */
  services: ReadonlyMap<string, ServiceFeeDefinition>;
};

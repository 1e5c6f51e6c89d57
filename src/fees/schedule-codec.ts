import { EXTRA_NAMES, type ExtraName } from "./extra-names.ts";
import type { ExtraReference, FeeSchedule, HighVolumeRates, ServiceFeeDefinition } from "./schedule.ts";
import { feeScheduleMessage } from "./schedule-proto.ts";
import { validateSchedule } from "./schedule-validation.ts";

/** A 0.0.113 content that does not parse or fails validation; the previous schedule stays in force. */
export class InvalidFeeScheduleError extends Error {
  override readonly name = "InvalidFeeScheduleError";
}

/** The decoded message as protobufjs `toObject` gives it with int64 as strings and enums as names. */
type RawReference = { name: string | number; includedCount: number };
type RawSchedule = {
  node?: { baseFee: string; extras: RawReference[] };
  network?: { multiplier: number };
  extras: Array<{ name: string | number; fee: string }>;
  services: Array<{
    name: string;
    schedule: Array<{
      name: string | number;
      baseFee: string;
      extras: RawReference[];
      highVolumeRates?: {
        maxMultiplier: number;
        pricingCurve?: {
          piecewiseLinear?: { points: Array<{ utilizationBasisPoints: number; multiplier: number }> };
        };
      };
      nodeNetworkFeeExempt: boolean;
    }>;
  }>;
};
export type { RawSchedule };

const KNOWN_EXTRAS = new Set<string>(EXTRA_NAMES);

/**
 * Parses the binary `FeeSchedule` of 0.0.113 and validates it as the consensus node does (fees.md §3.5).
 * Throws InvalidFeeScheduleError for anything the node would refuse.
 */
export function parseFeeSchedule(bytes: Uint8Array): FeeSchedule {
  const type = feeScheduleMessage();
  let raw: RawSchedule;
  try {
    raw = type.toObject(type.decode(bytes), {
      longs: String,
      enums: String,
      defaults: true,
      arrays: true,
    }) as RawSchedule;
  } catch (error) {
    throw new InvalidFeeScheduleError(`fee schedule does not parse: ${(error as Error).message}`);
  }
  const problem = validateSchedule(raw);
  if (problem !== null) throw new InvalidFeeScheduleError(`invalid fee schedule: ${problem}`);
  return normalize(raw);
}

/** Encodes a schedule written in the proto3 JSON form (the genesis resource's authoring format). */
export function encodeFeeScheduleJson(json: unknown): Uint8Array {
  const type = feeScheduleMessage();
  return type.encode(type.fromObject(json as Record<string, unknown>)).finish();
}

function references(raw: readonly RawReference[]): ExtraReference[] {
  // Extras a newer node may define are not priced by this version: they are left out rather than refused.
  return raw
    .filter((r) => KNOWN_EXTRAS.has(String(r.name)))
    .map((r) => ({ name: r.name as ExtraName, includedCount: BigInt(r.includedCount) }));
}

function normalize(raw: RawSchedule): FeeSchedule {
  const extraFees = new Map<ExtraName, bigint>();
  for (const extra of raw.extras) {
    if (KNOWN_EXTRAS.has(String(extra.name))) extraFees.set(extra.name as ExtraName, BigInt(extra.fee));
  }
  const services = new Map<string, ServiceFeeDefinition>();
  for (const service of raw.services) {
    for (const def of service.schedule) {
      const functionality = String(def.name);
      if (services.has(functionality)) continue;
      let highVolumeRates: HighVolumeRates | null = null;
      if (def.highVolumeRates) {
        highVolumeRates = {
          maxMultiplier: BigInt(def.highVolumeRates.maxMultiplier),
          points: (def.highVolumeRates.pricingCurve?.piecewiseLinear?.points ?? []).map((p) => ({
            utilizationBasisPoints: BigInt(p.utilizationBasisPoints),
            multiplier: BigInt(p.multiplier),
          })),
        };
      }
      services.set(functionality, {
        functionality,
        baseFee: BigInt(def.baseFee),
        extras: references(def.extras),
        highVolumeRates,
        nodeNetworkFeeExempt: def.nodeNetworkFeeExempt,
      });
    }
  }
  return {
    nodeBaseFee: BigInt(raw.node!.baseFee),
    nodeExtras: references(raw.node!.extras),
    networkMultiplier: BigInt(raw.network!.multiplier),
    extraFees,
    services,
  };
}

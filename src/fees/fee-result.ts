import { FeeEstimateError } from "./errors.ts";
import type { ExtraName } from "./extra-names.ts";
import { clampedAdd, clampedMultiply } from "./int64.ts";
import type { FeeSchedule, ServiceFeeDefinition } from "./schedule.ts";

/** One charged extra. `charged = count - included > 0`; extras within their included count are not recorded. */
export type ChargedExtra = {
  name: ExtraName;
  count: bigint;
  included: bigint;
  charged: bigint;
  feePerUnit: bigint;
};

/**
 * The fee library's `FeeResult`: node and service components with their extras in the order they were added,
 * totals kept alongside (high-volume scaling scales totals directly, so they are not always Σ parts).
 */
export type FeeResult = {
  nodeBase: bigint;
  nodeExtras: ChargedExtra[];
  nodeTotal: bigint;
  networkMultiplier: bigint;
  serviceBase: bigint;
  serviceExtras: ChargedExtra[];
  serviceTotal: bigint;
  /** HIP-1313 raw multiplier, fixed point (1000 = none). */
  highVolumeMultiplier: bigint;
};

export function emptyFeeResult(): FeeResult {
  return {
    nodeBase: 0n,
    nodeExtras: [],
    nodeTotal: 0n,
    networkMultiplier: 0n,
    serviceBase: 0n,
    serviceExtras: [],
    serviceTotal: 0n,
    highVolumeMultiplier: 1000n,
  };
}

/** Everything zero, network multiplier 0: what system deletes, hook dispatches and system-file updates cost. */
export function clearFeeResult(result: FeeResult): void {
  Object.assign(result, emptyFeeResult());
}

function extraFee(schedule: FeeSchedule, name: ExtraName): bigint {
  const fee = schedule.extraFees.get(name);
  if (fee === undefined) throw new FeeEstimateError(`Extra not defined ${name}`);
  return fee;
}

function charge(
  schedule: FeeSchedule,
  name: ExtraName,
  count: bigint,
  included: bigint,
): ChargedExtra | null {
  const charged = count - included;
  if (charged <= 0n) return null;
  return { name, count, included, charged, feePerUnit: extraFee(schedule, name) };
}

/** Node base fee and node extras in schedule order: processing bytes and signatures are all the node counts. */
export function addNodeFees(
  result: FeeResult,
  schedule: FeeSchedule,
  bytes: bigint,
  signatures: bigint,
): void {
  result.nodeBase = schedule.nodeBaseFee;
  result.nodeTotal = clampedAdd(result.nodeTotal, schedule.nodeBaseFee);
  for (const ref of schedule.nodeExtras) {
    const count = ref.name === "PROCESSING_BYTES" ? bytes : ref.name === "SIGNATURES" ? signatures : 0n;
    const extra = charge(schedule, ref.name, count, ref.includedCount);
    if (extra === null) continue;
    result.nodeExtras.push(extra);
    result.nodeTotal = clampedAdd(result.nodeTotal, clampedMultiply(extra.feePerUnit, extra.charged));
  }
  result.networkMultiplier = schedule.networkMultiplier;
}

/**
 * What a service calculator writes into: the definition it prices against and the result. `addExtra` takes the
 * included count from the definition's reference; a definition without one is a schedule the Java library refuses
 * with `Extra not defined <NAME>`.
 */
export type ServiceFees = {
  readonly schedule: FeeSchedule;
  readonly definition: ServiceFeeDefinition;
  setBase(fee: bigint): void;
  addExtra(name: ExtraName, count: bigint): void;
};

export function serviceFees(
  result: FeeResult,
  schedule: FeeSchedule,
  definition: ServiceFeeDefinition,
): ServiceFees {
  return {
    schedule,
    definition,
    setBase(fee) {
      result.serviceBase = clampedAdd(result.serviceBase, fee);
      result.serviceTotal = clampedAdd(result.serviceTotal, fee);
    },
    addExtra(name, count) {
      const ref = definition.extras.find((r) => r.name === name);
      if (ref === undefined) throw new FeeEstimateError(`Extra not defined ${name}`);
      const extra = charge(schedule, name, count, ref.includedCount);
      if (extra === null) return;
      result.serviceExtras.push(extra);
      result.serviceTotal = clampedAdd(result.serviceTotal, clampedMultiply(extra.feePerUnit, extra.charged));
    },
  };
}

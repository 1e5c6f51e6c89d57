import type { FeeResult } from "./fee-result.ts";
import { clampedMultiply } from "./int64.ts";
import type { HighVolumeRates } from "./schedule.ts";

/** 1x in the fixed point of HIP-1313 multipliers. */
export const MULTIPLIER_SCALE = 1000n;

/** Functionalities whose price scales with high-volume utilization (CryptoTransfer is throttled, not priced). */
export const HIGH_VOLUME_PRICED = new Set([
  "CryptoCreate",
  "ConsensusCreateTopic",
  "ScheduleCreate",
  "CryptoApproveAllowance",
  "FileCreate",
  "FileAppend",
  "ContractCreate",
  "HookStore",
  "TokenAssociateToAccount",
  "TokenAirdrop",
  "TokenClaimAirdrop",
  "TokenMint",
  "TokenCreate",
]);

/**
 * The raw multiplier R (1000 = 1x) at `utilization` basis points (fees.md §6): linear up to the maximum without a
 * curve, else interpolated between the curve's points, always within [1000, max].
 */
export function highVolumeMultiplier(rates: HighVolumeRates | null, utilizationBasisPoints: bigint): bigint {
  if (rates === null) return MULTIPLIER_SCALE;
  const u =
    utilizationBasisPoints < 0n ? 0n : utilizationBasisPoints > 10_000n ? 10_000n : utilizationBasisPoints;
  const max = rates.maxMultiplier > MULTIPLIER_SCALE ? rates.maxMultiplier : MULTIPLIER_SCALE;
  let r: bigint;
  if (rates.points.length === 0) {
    r = MULTIPLIER_SCALE + ((max - MULTIPLIER_SCALE) * u) / 10_000n;
  } else {
    const points = [...rates.points]
      .sort((a, b) => (a.utilizationBasisPoints < b.utilizationBasisPoints ? -1 : 1))
      .map((p) => ({
        u: p.utilizationBasisPoints,
        m: p.multiplier > MULTIPLIER_SCALE ? p.multiplier : MULTIPLIER_SCALE,
      }));
    r = interpolate(points, u);
  }
  if (r > max) r = max;
  return r < MULTIPLIER_SCALE ? MULTIPLIER_SCALE : r;
}

function interpolate(points: ReadonlyArray<{ u: bigint; m: bigint }>, u: bigint): bigint {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (points.length === 1) return first.m;
  let lower: { u: bigint; m: bigint } | undefined;
  let upper: { u: bigint; m: bigint } | undefined;
  for (const point of points) {
    if (point.u <= u) lower = point;
    if (upper === undefined && point.u >= u) upper = point;
  }
  if (lower === undefined) return first.m;
  if (upper === undefined) return last.m;
  if (lower.u === upper.u) return upper.m;
  return lower.m + ((upper.m - lower.m) * (u - lower.u)) / (upper.u - lower.u);
}

/**
 * Scales a result by R/1000 as the fee library does: bases and per-unit fees each floored, and the node and
 * service totals scaled directly (so Σ parts may differ from a total by rounding). Counts stay as they were.
 */
export function scaleFeeResult(result: FeeResult, r: bigint): void {
  result.highVolumeMultiplier = r;
  if (r === MULTIPLIER_SCALE) return;
  const scale = (x: bigint) => clampedMultiply(x, r) / MULTIPLIER_SCALE;
  result.nodeBase = scale(result.nodeBase);
  result.serviceBase = scale(result.serviceBase);
  for (const extra of [...result.nodeExtras, ...result.serviceExtras])
    extra.feePerUnit = scale(extra.feePerUnit);
  result.nodeTotal = scale(result.nodeTotal);
  result.serviceTotal = scale(result.serviceTotal);
}

import type { EstimateMode } from "../../fees/estimate.ts";

/** A query parameter the Java route refuses, with its detail text. */
export class FeeEstimateParamError extends Error {
  override readonly name = "FeeEstimateParamError";
}

export type FeeEstimateParams = { mode: EstimateMode; highVolumeThrottle: bigint };

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;

/** Spring binds one value: the first of repeated parameters. */
function first(value: unknown): string | undefined {
  if (Array.isArray(value)) return first(value[0]);
  return typeof value === "string" ? value : undefined;
}

/**
 * `mode` and `high_volume_throttle` as Spring binds them: names exact (trimmed), empty means the default, the
 * throttle an int32 within 0..10000 (conversion is checked before range, as Spring converts before it validates).
 */
export function parseFeeEstimateParams(query: Record<string, unknown>): FeeEstimateParams {
  const modeText = first(query.mode)?.trim() ?? "";
  let mode: EstimateMode;
  if (modeText === "" || modeText === "INTRINSIC") mode = "INTRINSIC";
  else if (modeText === "STATE") mode = "STATE";
  else throw new FeeEstimateParamError("Failed to convert 'mode'");

  const throttleText = first(query.high_volume_throttle)?.trim() ?? "";
  let highVolumeThrottle = 0n;
  if (throttleText !== "") {
    if (!/^[+-]?\d{1,19}$/.test(throttleText))
      throw new FeeEstimateParamError("Failed to convert 'high_volume_throttle'");
    highVolumeThrottle = BigInt(throttleText);
    if (highVolumeThrottle < INT32_MIN || highVolumeThrottle > INT32_MAX) {
      throw new FeeEstimateParamError("Failed to convert 'high_volume_throttle'");
    }
  }
  if (highVolumeThrottle < 0n) {
    throw new FeeEstimateParamError("highVolumeThrottle must be greater than or equal to 0");
  }
  if (highVolumeThrottle > 10_000n) {
    throw new FeeEstimateParamError("highVolumeThrottle must be less than or equal to 10000");
  }
  return { mode, highVolumeThrottle };
}

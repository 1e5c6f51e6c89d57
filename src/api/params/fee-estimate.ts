import type { EstimateMode } from "../../fees/estimate.ts";
import {
  failedToConvert,
  type JavaQuery,
  javaBadRequest,
  parseJavaInt,
  readChoiceParam,
  readFirst,
} from "../java/index.ts";

export type FeeEstimateParams = { mode: EstimateMode; highVolumeThrottle: bigint };

/**
 * `mode` and `high_volume_throttle` as Spring binds them on `POST /api/v1/network/fees`: an empty value takes the
 * default, the first of repeated values counts, `mode` is a name in any case (api.md §3.4), and the throttle an
 * int converted before its 0..10000 range is validated. Throws `JavaHttpError` (400).
 */
export function readFeeEstimateParams(query: JavaQuery): FeeEstimateParams {
  const mode = readChoiceParam(query, "mode", ["INTRINSIC", "STATE"] as const) ?? "INTRINSIC";
  const throttleText = readFirst(query, "high_volume_throttle");
  let throttle = 0;
  if (throttleText !== undefined) {
    const parsed = parseJavaInt(throttleText);
    if (parsed === null) throw failedToConvert("high_volume_throttle");
    throttle = parsed;
  }
  if (throttle < 0) throw javaBadRequest("highVolumeThrottle must be greater than or equal to 0");
  if (throttle > 10_000) throw javaBadRequest("highVolumeThrottle must be less than or equal to 10000");
  return { mode, highVolumeThrottle: BigInt(throttle) };
}

import { toJson } from "../../src/api/json.ts";
import { feeEstimateView } from "../../src/api/views/fee-estimate.ts";
import type { EstimateMode } from "../../src/fees/estimate.ts";
import { estimateFees } from "../../src/fees/estimate.ts";
import type { FeeState, TokenFeeFacts } from "../../src/fees/fee-state.ts";
import { genesisFeeSchedule } from "../../src/fees/genesis-schedule.ts";
import type { FeeSchedule } from "../../src/fees/schedule.ts";

/**
 * A fee state from plain maps: the calculators are pure, so their unit tests give them the facts directly (the
 * index-backed state is exercised over HTTP in test/api/fee-estimate-state.test.ts).
 */
export function stateOf(
  tokens: Record<number, TokenFeeFacts> = {},
  topicsWithFees: readonly number[] = [],
): FeeState {
  return {
    token: (num) => tokens[Number(num)],
    topicHasFixedFees: (num) => topicsWithFees.includes(Number(num)),
  };
}

/** The response body (parsed JSON, numbers) for a transaction, as the route would send it. */
export function estimate(
  bytes: Uint8Array,
  options: { mode?: EstimateMode; throttle?: number; state?: FeeState; schedule?: FeeSchedule } = {},
) {
  const result = estimateFees(bytes, {
    mode: options.mode ?? "INTRINSIC",
    highVolumeThrottle: BigInt(options.throttle ?? 0),
    schedule: options.schedule ?? genesisFeeSchedule(),
    state: options.state ?? stateOf(),
  });
  return JSON.parse(toJson(feeEstimateView(result))) as FeeEstimateJson;
}

export type ExtraJson = {
  name: string;
  count: number;
  included: number;
  charged: number;
  fee_per_unit: number;
  subtotal: number;
};
export type FeeEstimateJson = {
  high_volume_multiplier: number;
  network: { multiplier: number; subtotal: number };
  node: { base: number; extras: ExtraJson[] };
  service: { base: number; extras: ExtraJson[] };
  total: number;
};

/** An extra as the response lists it, from (name, count, included, fee per unit). */
export function extra(name: string, count: number, included: number, feePerUnit: number): ExtraJson {
  const charged = count - included;
  return { name, count, included, charged, fee_per_unit: feePerUnit, subtotal: charged * feePerUnit };
}

import { CALCULATORS } from "./calculators/index.ts";
import type { EstimateMode } from "./calculators/types.ts";
import { unknownTransactionType } from "./errors.ts";
import { addNodeFees, emptyFeeResult, type FeeResult, serviceFees } from "./fee-result.ts";
import type { FeeState } from "./fee-state.ts";
import { HIGH_VOLUME_PRICED, highVolumeMultiplier, scaleFeeResult } from "./high-volume.ts";
import { parseTransaction } from "./parse-transaction.ts";
import type { FeeSchedule } from "./schedule.ts";

export type { EstimateMode };

export type EstimateOptions = {
  mode: EstimateMode;
  /** High-volume throttle utilization in basis points (0..10000); only STATE mode uses it. */
  highVolumeThrottle: bigint;
  schedule: FeeSchedule;
  /** The index, for STATE mode; never consulted in INTRINSIC mode. */
  state: FeeState;
};

/**
 * Estimates the simple fees of one serialized `proto.Transaction` (fees.md §4.1): node fees (unless the
 * transaction's schedule entry is node/network exempt), the service calculator of its type, then HIP-1313
 * scaling for high-volume transactions in STATE mode. Throws FeeEstimateError for input the mirror node refuses.
 */
export function estimateFees(transactionBytes: Uint8Array, options: EstimateOptions): FeeResult {
  const { body, signatures, bytes } = parseTransaction(transactionBytes);
  const calculator = body.data == null ? undefined : CALCULATORS.get(body.data);
  if (calculator === undefined) throw unknownTransactionType();
  const result = emptyFeeResult();
  if (calculator.free) return result;
  const { schedule } = options;
  const definition = schedule.services.get(calculator.functionality);
  const pricing = calculator.pricedAs === undefined ? definition : schedule.services.get(calculator.pricedAs);
  if (definition === undefined || pricing === undefined) throw unknownTransactionType();
  if (!definition.nodeNetworkFeeExempt) addNodeFees(result, schedule, bytes, signatures);
  const state = options.mode === "STATE" ? options.state : null;
  calculator.calculate({ body, fees: serviceFees(result, schedule, pricing), state, result });
  if (state !== null && body.highVolume === true && HIGH_VOLUME_PRICED.has(calculator.functionality)) {
    scaleFeeResult(result, highVolumeMultiplier(definition.highVolumeRates, options.highVolumeThrottle));
  }
  return result;
}

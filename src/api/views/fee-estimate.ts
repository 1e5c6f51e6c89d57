import type { ChargedExtra, FeeResult } from "../../fees/fee-result.ts";
import { clampedAdd, clampedMultiply } from "../../fees/int64.ts";

/** One extra as the mirror node prints it; `subtotal` is the controller's plain `fee_per_unit × charged`. */
function extraView(extra: ChargedExtra) {
  return {
    name: extra.name,
    count: extra.count,
    included: extra.included,
    charged: extra.charged,
    fee_per_unit: extra.feePerUnit,
    subtotal: extra.feePerUnit * extra.charged,
  };
}

/**
 * The `POST /api/v1/network/fees` answer (fees.md §1): integer tinycents, network subtotal = node total ×
 * multiplier, total = node + network + service, `high_volume_multiplier` = R / 1000 rounded down.
 */
export function feeEstimateView(result: FeeResult) {
  const networkSubtotal = clampedMultiply(result.nodeTotal, result.networkMultiplier);
  return {
    high_volume_multiplier: result.highVolumeMultiplier / 1000n,
    network: { multiplier: result.networkMultiplier, subtotal: networkSubtotal },
    node: { base: result.nodeBase, extras: result.nodeExtras.map(extraView) },
    service: { base: result.serviceBase, extras: result.serviceExtras.map(extraView) },
    total: clampedAdd(clampedAdd(result.nodeTotal, networkSubtotal), result.serviceTotal),
  };
}

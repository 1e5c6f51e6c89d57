import { clearFeeResult } from "../fee-result.ts";
import type { ServiceCalculator } from "./types.ts";

export const HOOK_CALCULATORS: Record<string, ServiceCalculator> = {
  hookStore: {
    functionality: "HookStore",
    calculate({ body, fees }) {
      fees.setBase(fees.definition.baseFee);
      // One slot per storage_slot update, one per entry of a mapping update.
      let slots = 0n;
      for (const update of body.hookStore!.storageUpdates ?? []) {
        if (update.storageSlot != null) slots += 1n;
        else if (update.mappingEntries != null) slots += BigInt(update.mappingEntries.entries?.length ?? 0);
      }
      fees.addExtra("HOOK_SLOT_UPDATE", slots);
    },
  },
  // Dispatches are internal (synthetic) transactions: free.
  hookDispatch: {
    functionality: "HookDispatch",
    free: true,
    calculate: ({ result }) => clearFeeResult(result),
  },
};

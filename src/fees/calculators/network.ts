import { clearFeeResult } from "../fee-result.ts";
import { baseOnly, type ServiceCalculator } from "./types.ts";

/** Address-book, utility and privileged system transactions. */
export const NETWORK_CALCULATORS: Record<string, ServiceCalculator> = {
  nodeCreate: baseOnly("NodeCreate"),
  nodeUpdate: baseOnly("NodeUpdate"),
  nodeDelete: baseOnly("NodeDelete"),
  registeredNodeCreate: baseOnly("RegisteredNodeCreate"),
  registeredNodeUpdate: baseOnly("RegisteredNodeUpdate"),
  registeredNodeDelete: baseOnly("RegisteredNodeDelete"),
  utilPrng: baseOnly("UtilPrng"),
  // A batch is priced as its outer transaction only; its inner transactions pay for themselves.
  atomicBatch: baseOnly("AtomicBatch"),
  // Only privileged accounts may send these; they cost nothing.
  systemDelete: {
    functionality: "SystemDelete",
    free: true,
    calculate: ({ result }) => clearFeeResult(result),
  },
  systemUndelete: {
    functionality: "SystemUndelete",
    free: true,
    calculate: ({ result }) => clearFeeResult(result),
  },
};

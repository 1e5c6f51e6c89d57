import type { proto } from "../../streams/proto.ts";
import type { FeeResult, ServiceFees } from "../fee-result.ts";
import type { FeeState } from "../fee-state.ts";

export type EstimateMode = "INTRINSIC" | "STATE";

/** What a service calculator gets: the body, the service fees to add to, and (STATE only) the index. */
export type CalculatorInput = {
  body: proto.TransactionBody;
  fees: ServiceFees;
  /** null in INTRINSIC mode: the calculator has no fee context. */
  state: FeeState | null;
  result: FeeResult;
};

/**
 * The service part of one transaction type. `functionality` names the schedule entry that decides node/network
 * exemption and high-volume rates; `pricedAs` (default the same) names the entry whose base and extras it prices with.
 */
export type ServiceCalculator = {
  functionality: string;
  pricedAs?: string;
  /** Always free (privileged or synthetic transactions): priced all-zero without consulting the schedule. */
  free?: true;
  calculate(input: CalculatorInput): void;
};

/** A calculator that charges the definition's base fee and nothing else. */
export function baseOnly(functionality: string): ServiceCalculator {
  return { functionality, calculate: ({ fees }) => fees.setBase(fees.definition.baseFee) };
}

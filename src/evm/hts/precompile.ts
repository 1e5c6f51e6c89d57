import { EVMError, type ExecResult } from "@ethereumjs/evm";
import type { HtsLedger } from "./ledger.ts";
import { type TokenServiceFrame, tokenServiceAnswer } from "./token-service.ts";

/**
 * The gas a read of the token service charges: the consensus node's fixed view cost (its newer releases may instead
 * charge the canonical price of a token-info query when a feature flag is on; not modelled).
 */
export const TOKEN_VIEW_GAS = 100n;

const halt = (gasLimit: bigint, error: EVMError["error"]): ExecResult => ({
  executionGasUsed: gasLimit,
  exceptionError: new EVMError(error),
  returnValue: new Uint8Array(0),
});

/**
 * The token service's execution result for `data`, or null when the function is not executed here (the run then
 * ends as unsupported). A read costs `TOKEN_VIEW_GAS` (out of gas below it); a halt consumes the frame's gas.
 */
export function tokenServiceResult(
  ledger: HtsLedger,
  data: Uint8Array,
  gasLimit: bigint,
  frame: TokenServiceFrame,
): ExecResult | null {
  const outcome = tokenServiceAnswer(ledger, data, frame);
  switch (outcome.kind) {
    case "unsupported":
      return null;
    case "halt":
      return halt(gasLimit, EVMError.errorMessages.INVALID_OPCODE);
    default:
      if (gasLimit < TOKEN_VIEW_GAS) return halt(gasLimit, EVMError.errorMessages.OUT_OF_GAS);
      if (outcome.kind === "revert") {
        return {
          executionGasUsed: TOKEN_VIEW_GAS,
          exceptionError: new EVMError(EVMError.errorMessages.REVERT),
          returnValue: outcome.data,
        };
      }
      return { executionGasUsed: TOKEN_VIEW_GAS, returnValue: outcome.output };
  }
}

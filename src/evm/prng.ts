/**
 * The PRNG system contract at 0x169 (HIP-351), as the consensus node's `PrngSystemContract` answers inside
 * upstream's web3 module: `getPseudorandomSeed()` returns the first 32 bytes of the n-3 running hash, which
 * upstream's web3 state sets to the hash of the block asked (the same bytes PREVRANDAO shows).
 */
import { EVMError, type ExecResult } from "@ethereumjs/evm";

/** `getPseudorandomSeed()`. */
export const PSEUDORANDOM_SEED_SELECTOR = 0xd83bf9a1;

/**
 * The gas charged: the view cost, which is what the consensus node charges in a static frame. Outside one it
 * charges the canonical price of a UtilPrng transaction at the fee schedule's gas price (not modelled here).
 */
export const PRNG_GAS = 100n;

const halt = (gasLimit: bigint, error: EVMError["error"]): ExecResult => ({
  executionGasUsed: gasLimit,
  exceptionError: new EVMError(error),
  returnValue: new Uint8Array(0),
});

/**
 * The precompile's result: the 32-byte seed for `getPseudorandomSeed()` (anything after the selector ignored, as
 * upstream reads only the selector), a halt consuming the frame's gas for any other input.
 */
export function prngResult(data: Uint8Array, gasLimit: bigint, seed: Uint8Array): ExecResult {
  if (data.length < 4 || Buffer.from(data.subarray(0, 4)).readUInt32BE(0) !== PSEUDORANDOM_SEED_SELECTOR) {
    return halt(gasLimit, EVMError.errorMessages.INVALID_OPCODE);
  }
  if (gasLimit < PRNG_GAS) return halt(gasLimit, EVMError.errorMessages.OUT_OF_GAS);
  return { executionGasUsed: PRNG_GAS, returnValue: seed.subarray(0, 32) };
}

/**
 * The exchange-rate system contract at 0x168 (HIP-475), as the consensus node's `ExchangeRateSystemContract`
 * behaves (and so upstream's web3 module, which runs it): two functions over the rate in force, a fixed gas charge,
 * and an exceptional halt for anything else.
 */
import { EVMError, type ExecResult } from "@ethereumjs/evm";
import type { EvmExchangeRate, EvmExchangeRates } from "../store/evm-state.ts";

/** `tinycentsToTinybars(uint256)`. */
export const TO_TINYBARS_SELECTOR = 0x2e3cff6a;
/** `tinybarsToTinycents(uint256)`. */
export const TO_TINYCENTS_SELECTOR = 0x43a88229;

/** The consensus node's `contracts.precompile.exchangeRateGasCost` default, charged for every call. */
export const EXCHANGE_RATE_GAS = 100n;

/** A selector and exactly one 32-byte word: the ABI decoder upstream uses refuses shorter or longer input. */
const INPUT_LENGTH = 36;
const WORD_MAX = (1n << 256n) - 1n;

/** The rate of the set that applies at `nowSeconds`: the next one once the current one's expiry has passed. */
export function activeRate(rates: EvmExchangeRates, nowSeconds: bigint): EvmExchangeRate {
  return nowSeconds > rates.current.expirationSeconds ? rates.next : rates.current;
}

/**
 * The 32-byte answer of a call with `data` at `rate`, or null where upstream halts: unknown selector, input not a
 * selector and one word, no rate, a zero divisor, or a result the padding cannot hold (upstream left-pads the
 * two's-complement bytes of the result into 32, so a result of 2^255 or more does not fit).
 */
export function exchangeRateAnswer(data: Uint8Array, rate: EvmExchangeRate | undefined): Uint8Array | null {
  if (data.length !== INPUT_LENGTH || rate === undefined) return null;
  const selector = Buffer.from(data.subarray(0, 4)).readUInt32BE(0);
  const amount = BigInt(`0x${Buffer.from(data.subarray(4)).toString("hex")}`);
  let result: bigint;
  if (selector === TO_TINYBARS_SELECTOR) {
    if (rate.centEquiv === 0n) return null;
    result = (amount * rate.hbarEquiv) / rate.centEquiv;
  } else if (selector === TO_TINYCENTS_SELECTOR) {
    if (rate.hbarEquiv === 0n) return null;
    result = (amount * rate.centEquiv) / rate.hbarEquiv;
  } else {
    return null;
  }
  // A negative result needs a malformed file (negative equivalents); this halts where upstream would pad its
  // two's-complement bytes. Not seen on any network.
  if (result < 0n || result > WORD_MAX >> 1n) return null;
  return Uint8Array.from(Buffer.from(result.toString(16).padStart(64, "0"), "hex"));
}

/**
 * The precompile's execution result: the answer for `EXCHANGE_RATE_GAS`, out of gas below it, and otherwise an
 * exceptional halt that (as every halt) consumes the frame's gas.
 */
export function exchangeRateResult(
  data: Uint8Array,
  gasLimit: bigint,
  rate: EvmExchangeRate | undefined,
): ExecResult {
  if (gasLimit < EXCHANGE_RATE_GAS) {
    return {
      executionGasUsed: gasLimit,
      exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
      returnValue: new Uint8Array(0),
    };
  }
  const answer = exchangeRateAnswer(data, rate);
  if (answer === null) {
    return {
      executionGasUsed: gasLimit,
      exceptionError: new EVMError(EVMError.errorMessages.INVALID_OPCODE),
      returnValue: new Uint8Array(0),
    };
  }
  return { executionGasUsed: EXCHANGE_RATE_GAS, returnValue: answer };
}

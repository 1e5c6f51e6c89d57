import { type AbiValue, encodeTuple } from "./abi.ts";

/**
 * What a call into the token service ends with, as the consensus node's `FullResult`: output, a revert with data,
 * an exceptional halt (all the frame's gas), or `unsupported` for a function this server does not execute (the
 * call then answers 501 rather than a value upstream might not give).
 */
export type HtsOutcome =
  | { kind: "success"; output: Uint8Array }
  | { kind: "revert"; data: Uint8Array }
  | { kind: "halt" }
  | { kind: "unsupported" };

/** Response codes the read functions answer with (ResponseCodeEnum numbers). */
export const RC = {
  INVALID_ACCOUNT_ID: 15n,
  KEY_NOT_PROVIDED: 44n,
  SUCCESS: 22n,
  INVALID_TOKEN_ID: 167n,
  INVALID_TOKEN_NFT_SERIAL_NUMBER: 225n,
  INVALID_ALLOWANCE_OWNER_ID: 300n,
} as const;

export type ResponseCode = keyof typeof RC;

export const success = (values: readonly AbiValue[]): HtsOutcome => ({
  kind: "success",
  output: encodeTuple(values),
});

/** `revertResult(status)`: the status's name as ASCII bytes. */
export const revertWithName = (status: ResponseCode): HtsOutcome => ({
  kind: "revert",
  data: new TextEncoder().encode(status),
});

/** `ordinalRevertResult(status)`: the status's number as one 32-byte word. */
export const revertWithOrdinal = (status: ResponseCode): HtsOutcome => ({
  kind: "revert",
  data: encodeTuple([{ word: RC[status] }]),
});

export const HALT: HtsOutcome = { kind: "halt" };
export const UNSUPPORTED: HtsOutcome = { kind: "unsupported" };

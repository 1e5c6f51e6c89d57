/**
 * Path parameters of the tokens and blocks routes, as upstream reads them (Express has already
 * percent-decoded them):
 * - `{tokenId}` (`getAndValidateTokenIdRequestPathParam` in `rest/tokens.js`): any entity ID spelling or a
 *   long-zero EVM address; otherwise `Invalid parameter: tokenid`.
 * - `{serialNumber}` (`validateSerialNumberParam`): 1..2^63-1, at most 19 digits; otherwise
 *   `Invalid parameter: serialnumber`.
 * - `{hashOrNumber}` (`validateHashOrNumber` in `rest/controllers/blockController.js`): a 64- or 96-hex hash
 *   with optional `0x` (tried first, so 64 decimal digits are a hash), else a block number 0..2^63-1;
 *   otherwise `Invalid parameter: hashOrNumber`.
 */
import { parseEntityIdString, type ShardRealm } from "./entity-id.ts";
import { fail, invalidParameter, type ParamResult, succeed } from "./errors.ts";
import { isPositiveLong } from "./integers.ts";

const BLOCK_HASH = /^(0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$/;

/** The packed token ID named by `{tokenId}`. */
export function parseTokenIdPathParam(tokenId: string, config: ShardRealm = {}): ParamResult<bigint> {
  const parsed = parseEntityIdString(tokenId, "num-alias", config);
  if (!parsed.ok || parsed.id.kind !== "id") return fail([invalidParameter("tokenid")]);
  return succeed(parsed.id.encoded);
}

/** The serial number named by `{serialNumber}`. */
export function parseSerialNumberPathParam(serialNumber: string): ParamResult<bigint> {
  if (!isPositiveLong(serialNumber)) return fail([invalidParameter("serialnumber")]);
  return succeed(BigInt(serialNumber));
}

/**
 * A block named by hash or number. `hashPrefix` is lower-case hex without `0x`; the route matches it as a
 * prefix of the stored 96-hex hash (a 64-hex value is the EVM-style 32-byte form).
 */
export type BlockLocator = { readonly hashPrefix: string } | { readonly number: bigint };

export function parseHashOrNumberPathParam(hashOrNumber: string): ParamResult<BlockLocator> {
  if (BLOCK_HASH.test(hashOrNumber)) {
    return succeed({ hashPrefix: hashOrNumber.replace("0x", "").toLowerCase() });
  }
  if (isPositiveLong(hashOrNumber, true)) return succeed({ number: BigInt(hashOrNumber) });
  return fail([invalidParameter("hashOrNumber")]);
}

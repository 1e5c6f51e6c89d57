/**
 * The `{idOrAliasOrEvmAddress}` path parameter of the account routes, read as upstream's
 * `EntityService.getEncodedId` reads it (`rest/service/entityService.js`, `rest/accountAlias.js`):
 *
 * 1. An entity ID in any spelling `isValidEntityId` accepts (`shard.realm.num`, `realm.num`, `num`, or a
 *    40-hex EVM address with `0x` or a `shard.realm.` prefix): a long-zero address is the ID in its last
 *    8 bytes; any other address is looked up (by the store, later); a value that passes the syntax check but
 *    not the bit limits (`0.0.1234567890123`, `-5`) is invalid.
 * 2. Otherwise a base32 account alias, optionally after `realm.` or `shard.realm.` (up to 5 digits each,
 *    which must equal the configured shard and realm), whose text must decode to whole bytes.
 * 3. Anything else: `Invalid parameter: idOrAliasOrEvmAddress`.
 *
 * The result names the account without touching the index: resolving an address or alias (and its two 404
 * messages) is `resolveAccountRef`'s job (`src/api/account-ref.ts`), on the thread that reads the store.
 */
import type { AccountRef } from "../../store/account-lookup.ts";
import { decodeBase32 } from "../base32.ts";
import { isValidEntityId, parseEntityIdString, type ShardRealm } from "./entity-id.ts";
import { fail, invalidParameter, type ParamResult, succeed } from "./errors.ts";

export type { AccountRef };

/** The path parameter's name, as upstream's messages spell it. */
export const ACCOUNT_PATH_PARAM = "idOrAliasOrEvmAddress";

const ACCOUNT_ALIAS = /^(\d{1,5}\.){0,2}[A-Z2-7]+$/;

/** Reads `{idOrAliasOrEvmAddress}`; `name` is the parameter name its error message uses. */
export function parseAccountPathParam(
  value: string,
  config: ShardRealm = {},
  name: string = ACCOUNT_PATH_PARAM,
): ParamResult<AccountRef> {
  const ref = readAccountRef(value, config);
  return ref === null ? fail([invalidParameter(name)]) : succeed(ref);
}

/** The account a path value names, or null when the value is no accepted spelling. */
export function readAccountRef(value: string, config: ShardRealm = {}): AccountRef | null {
  if (isValidEntityId(value)) {
    const parsed = parseEntityIdString(value, "any", config);
    if (!parsed.ok) return null;
    return parsed.id.kind === "id"
      ? { kind: "id", id: parsed.id.encoded }
      : { kind: "evm", evmAddress: parsed.id.evmAddress.toLowerCase() };
  }
  const alias = readAccountAlias(value, config);
  return alias === null ? null : { kind: "alias", alias };
}

/**
 * The bytes (as lower-case hex) of a base32 alias with an optional `shard.realm.` prefix, or null when the text
 * is not one or its prefix names another shard or realm. `noShardRealm` refuses any prefix (the `account.id`
 * filter of `/balances`).
 */
export function readAccountAlias(
  value: string,
  config: ShardRealm = {},
  noShardRealm = false,
): string | null {
  if (!ACCOUNT_ALIAS.test(value)) return null;
  const parts = value.split(".");
  if (noShardRealm && parts.length > 1) return null;
  const text = parts.pop() ?? "";
  const realm = parts.pop();
  const shard = parts.pop();
  if (realm !== undefined && BigInt(realm) !== (config.realm ?? 0n)) return null;
  if (shard !== undefined && BigInt(shard) !== (config.shard ?? 0n)) return null;
  const bytes = decodeBase32(text);
  return bytes === null ? null : Buffer.from(bytes).toString("hex");
}

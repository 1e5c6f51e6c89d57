/**
 * Entity IDs as the Node REST service (`rest/entityId.js`) reads, packs and prints them.
 *
 * Packing: one signed int64, `shard << 54 | realm << 38 | num` (10, 16 and 38 bits). Sorting and range filters
 * compare these packed values.
 *
 * Reading happens in two steps, and this module keeps them apart because upstream's messages depend on which
 * one fails:
 * 1. `isValidEntityId` — the syntax check a filter validator runs: `shard.realm.num` / `realm.num`
 *    (`^(\d{1,4}\.)?\d{1,5}\.\d{1,12}$`), any `-?\d{1,19}` (13-19 digits and negatives pass here and fail in
 *    step 2), or a 40-hex EVM address (optional `0x`, or an optional `shard.realm.` prefix). With the
 *    `num-alias` kind only long-zero addresses (12 zero bytes, then a num of at most 38 bits) pass.
 * 2. `parseEntityIdString` — upstream's `EntityId.parseString`: strip a leading `0x`, prefix the configured
 *    shard/realm to reach three parts (`1135` → `0.0.1135`), then re-check and read the parts against the bit
 *    limits. A long-zero address becomes its num; any other address stays an opaque EVM address (it names no
 *    packed ID, so filters on it match nothing). A shard/realm prefix on an address must equal the configured
 *    one. Upstream's quirks are kept: a path ID `0x1135` reads as `0.0.1135`, a bare number is never read as a
 *    packed ID.
 */

import {
  decodeEntityId,
  type EntityIdParts,
  encodeEntityId,
  formatEntityId,
  MAX_NUM,
  MAX_REALM,
  MAX_SHARD,
} from "../../ids.ts";

export { decodeEntityId, encodeEntityId, type EntityIdParts, formatEntityId };

const ENTITY_ID = /^(\d{1,4}\.)?\d{1,5}\.\d{1,12}$/;
const ENCODED_ENTITY_ID = /^-?\d{1,19}$/;
const EVM_ADDRESS = /^(0x)?[A-Fa-f0-9]{40}$/;
const EVM_ADDRESS_WITH_SHARD_REALM = /^(\d{1,4}\.)?(\d{1,5}\.)?[A-Fa-f0-9]{40}$/;
const LONG_ZERO_PREFIX = "0".repeat(24);

/** Which EVM address spellings a parameter accepts (upstream's `EvmAddressType`). */
export type EvmAddressKind = "no-shard-realm" | "optional-shard-realm" | "any" | "num-alias";

/** A parsed ID: either a packed entity ID or an EVM address that names no entity num. */
export type ParsedEntityId =
  | ({ readonly kind: "id"; readonly encoded: bigint } & EntityIdParts)
  | { readonly kind: "evm"; readonly evmAddress: string };

/** `expanded` is the shard/realm-completed text upstream quotes in `Invalid entity ID "<expanded>"`. */
export type EntityIdParseResult =
  | { readonly ok: true; readonly id: ParsedEntityId }
  | { readonly ok: false; readonly expanded: string };

/** The configured shard and realm (upstream `hiero.mirror.common`), both 0 by default. */
export interface ShardRealm {
  readonly shard?: bigint;
  readonly realm?: bigint;
}

function stripHexPrefix(value: string): string {
  return value.startsWith("0x") ? value.slice(2) : value;
}

/** Upstream `isValidEvmAddress`. */
export function isValidEvmAddress(address: string, kind: EvmAddressKind = "any"): boolean {
  switch (kind) {
    case "no-shard-realm":
      return EVM_ADDRESS.test(address);
    case "optional-shard-realm":
      return EVM_ADDRESS_WITH_SHARD_REALM.test(address);
    case "any":
      return EVM_ADDRESS.test(address) || EVM_ADDRESS_WITH_SHARD_REALM.test(address);
    case "num-alias":
      return (
        (EVM_ADDRESS.test(address) || EVM_ADDRESS_WITH_SHARD_REALM.test(address)) &&
        !isOpaqueEvmAddress(address)
      );
  }
}

/** The 40 hex digits of an address, split into the 12-byte prefix and the num read from the last 8 bytes. */
function splitEvmAddress(address: string): { prefix: string; num: bigint } {
  const hex = stripHexPrefix(address).split(".").at(-1) ?? "";
  return { prefix: hex.slice(0, 24), num: BigInt(`0x${hex.slice(24, 40)}`) };
}

/** True for a syntactically valid address that is not a long-zero alias of an entity num (`isEvmAddressAlias`). */
function isOpaqueEvmAddress(address: string): boolean {
  if (!isValidEvmAddress(address, "any")) return false;
  const { prefix, num } = splitEvmAddress(address);
  return prefix !== LONG_ZERO_PREFIX || num > MAX_NUM;
}

/** The syntax check of a filter validator (upstream `EntityId.isValidEntityId`). */
export function isValidEntityId(
  value: string,
  allowEvmAddress = true,
  kind: EvmAddressKind = "any",
): boolean {
  if (ENTITY_ID.test(value) || ENCODED_ENTITY_ID.test(value)) return true;
  return allowEvmAddress && isValidEvmAddress(value, kind);
}

/** Reads an already completed ID (upstream `EntityId.parse` on a string with dots or of address length). */
function parseCompletedId(
  id: string,
  kind: EvmAddressKind,
  config: Required<ShardRealm>,
): EntityIdParseResult {
  const failure = { ok: false, expanded: id } as const;
  // Reached only with dotted IDs or 40/42-character addresses: parseString always adds the shard/realm parts.
  if (!isValidEntityId(id, true, kind) || !(id.includes(".") || id.length === 40 || id.length === 42)) {
    return failure;
  }
  const parts = stripHexPrefix(id).split(".");
  const last = parts.at(-1) ?? "";
  const shard = parts.length === 3 ? BigInt(parts.shift() ?? "") : config.shard;
  const realm = parts.length === 2 ? BigInt(parts.shift() ?? "") : config.realm;
  if (last.length === 40 || last.length === 42) {
    if (shard !== config.shard || realm !== config.realm) return failure;
    const { prefix, num } = splitEvmAddress(last);
    if (prefix !== LONG_ZERO_PREFIX || num > MAX_NUM)
      return { ok: true, id: { kind: "evm", evmAddress: last } };
    return { ok: true, id: { kind: "id", shard, realm, num, encoded: encodeEntityId(shard, realm, num) } };
  }
  const num = BigInt(last);
  if (num > MAX_NUM || realm > MAX_REALM || shard > MAX_SHARD) return failure;
  return { ok: true, id: { kind: "id", shard, realm, num, encoded: encodeEntityId(shard, realm, num) } };
}

/**
 * Upstream `EntityId.parseString(id, {evmAddressType})`: completes the ID with the configured shard/realm and
 * reads it. On failure, `expanded` is the completed text (`1234567890123` → `0.0.1234567890123`).
 */
export function parseEntityIdString(
  id: string,
  kind: EvmAddressKind = "any",
  config: ShardRealm = {},
): EntityIdParseResult {
  const shardRealm = { shard: config.shard ?? 0n, realm: config.realm ?? 0n };
  const stripped = stripHexPrefix(id);
  const pieces = stripped.split(".");
  // Array#slice with a negative end is what upstream relies on for IDs with more than three parts.
  const missing = 3 - pieces.length;
  const prefix = isOpaqueEvmAddress(stripped)
    ? []
    : [shardRealm.shard.toString(), shardRealm.realm.toString()].slice(0, missing);
  const completed = [...prefix, ...pieces].join(".");
  return parseCompletedId(completed, kind, shardRealm);
}

const MAX_ENCODED_ID = (1n << 63n) - 1n;
const MIN_ENCODED_ID = -(1n << 63n);

/**
 * Upstream `EntityId.parse` of an ID that passed `isValidEntityId(id, false)` (the topic routes): a dotted
 * `shard.realm.num` / `realm.num` is completed with the configured shard, while a bare number (optionally
 * negative) is read as the packed 64-bit ID, not as a num: `7` is 0.0.7, but `274877906944` (2^38) is 0.1.0
 * and `-1` is 1023.65535.274877906943. Returns the packed ID, or null where upstream throws
 * `Invalid entity ID "<id>"` (a part over its bit limit, a number outside int64).
 */
export function parsePackedOrDottedEntityId(id: string, config: ShardRealm = {}): bigint | null {
  if (!id.includes(".")) {
    const encoded = BigInt(id);
    return encoded > MAX_ENCODED_ID || encoded < MIN_ENCODED_ID ? null : encoded;
  }
  const parts = id.split(".");
  const num = BigInt(parts.at(-1) ?? "");
  const shard = parts.length === 3 ? BigInt(parts[0] ?? "") : (config.shard ?? 0n);
  const realm = parts.length >= 2 ? BigInt(parts.at(-2) ?? "") : (config.realm ?? 0n);
  if (num > MAX_NUM || realm > MAX_REALM || shard > MAX_SHARD) return null;
  return encodeEntityId(shard, realm, num);
}

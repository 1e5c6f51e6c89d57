/**
 * The Java service's account lists (`/api/v1/accounts/{id}/allowances/nfts`, `/airdrops/outstanding`,
 * `/airdrops/pending`): their `{id}` path parameter and query parameters, read as upstream's Spring controllers
 * bind them (`AllowancesController`, `TokenAirdropsController`), with its errors:
 *
 * 1. every argument converts, in the method's parameter order; the first that does not gives 400
 *    `Failed to convert '<name>'` (the path `id` too);
 * 2. then the method's constraints, first broken one: `<name> size must be between 0 and 2` for a range
 *    parameter given more than twice, `limit must be greater than 0`, `limit must be less than or equal to 100`
 *    (no cap: 101 is an error here);
 * 3. then the bounds (`range-bounds.ts` in the store holds their SQL): the primary key's range must not be
 *    inverted (`Invalid range provided for <name>`).
 *
 * Unknown parameters are ignored; a blank value counts as absent.
 */
import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from "../../ids.ts";
import { MAX_INT64 } from "../../int64.ts";
import type { AccountRef } from "../../store/account-lookup.ts";
import type { RangeBound, RangeOp, RangeParam } from "../../store/range-bounds.ts";
import { failedToConvert, javaBadRequest } from "./errors.ts";
import { parseEntityIdRange } from "./network-nodes-request.ts";
import { multiValues, type Order, parseJavaInt, parseOrder, readFirst } from "./params.ts";
import type { JavaQuery } from "./query.ts";

export const DEFAULT_JAVA_LIMIT = 25;
export const MAX_JAVA_LIMIT = 100;

const NUM_ID = /^(?:(\d{1,5})\.)?(?:(\d{1,5})\.)?(\d{1,10})$/;
const EVM_ID = /^(?:(\d{1,5})\.)?(?:(\d{1,5})\.)?(?:0x)?([A-Fa-f0-9]{40})$/;
const ALIAS_ID = /^(?:(\d{1,5})\.)?(?:(\d{1,5})\.)?([A-Z2-7]{40,70})$/;

/**
 * Upstream `EntityIdParameter.valueOf`: an entity ID (`num`, `realm.num`, `shard.realm.num`, within the ID's bit
 * limits), else an EVM address (40 hex digits, optional `0x` and `shard.realm.` prefix; looked up by address, a
 * long-zero one too), else a base32 alias of 40 to 70 characters. Anything else: `Failed to convert 'id'`.
 */
export function parseJavaAccountId(value: string): AccountRef {
  const num = NUM_ID.exec(value);
  if (num !== null) {
    // One prefix is the realm; two are shard and realm.
    const [shardText, realmText] = num[2] === undefined ? [undefined, num[1]] : [num[1], num[2]];
    const shard = BigInt(shardText ?? "0");
    const realm = BigInt(realmText ?? "0");
    const n = BigInt(num[3]!);
    if (shard > MAX_SHARD || realm > MAX_REALM || n > MAX_NUM) throw failedToConvert("id");
    return { kind: "id", id: encodeEntityId(shard, realm, n) };
  }
  const evm = EVM_ID.exec(value);
  if (evm !== null) return { kind: "evm", evmAddress: evm[3]!.toLowerCase() };
  const alias = ALIAS_ID.exec(value);
  if (alias !== null) {
    const bytes = decodeBase32Loose(alias[3]!);
    if (bytes !== null) return { kind: "alias", alias: Buffer.from(bytes).toString("hex") };
  }
  throw failedToConvert("id");
}

/** Apache commons' Base32 decoding: whole 5-bit groups, left-over bits dropped. */
export function decodeBase32Loose(text: string): Uint8Array | null {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".indexOf(char);
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** A range parameter's values, converted: entity IDs (`[op:]id`) or numbers (`[op:]n`, not negative). */
export function readRangeParams(query: JavaQuery, name: string, kind: "entity" | "number"): RangeParam[] {
  return multiValues(query, name).map((text) => {
    const param = kind === "entity" ? entityParam(text) : numberParam(text);
    if (param === null) throw failedToConvert(name);
    return param;
  });
}

function entityParam(text: string): RangeParam | null {
  const parsed = parseEntityIdRange(text);
  if (parsed === null || parsed === "blank") return null;
  return { op: parsed.operator, value: parsed.id };
}

const OPERATORS: readonly RangeOp[] = ["eq", "gt", "gte", "lt", "lte", "ne"];

/** Upstream `NumberRangeParameter.valueOf`: `n` or `op:n`, n a Java long that is not negative. */
function numberParam(text: string): RangeParam | null {
  const parts = text.split(":");
  while (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length > 2) return null;
  const op = (parts.length === 2 ? (parts[0] ?? "") : "eq").toLowerCase() as RangeOp;
  if (!OPERATORS.includes(op)) return null;
  const digits = parts.at(-1) ?? "";
  if (!/^[+-]?\d{1,19}$/.test(digits)) return null;
  const value = BigInt(digits);
  if (value < 0n || value > MAX_INT64) return null;
  return { op, value };
}

/** `limit` (`@Positive @Max(100) int`, default 25), converted; checked later with `checkLimit`. */
export function readJavaLimit(query: JavaQuery): number {
  const text = readFirst(query, "limit");
  if (text === undefined) return DEFAULT_JAVA_LIMIT;
  const limit = parseJavaInt(text);
  if (limit === null) throw failedToConvert("limit");
  return limit;
}

/** `order` (`Sort.Direction`, any case, default asc). */
export function readJavaOrder(query: JavaQuery): Order {
  const text = readFirst(query, "order");
  if (text === undefined) return "asc";
  const order = parseOrder(text);
  if (order === null) throw failedToConvert("order");
  return order;
}

const TRUE_TEXTS = new Set(["true", "on", "yes", "1"]);
const FALSE_TEXTS = new Set(["false", "off", "no", "0"]);

/** A `boolean` request parameter as Spring converts it (true/on/yes/1, false/off/no/0, any case). */
export function readJavaBoolean(query: JavaQuery, name: string, fallback: boolean): boolean {
  const text = readFirst(query, name)?.trim().toLowerCase();
  if (text === undefined) return fallback;
  if (TRUE_TEXTS.has(text)) return true;
  if (FALSE_TEXTS.has(text)) return false;
  throw failedToConvert(name);
}

/** One of a method's constraints, in its parameter order: a range parameter's size, or `limit`. */
export type Constraint =
  | readonly ["size", name: string, params: readonly RangeParam[]]
  | readonly ["limit", number];

/** The first constraint broken, in parameter order: at most two values per range parameter; 1 ≤ limit ≤ 100. */
export function checkConstraints(constraints: readonly Constraint[]): void {
  for (const constraint of constraints) {
    if (constraint[0] === "size") {
      if (constraint[2].length > 2) throw javaBadRequest(`${constraint[1]} size must be between 0 and 2`);
      continue;
    }
    const limit = constraint[1];
    if (limit < 1) throw javaBadRequest("limit must be greater than 0");
    if (limit > MAX_JAVA_LIMIT) throw javaBadRequest(`limit must be less than or equal to ${MAX_JAVA_LIMIT}`);
  }
}

/** A bound with upstream's operator counts, for the checks some lists make. */
export type CountedBound = RangeBound & {
  readonly name: string;
  readonly counts: Readonly<Record<RangeOp, number>>;
};

/**
 * Upstream `Bound`'s constructor: the last `gt`/`gte`/`eq` value is the lower bound, the last `lt`/`lte` the upper
 * one (`ne` only counts); a primary key whose lower bound is above its upper one is `Invalid range provided for
 * <name>`.
 */
export function makeBound(
  params: readonly RangeParam[],
  primary: boolean,
  name: string,
  column: string,
): CountedBound {
  const counts: Record<RangeOp, number> = { eq: 0, gt: 0, gte: 0, lt: 0, lte: 0, ne: 0 };
  let lower: RangeParam | null = null;
  let upper: RangeParam | null = null;
  for (const param of params) {
    if (param.op === "gt" || param.op === "gte" || param.op === "eq") lower = param;
    else if (param.op === "lt" || param.op === "lte") upper = param;
    counts[param.op]++;
  }
  const bound: CountedBound = { column, lower, upper, name, counts };
  if (primary && adjustedLower(bound) > adjustedUpper(bound)) {
    throw javaBadRequest(`Invalid range provided for ${name}`);
  }
  return bound;
}

export const adjustedLower = (b: RangeBound): bigint =>
  b.lower === null ? 0n : b.lower.op === "gt" ? b.lower.value + 1n : b.lower.value;
export const adjustedUpper = (b: RangeBound): bigint =>
  b.upper === null ? MAX_INT64 : b.upper.op === "lt" ? b.upper.value - 1n : b.upper.value;

export const isEmptyBound = (b: RangeBound): boolean => b.lower === null && b.upper === null;

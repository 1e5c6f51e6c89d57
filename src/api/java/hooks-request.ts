/**
 * The parameters of `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/hooks` and `…/hooks/{hookId}/storage`, read as
 * upstream's `HooksController` binds them (hooks-and-registered-nodes.md §2–§4):
 *
 * 1. arguments convert in order (owner, path hook id, then the query parameters); the first that does not gives
 *    400 `Failed to convert '<name>'`;
 * 2. then every broken constraint is one message `<java argument> <text>` (`hookId`, `keys`, `timestamps`,
 *    `limit`).
 *
 * A list parameter sent once is split on commas; unknown parameters are ignored; a blank value is absent.
 */
import { MAX_INT64 } from "../../int64.ts";
import type { AccountRef } from "../../store/account-lookup.ts";
import type { KeyRange } from "../../store/hooks.ts";
import { decodeBase32Loose, readRangeParams } from "./account-lists.ts";
import { parseJavaEntityIdNum } from "./entity-id-param.ts";
import { failedToConvert, type JavaErrorMessage, JavaHttpError } from "./errors.ts";
import {
  convertTimestamps,
  multiValues,
  type Order,
  parseJavaInt,
  readFirst,
  type TimestampBounds,
  timestampBounds,
} from "./params.ts";
import type { JavaQuery } from "./query.ts";

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
const MAX_IDS = 100;

const EVM_OWNER = /^(?:(?:\d{1,5}\.)?(?:\d{1,5}\.)?|0x)?([A-Fa-f0-9]{40})$/;
const ALIAS_OWNER = /^(?:\d{1,5}\.)?(?:\d{1,5}\.)?([A-Z2-7]{40,70})$/;

/** Upstream `EntityIdParameter.valueOf` as the hooks controller uses it (`ownerId`). */
export function parseHookOwner(value: string): AccountRef {
  const id = parseJavaEntityIdNum(value);
  if (id !== null) return { kind: "id", id };
  const evm = EVM_OWNER.exec(value);
  if (evm !== null) return { kind: "evm", evmAddress: evm[1]!.toLowerCase() };
  const alias = ALIAS_OWNER.exec(value);
  if (alias !== null) {
    const bytes = decodeBase32Loose(alias[1]!);
    if (bytes !== null) return { kind: "alias", alias: Buffer.from(bytes).toString("hex") };
  }
  throw failedToConvert("ownerId");
}

/** Collects constraint violations in argument order; throws them together. */
class Violations {
  private readonly messages: JavaErrorMessage[] = [];
  add(broken: boolean, detail: string): void {
    if (broken) this.messages.push({ message: "Bad Request", detail });
  }
  limit(limit: number): void {
    this.add(limit < 1, "limit must be greater than 0");
    this.add(limit > MAX_LIMIT, `limit must be less than or equal to ${MAX_LIMIT}`);
  }
  throwIfAny(): void {
    if (this.messages.length > 0) throw new JavaHttpError(400, this.messages);
  }
}

function readLimit(query: JavaQuery): number {
  const text = readFirst(query, "limit");
  if (text === undefined) return DEFAULT_LIMIT;
  const limit = parseJavaInt(text);
  if (limit === null) throw failedToConvert("limit");
  return limit;
}

/** `order` as the hooks controller converts it: `asc`/`desc` in any case, surrounding blanks not allowed. */
function readStrictOrder(query: JavaQuery, fallback: Order): Order {
  const text = readFirst(query, "order");
  if (text === undefined) return fallback;
  const lower = text.toLowerCase();
  if (lower !== "asc" && lower !== "desc") throw failedToConvert("order");
  return lower;
}

export type HooksRequest = {
  owner: AccountRef;
  ids: KeyRange<bigint>;
  nothing: boolean;
  limit: number;
  order: Order;
};

/** `/hooks`: `hook.id` (at most 100), `limit`, `order` (default desc). */
export function readHooksRequest(ownerText: string, query: JavaQuery): HooksRequest {
  const owner = parseHookOwner(ownerText);
  const params = readRangeParams(query, "hook.id", "number");
  const limit = readLimit(query);
  const order = readStrictOrder(query, "desc");
  const violations = new Violations();
  violations.add(params.length > MAX_IDS, `hookId size must be between 0 and ${MAX_IDS}`);
  violations.limit(limit);
  violations.throwIfAny();
  let lower = 0n;
  let upper = MAX_INT64;
  const values: bigint[] = [];
  for (const { op, value } of params) {
    if (op === "eq") values.push(value);
    // gt on the greatest long overflows upstream: no lower bound.
    else if (op === "gt" || op === "gte") {
      const bound = op === "gt" ? (value === MAX_INT64 ? 0n : value + 1n) : value;
      if (bound > lower) lower = bound;
    } else if (op === "lt" || op === "lte") {
      const bound = op === "lt" ? value - 1n : value;
      if (bound < upper) upper = bound;
    }
  }
  const inRange = [...new Set(values)].filter((v) => v >= lower && v <= upper);
  return {
    owner,
    ids: { lower, upper, values: values.length === 0 ? null : inRange },
    nothing: lower > upper || (values.length > 0 && inRange.length === 0),
    limit,
    order,
  };
}

const KEY = /^(?:(eq|gt|gte|lt|lte):)?(?:0x)?([0-9a-fA-F]{1,64})$/;
const WORD = (1n << 256n) - 1n;

export type HookStorageRequest = {
  owner: AccountRef;
  hookId: bigint;
  /** 32-byte bounds; `values` the exact keys asked (current mode: only those within the bounds). */
  keys: KeyRange<Uint8Array>;
  /** Exact keys, all of them, for the change log (upstream ignores the bounds there once one is in them). */
  allValues: Uint8Array[] | null;
  /** The change log's time window, or null for the current storage. */
  timestamps: TimestampBounds | null;
  nothing: boolean;
  limit: number;
  order: Order;
};

function word(value: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(value.toString(16).padStart(64, "0"), "hex"));
}

/** `/hooks/{hookId}/storage`: path `hookId`, `key` (at most 100), `timestamp` (at most 2), `limit`, `order`. */
export function readHookStorageRequest(
  ownerText: string,
  hookText: string,
  query: JavaQuery,
): HookStorageRequest {
  const owner = parseHookOwner(ownerText);
  const hookId = /^[+-]?\d{1,19}$/.test(hookText) ? BigInt(hookText) : null;
  if (hookId === null || hookId > MAX_INT64 || hookId < -MAX_INT64 - 1n) throw failedToConvert("hookId");
  const keyParams = multiValues(query, "key").map((text) => {
    const match = KEY.exec(text);
    if (match === null) throw failedToConvert("key");
    return { op: match[1] ?? "eq", value: BigInt(`0x${match[2]}`) };
  });
  const timestamps = convertTimestamps(query);
  const limit = readLimit(query);
  const order = readStrictOrder(query, "asc");
  const violations = new Violations();
  violations.add(hookId < 0n, "hookId must be greater than or equal to 0");
  violations.add(keyParams.length > MAX_IDS, `keys size must be between 0 and ${MAX_IDS}`);
  violations.add(timestamps.length > 2, "timestamps size must be between 0 and 2");
  violations.limit(limit);
  violations.throwIfAny();
  let lower = 0n;
  let upper = WORD;
  const values: bigint[] = [];
  for (const { op, value } of keyParams) {
    // Upstream's 256-bit arithmetic wraps: gt:ff…ff is 0 (no bound), lt:0 is ff…ff (no bound).
    if (op === "eq") values.push(value);
    else if (op === "gt" || op === "gte") {
      const bound = op === "gt" ? (value + 1n) & WORD : value;
      if (bound > lower) lower = bound;
    } else {
      const bound = op === "lt" ? (value - 1n) & WORD : value;
      if (bound < upper) upper = bound;
    }
  }
  const distinct = [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const inRange = distinct.filter((v) => v >= lower && v <= upper);
  const window = timestamps.length === 0 ? null : timestampBounds(timestamps, { maxValues: 2 });
  const nothing =
    (values.length > 0 && inRange.length === 0) ||
    (values.length === 0 && lower > upper) ||
    (window !== null && window.lowerNs > window.upperNs);
  return {
    owner,
    hookId,
    keys: { lower: word(lower), upper: word(upper), values: values.length === 0 ? null : inRange.map(word) },
    allValues: values.length === 0 ? null : distinct.map(word),
    timestamps: window,
    nothing,
    limit,
    order,
  };
}

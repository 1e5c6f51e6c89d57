/**
 * The value rules of each query parameter on the tokens and blocks endpoints, from upstream's validators
 * (`filterValidityChecks` in `rest/utils.js`, `validateTokenQueryFilter` / `validateTokenInfoFilter` in
 * `rest/tokens.js`) and converters (`formatComparator` in `rest/utils.js`).
 *
 * Every validator first requires a known operator (`eq ne lt lte gt gte`). Unless a rule below says
 * otherwise, any of them is accepted: `limit=gt:5` and `order=ne:asc` validate, and the operator is ignored
 * where the value is used as a setting.
 */
import { isValidEntityId, parseEntityIdString, type ShardRealm } from "./entity-id.ts";
import { always, type Conversion, type Operator, type Order, type ParamSpec } from "./filters.ts";
import { isPositiveLong, parseHexLong } from "./integers.ts";
import { isValidPublicKey, normalizePublicKey } from "./public-key.ts";
import { isValidTimestamp, parseTimestamp } from "./timestamp.ts";

export type TokenType = "FUNGIBLE_COMMON" | "NON_FUNGIBLE_UNIQUE";

/** `type` on /tokens after upper-casing; `ALL` means no filter. */
export type TokenTypeValue = TokenType | "ALL";

const TOKEN_TYPES = ["all", "fungible_common", "non_fungible_unique"];

function invalidEntityId(expanded: string): Conversion<never> {
  return { ok: false, message: `Invalid entity ID "${expanded}"` };
}

/** `limit`: 1..2^63-1 (at most 19 digits); the value is capped at `maxLimit`. */
export function limitSpec(maxLimit: number): ParamSpec<number> {
  return {
    isValid: (_op, value) => isPositiveLong(value),
    convert: (value) => always(Math.min(Number(value), maxLimit)),
  };
}

/** `order`: `asc` or `desc`, any case (the query parser already lower-cased it). */
export const orderSpec: ParamSpec<Order> = {
  isValid: (_op, value) => value.toLowerCase() === "asc" || value.toLowerCase() === "desc",
  convert: (value) => always(value.toLowerCase() as Order),
};

/** `timestamp` with any operator, converted to nanoseconds. */
export const timestampSpec: ParamSpec<bigint> = {
  isValid: (_op, value) => isValidTimestamp(value),
  convert: (value) => always(parseTimestamp(value) ?? 0n),
};

/** `timestamp` on token info: only `eq`, `lt` and `lte`. */
export const tokenInfoTimestampSpec: ParamSpec<bigint> = {
  isValid: (op, value) => (op === "eq" || op === "lt" || op === "lte") && isValidTimestamp(value),
  convert: timestampSpec.convert,
};

/**
 * `token.id`: an entity ID or a long-zero EVM address, packed. Values that pass the syntax check but not the
 * bit limits (e.g. 13 digits) fail with `Invalid entity ID "0.0.<value>"`.
 */
export function tokenIdSpec(config: ShardRealm): ParamSpec<bigint> {
  return {
    isValid: (_op, value) => isValidEntityId(value, true, "num-alias"),
    convert: (value) => {
      const parsed = parseEntityIdString(value, "num-alias", config);
      if (!parsed.ok) return invalidEntityId(parsed.expanded);
      return parsed.id.kind === "id" ? always(parsed.id.encoded) : invalidEntityId(value);
    },
  };
}

/**
 * `account.id`: an entity ID or any EVM address. A non-long-zero address names no packed ID and converts to
 * null: a condition on it matches nothing (upstream compares the column with SQL NULL).
 */
export function accountIdSpec(config: ShardRealm): ParamSpec<bigint | null> {
  return {
    isValid: (_op, value) => isValidEntityId(value),
    convert: (value) => {
      const parsed = parseEntityIdString(value, "any", config);
      if (!parsed.ok) return invalidEntityId(parsed.expanded);
      return always(parsed.id.kind === "id" ? parsed.id.encoded : null);
    },
  };
}

/** `account.balance`: 0..2^63-1. */
export const accountBalanceSpec: ParamSpec<bigint> = {
  isValid: (_op, value) => isPositiveLong(value, true),
  convert: (value) => always(BigInt(value)),
};

/** `publickey` / `account.publickey`: 64, 66 or 88 hex digits, normalized for comparison. */
export const publicKeySpec: ParamSpec<string> = {
  isValid: (_op, value) => isValidPublicKey(value),
  convert: (value) => always(normalizePublicKey(value)),
};

/** `serialnumber`: 1..2^63-1. */
export const serialNumberSpec: ParamSpec<bigint> = {
  isValid: (_op, value) => isPositiveLong(value),
  convert: (value) => always(BigInt(value)),
};

/** `type` on /tokens: `all`, `fungible_common` or `non_fungible_unique`, any case, upper-cased. */
export const tokenTypeSpec: ParamSpec<TokenTypeValue> = {
  isValid: (_op, value) => TOKEN_TYPES.includes(value.toLowerCase()),
  convert: (value) => always(value.toUpperCase() as TokenTypeValue),
};

/** `name` on /tokens: `eq` only, 3 to 100 UTF-8 bytes. */
export const tokenNameSpec: ParamSpec<string> = {
  isValid: (op, value) => {
    const bytes = Buffer.byteLength(value, "utf8");
    return op === "eq" && bytes >= 3 && bytes <= 100;
  },
  convert: (value) => always(value),
};

/** `block.number`: decimal 0..2^63-1 or a `0x` number; every operator but `ne`. */
export const blockNumberSpec: ParamSpec<bigint> = {
  isValid: (op: Operator, value) =>
    op !== "ne" && (isPositiveLong(value, true) || parseHexLong(value, true) !== null),
  convert: (value) => always(value.startsWith("0x") ? (parseHexLong(value, true) ?? 0n) : BigInt(value)),
};

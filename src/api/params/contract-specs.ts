/**
 * Value rules of the contracts group's query parameters (contracts.md §2.1, §4.1, §5.3, §6.2, §7), as upstream's
 * `filterValidityChecks` and `contractResultsFilterValidityChecks` (`rest/utils.js`,
 * `rest/controllers/contractController.js`) check them and `formatComparator` converts them. Every check first
 * requires a known operator (`validateFilters` does that).
 */
import type { AccountRef } from "../../store/account-lookup.ts";
import { isValidEntityId, isValidEvmAddress, parseEntityIdString, type ShardRealm } from "./entity-id.ts";
import { always, type ParamSpec } from "./filters.ts";
import { isPositiveLong } from "./integers.ts";
import { blockNumberSpec } from "./param-specs.ts";

/** A contract as a request names it: an entity ID, or an EVM address the index maps to one. */
export type ContractRef =
  | { readonly kind: "id"; readonly id: bigint }
  /**
   * Not a long-zero address. `evmAddress` is 40 lower-case hex digits (what is looked up); `typed` is the
   * address as the request spelled it, without `0x` (what the 404 message quotes).
   */
  | { readonly kind: "evm"; readonly evmAddress: string; readonly typed: string };

const BLOCK_HASH = /^(0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$/;
const TRANSACTION_HASH = /^(0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$/;
const TOPIC = /^(0x)?[0-9A-Fa-f]{1,64}$/;
const SLOT = /^(0x)?[0-9A-Fa-f]{1,64}$/;
const BOOLEAN = /^(true|false)$/i;
const INDEX = /^\d{1,10}$/;
const MAX_INT32 = 2147483647;

/** The EVM-address part of an address spelling (after any `shard.realm.` prefix and `0x`). */
function addressDigits(value: string): string {
  const last = value.split(".").at(-1) ?? "";
  return last.startsWith("0x") ? last.slice(2) : last;
}

/**
 * Reads an ID or address that passed its syntax check the way `ContractService.computeContractIdFromString`
 * does: a long-zero address is the ID in its last 8 bytes, any other address stays an address; null where
 * upstream's `EntityId.parseString` throws (a part over its bit limit, a shard/realm prefix other than ours).
 */
export function readContractRef(value: string, config: ShardRealm): ContractRef | null {
  const parsed = parseEntityIdString(value, "any", config);
  if (!parsed.ok) return null;
  if (parsed.id.kind === "id") return { kind: "id", id: parsed.id.encoded };
  const typed = addressDigits(value);
  return { kind: "evm", evmAddress: typed.toLowerCase(), typed };
}

/**
 * `contract.id` on `/contracts`: an entity ID (num forms, any operator), or a 40-hex address without `0x`, with
 * an optional `shard.realm.`/`realm.` prefix, `eq` only.
 */
export function contractIdSpec(config: ShardRealm): ParamSpec<ContractRef> {
  return {
    isValid: (op, value) =>
      !value.includes("0x") && isValidEvmAddress(value, "optional-shard-realm")
        ? op === "eq"
        : isValidEntityId(value, false),
    convert: (value) => {
      const ref = readContractRef(value, config);
      if (ref === null) return { ok: false, message: `Invalid entity ID "${value}"` };
      return always(ref);
    },
  };
}

/**
 * `from` on the results lists: an entity ID, or 40 hex digits with an optional `0x` (no shard/realm prefix),
 * any operator. A non-long-zero address is resolved once the index is read (none: 404 `Not found`).
 */
export function fromSpec(config: ShardRealm): ParamSpec<AccountRef> {
  return {
    isValid: (_op, value) => isValidEntityId(value, true, "no-shard-realm"),
    convert: (value) => {
      const parsed = parseEntityIdString(value, "any", config);
      if (!parsed.ok) return { ok: false, message: `Invalid entity ID "${parsed.expanded}"` };
      if (parsed.id.kind === "id") return always({ kind: "id", id: parsed.id.encoded });
      return always({ kind: "evm", evmAddress: addressDigits(value).toLowerCase() });
    },
  };
}

/** `block.hash`: 64 or 96 hex digits, optional `0x`, `eq` only; kept as sent without `0x` (never lower-cased). */
export const blockHashSpec: ParamSpec<string> = {
  isValid: (op, value) => op === "eq" && BLOCK_HASH.test(value),
  convert: (value) => always(value.startsWith("0x") ? value.slice(2) : value),
};

/** `block.number` on the results lists: decimal or `0x`, `eq` only. */
export const resultsBlockNumberSpec: ParamSpec<bigint> = {
  isValid: (op, value) => op === "eq" && blockNumberSpec.isValid(op, value),
  convert: blockNumberSpec.convert,
};

/** `internal`, `hbar`: `true` or `false`, any case, `eq` only. */
export const booleanEqSpec: ParamSpec<boolean> = {
  isValid: (op, value) => op === "eq" && BOOLEAN.test(value),
  convert: (value) => always(value.toLowerCase() === "true"),
};

/** `transaction.index`: 0..2^63-1, `eq` only. */
export const transactionIndexSpec: ParamSpec<bigint> = {
  isValid: (op, value) => op === "eq" && isPositiveLong(value, true),
  convert: (value) => always(BigInt(value)),
};

/**
 * `index` on logs and actions: an integer 0..2^31-1 (upstream accepts any non-negative number and then fails
 * in its database on a fraction; contracts.md §11 rule).
 */
export const logIndexSpec: ParamSpec<number> = {
  isValid: (_op, value) => INDEX.test(value) && Number(value) <= MAX_INT32,
  convert: (value) => always(Number(value)),
};

/**
 * `topic0`…`topic3`: 1-64 hex digits, optional `0x`, `eq` only. Converted as upstream compares it: `0x` and every
 * leading zero removed, then left-padded to whole bytes (lower-case hex; the all-zero topic becomes empty, which
 * matches the empty zero-address topics of synthetic token events, as upstream's byte comparison does).
 */
export const topicSpec: ParamSpec<string> = {
  isValid: (op, value) => op === "eq" && TOPIC.test(value),
  convert: (value) => {
    const digits = value.replace(/^(0x)?0*/, "").toLowerCase();
    return always(digits.length % 2 === 0 ? digits : `0${digits}`);
  },
};

/** `transaction.hash` on `/contracts/results/logs`: 64 or 96 hex digits, optional `0x`, `eq` only. */
export const transactionHashSpec: ParamSpec<string> = {
  isValid: (op, value) => op === "eq" && TRANSACTION_HASH.test(value),
  convert: (value) => always((value.startsWith("0x") ? value.slice(2) : value).toLowerCase()),
};

/** `slot` on `/state`: 1-64 hex digits, optional `0x`; every operator but `ne`. Lower-case digits, no `0x`. */
export const slotSpec: ParamSpec<string> = {
  isValid: (op, value) => op !== "ne" && SLOT.test(value),
  convert: (value) => always((value.startsWith("0x") ? value.slice(2) : value).toLowerCase()),
};

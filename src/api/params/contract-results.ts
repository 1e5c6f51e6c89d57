/**
 * Request parsing for the contract result routes (contracts.md §1.6, §4, §7):
 * - `GET /contracts/{id}/results` and `GET /contracts/results`: `block.hash`, `block.number` (`eq` only; of the two,
 *   the last given wins), `from` (IN list for `eq`), `hbar`, `internal`, `limit`, `order` (default desc),
 *   `timestamp`, `transaction.index` (needs a block filter); then the two dependency errors; the all-contracts list
 *   also refuses a repeated `hbar`.
 * - `GET /contracts/{id}/results/{timestamp}`: `hbar` first (own message), then both path parameters, then the
 *   query names (only `hbar`).
 * - `GET /contracts/results/{transactionIdOrHash}`: the query first (`hbar`, `nonce`; one pass in query order),
 *   then `hbar`'s repetition, then the path: a 32-byte hash (64 hex, optional `0x`) or a transaction ID.
 * - `GET /contracts/results/{transactionIdOrHash}/actions`: `index` (no `ne`), `limit`, `order` (default asc),
 *   then the path (the ID form always with nonce 0).
 */
import type { AccountRef } from "../../store/account-lookup.ts";
import {
  blockHashSpec,
  booleanEqSpec,
  fromSpec,
  logIndexSpec,
  resultsBlockNumberSpec,
  transactionIndexSpec,
} from "./contract-specs.ts";
import { type ContractRef, parseContractPathParam } from "./contracts.ts";
import { isValidEntityId } from "./entity-id.ts";
import { fail, invalidParameter, type ParamResult, succeed } from "./errors.ts";
import { type Comparison, type Order, validateFilters } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";
import type { ParsedQuery } from "./query.ts";
import { pagingFor, type RequestParts, readRequest } from "./request.ts";
import { isValidTimestamp, parseTimestamp } from "./timestamp.ts";
import { nonceSpec, parseTransactionIdOrHash } from "./transactions.ts";
import { anyValue, validateReq } from "./validate-req.ts";

/** Accepted query parameters of both result lists. */
export function contractResultsSpec(options: ParamOptions) {
  return {
    "block.hash": blockHashSpec,
    "block.number": resultsBlockNumberSpec,
    from: fromSpec(options),
    hbar: booleanEqSpec,
    internal: booleanEqSpec,
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    timestamp: timestampSpec,
    "transaction.index": transactionIndexSpec,
  };
}

/** The block a results list is restricted to. */
export type BlockFilter = { readonly number: bigint } | { readonly hashPrefix: string };

/** The filters of a results list (either route). */
export type ContractResultsFilters = {
  /** `eq` values of `from` form an IN list; the others are ANDed. */
  readonly fromIn: readonly AccountRef[];
  readonly fromConditions: readonly Comparison<AccountRef>[];
  readonly timestamps: readonly Comparison<bigint>[];
  readonly block: BlockFilter | null;
  /** `transaction.index` values (an IN list). */
  readonly transactionIndexes: readonly bigint[];
  /** Child results (nonce > 0) too. */
  readonly internal: boolean;
  /** Amounts and gas prices in tinybars (default) rather than weibars. */
  readonly hbar: boolean;
  readonly limit: number;
  readonly order: Order;
  readonly paging: PagingContext;
};

export type ContractResultsByIdRequest = ContractResultsFilters & { readonly contract: ContractRef };

const TRANSACTION_INDEX_USAGE =
  "Invalid parameter usage: transaction.index - transaction.index requires block.number or block.hash filter to be specified";
const BLOCK_HASH_USAGE = "Invalid parameter usage: block.hash - cannot combine block.number and block.hash";

/** `parseHbarParam`'s message for a bad or repeated `hbar`. */
export function invalidHbar(value: string): string {
  return `Invalid hbar parameter value: ${value}. Must be 'true' or 'false'`;
}

/**
 * `hbar` read as upstream's `parseHbarParam` reads `req.query.hbar`: absent → true; a single `true`/`false` in any
 * case; anything else (a repeat, an operator) fails with its message, the values joined by commas.
 */
export function readHbar(query: ParsedQuery): ParamResult<boolean> {
  const entry = query.get("hbar");
  if (entry === undefined) return succeed(true);
  const text = entry.values.map((v) => (typeof v === "string" ? v : "[object Object]")).join(",");
  if (entry.repeated || !/^(true|false)$/i.test(text)) return fail([invalidHbar(text)]);
  return succeed(text.toLowerCase() === "true");
}

function readResultsFilters(
  request: RequestParts,
  hbar: boolean,
): ParamResult<Omit<ContractResultsFilters, "hbar"> & { hbar: boolean }> {
  const opts = request.options;
  const validated = validateFilters(
    request.query,
    contractResultsSpec(opts),
    opts.maxRepeatedQueryParameters,
  );
  if (!validated.ok) return validated;
  const usage: string[] = [];
  if (
    request.query.has("transaction.index") &&
    !request.query.has("block.number") &&
    !request.query.has("block.hash")
  )
    usage.push(TRANSACTION_INDEX_USAGE);
  if (request.query.has("block.hash") && request.query.has("block.number")) usage.push(BLOCK_HASH_USAGE);
  if (usage.length > 0) return fail(usage);

  const fromIn: AccountRef[] = [];
  const fromConditions: Comparison<AccountRef>[] = [];
  const timestamps: Comparison<bigint>[] = [];
  const transactionIndexes: bigint[] = [];
  let block: BlockFilter | null = null;
  let internal = false;
  let limit = opts.defaultLimit;
  let order: Order = "desc";
  for (const filter of validated.value) {
    switch (filter.key) {
      case "from":
        if (filter.op === "eq") fromIn.push(filter.value);
        else fromConditions.push({ op: filter.op, value: filter.value });
        break;
      case "timestamp":
        timestamps.push({ op: filter.op, value: filter.value });
        break;
      case "block.number":
        block = { number: filter.value };
        break;
      case "block.hash":
        block = { hashPrefix: filter.value };
        break;
      case "transaction.index":
        transactionIndexes.push(filter.value);
        break;
      case "internal":
        internal = filter.value;
        break;
      case "limit":
        limit = filter.value;
        break;
      case "order":
        order = filter.value;
        break;
    }
  }
  return succeed({
    fromIn,
    fromConditions,
    timestamps,
    block,
    transactionIndexes,
    internal,
    hbar,
    limit,
    order,
    paging: pagingFor(request, "timestamp", order, limit),
  });
}

/** Parses `GET /api/v1/contracts/{contractIdOrAddress}/results`: the path, then the query. */
export function parseContractResultsByIdRequest(
  contractIdOrAddress: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractResultsByIdRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const contract = parseContractPathParam(contractIdOrAddress, request.value.options);
  if (!contract.ok) return contract;
  const filters = readResultsFilters(request.value, true);
  if (!filters.ok) return filters;
  return succeed({ ...filters.value, contract: contract.value });
}

/** Parses `GET /api/v1/contracts/results`: the query, then a repeated `hbar`. */
export function parseContractResultsRequest(
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractResultsFilters> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const filters = readResultsFilters(request.value, true);
  if (!filters.ok) return filters;
  const hbar = readHbar(request.value.query);
  if (!hbar.ok) return hbar;
  return succeed({ ...filters.value, hbar: hbar.value });
}

/** `GET /api/v1/contracts/{contractIdOrAddress}/results/{timestamp}`. */
export type ContractResultAtRequest = {
  readonly contract: ContractRef;
  readonly consensusNs: bigint;
  readonly hbar: boolean;
};

/** Parses `GET /api/v1/contracts/{contractIdOrAddress}/results/{timestamp}`. */
export function parseContractResultAtRequest(
  params: { readonly contractIdOrAddress: string; readonly timestamp: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractResultAtRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const hbar = readHbar(request.value.query);
  if (!hbar.ok) return hbar;
  const bad: string[] = [];
  if (!isValidEntityId(params.contractIdOrAddress)) bad.push(invalidParameter("contractid"));
  if (!isValidTimestamp(params.timestamp)) bad.push(invalidParameter("timestamp"));
  if (bad.length > 0) return fail(bad);
  const opts = request.value.options;
  const names = validateReq(request.value.query, { hbar: anyValue }, opts.maxRepeatedQueryParameters);
  if (!names.ok) return names;
  const contract = parseContractPathParam(params.contractIdOrAddress, opts);
  if (!contract.ok) return contract;
  return succeed({
    contract: contract.value,
    consensusNs: parseTimestamp(params.timestamp) ?? 0n,
    hbar: hbar.value,
  });
}

/** What `/contracts/results/{transactionIdOrHash}` names. */
export type ContractTransactionLocator =
  /** 32 bytes as 64 lower-case hex digits. */
  | { readonly kind: "hash"; readonly hash: string }
  | { readonly kind: "id"; readonly payerId: bigint; readonly validStartNs: bigint; readonly nonce: number };

export const INVALID_TRANSACTION_ID =
  'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';
const ETH_HASH = /^(0x)?[0-9A-Fa-f]{64}$/;

/** A 32-byte hash or a transaction ID (with the given nonce), as the contract routes read the path. */
export function parseContractTransactionPath(
  value: string,
  nonce: number,
  options: Partial<ParamOptions>,
): ParamResult<ContractTransactionLocator> {
  if (ETH_HASH.test(value)) {
    return succeed({ kind: "hash", hash: (value.startsWith("0x") ? value.slice(2) : value).toLowerCase() });
  }
  const parsed = parseTransactionIdOrHash(value, options);
  if (!parsed.ok) return parsed;
  if (parsed.value.kind !== "id") return fail([INVALID_TRANSACTION_ID]);
  return succeed({
    kind: "id",
    payerId: parsed.value.payerId,
    validStartNs: parsed.value.validStartNs,
    nonce,
  });
}

/** `GET /api/v1/contracts/results/{transactionIdOrHash}`. */
export type ContractResultByTransactionRequest = {
  readonly locator: ContractTransactionLocator;
  readonly hbar: boolean;
};

/** Parses `GET /api/v1/contracts/results/{transactionIdOrHash}`: the query first, then the path. */
export function parseContractResultByTransactionRequest(
  transactionIdOrHash: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractResultByTransactionRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const checks = {
    hbar: (op: string, value: string) => booleanEqSpec.isValid(op as "eq", value),
    nonce: (op: string, value: string) => nonceSpec.isValid(op as "eq", value),
  };
  const names = validateReq(request.value.query, checks, opts.maxRepeatedQueryParameters);
  if (!names.ok) return names;
  const hbar = readHbar(request.value.query);
  if (!hbar.ok) return hbar;
  // The last `nonce` wins; `eq:N` reads as N (contracts.md §4.4 rule).
  const nonceText = request.value.query.get("nonce")?.values.at(-1);
  const nonce = typeof nonceText === "string" ? Number(nonceText.replace(/^eq:/, "")) : 0;
  const locator = parseContractTransactionPath(transactionIdOrHash, nonce, opts);
  if (!locator.ok) return locator;
  return succeed({ locator: locator.value, hbar: hbar.value });
}

/** `GET /api/v1/contracts/results/{transactionIdOrHash}/actions`. */
export type ContractActionsRequest = {
  readonly locator: ContractTransactionLocator;
  readonly indexes: readonly Comparison<number>[];
  readonly limit: number;
  readonly order: Order;
  readonly paging: PagingContext;
};

/** Parses `GET /api/v1/contracts/results/{transactionIdOrHash}/actions`: the query first, then the path. */
export function parseContractActionsRequest(
  transactionIdOrHash: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<ContractActionsRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const spec = { index: logIndexSpec, limit: limitSpec(opts.maxLimit), order: orderSpec };
  const validated = validateFilters(request.value.query, spec, opts.maxRepeatedQueryParameters);
  if (!validated.ok) return validated;
  const indexes: Comparison<number>[] = [];
  let limit = opts.defaultLimit;
  let order: Order = "asc";
  for (const filter of validated.value) {
    if (filter.key === "index") {
      if (filter.op === "ne") return fail([invalidParameter("index")]);
      indexes.push({ op: filter.op, value: filter.value as number });
    } else if (filter.key === "limit") limit = filter.value as number;
    else order = filter.value as Order;
  }
  const locator = parseContractTransactionPath(transactionIdOrHash, 0, opts);
  if (!locator.ok) return locator;
  return succeed({
    locator: locator.value,
    indexes,
    limit,
    order,
    paging: pagingFor(request.value, "index", order, limit),
  });
}

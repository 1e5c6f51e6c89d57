/**
 * Request parsing for `/api/v1/transactions…`, reproducing `rest/transactions.js`:
 * - `GET /transactions` accepts `account.id`, `limit`, `order` (default desc), `result` (`success`/`fail`, last
 *   wins), `timestamp`, `transactiontype` (a type name, any case; repeats form an IN list) and `type`
 *   (`credit`/`debit`, any case; two different spellings match nothing, as upstream compares them as sent).
 *   Operators on `result`, `transactiontype` and `type` validate and are ignored.
 * - `GET /transactions/{transactionIdOrHash}` accepts `nonce` (eq, 0…2^31−1) and `scheduled` (eq, true/false),
 *   the last value of each winning; the query is checked before the path: a 48-byte hash (96 hex digits with or
 *   without `0x`, or 64 base64/base64url characters) or `shard.realm.num-seconds-nanos`.
 */

import { transactionTypeIdOfName, transactionTypeNames } from "../../ingest/transaction-types.ts";
import { MAX_INT64 } from "../../int64.ts";
import type { TransactionListQuery, TransactionLookupFilter } from "../../store/transactions.ts";
import { parseEntityIdString } from "./entity-id.ts";
import { fail, type ParamResult, succeed } from "./errors.ts";
import { always, type Comparison, type Order, type ParamSpec, validateFilters } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { accountIdSpec, limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";
import { pagingFor, readRequest } from "./request.ts";

/** Upper-cased names of the types `transactiontype` accepts, to their type ids. */
const TYPE_IDS: ReadonlyMap<string, number> = new Map(
  transactionTypeNames().map((name) => [name, transactionTypeIdOfName(name)]),
);

/** `transactiontype`: a type name the mirror node knows, any case; any operator (ignored). */
export const transactionTypeSpec: ParamSpec<number> = {
  isValid: (_op, value) => TYPE_IDS.has(value.toUpperCase()),
  convert: (value) => always(TYPE_IDS.get(value.toUpperCase()) ?? -1),
};

/** `result`: `success` or `fail` (the query parser lower-cased it). */
export const resultSpec: ParamSpec<"success" | "fail"> = {
  isValid: (_op, value) => value === "success" || value === "fail",
  convert: (value) => always(value as "success" | "fail"),
};

/** `type`: `credit` or `debit`, any case; the value is kept as sent (two spellings conflict upstream). */
export const creditDebitSpec: ParamSpec<string> = {
  isValid: (_op, value) => value.toLowerCase() === "credit" || value.toLowerCase() === "debit",
  convert: (value) => always(value),
};

/** `nonce`: `eq` only, 0 to 2^31-1. */
export const nonceSpec: ParamSpec<number> = {
  isValid: (op, value) => op === "eq" && /^\d{1,10}$/.test(value) && Number(value) <= 2147483647,
  convert: (value) => always(Number(value)),
};

/** `scheduled`: `eq` only, `true` or `false` in any case. */
export const scheduledSpec: ParamSpec<boolean> = {
  isValid: (op, value) => op === "eq" && /^(true|false)$/i.test(value),
  convert: (value) => always(value.toLowerCase() === "true"),
};

/** Accepted query parameters of `GET /api/v1/transactions`. */
export function transactionsSpec(options: ParamOptions) {
  return {
    "account.id": accountIdSpec(options),
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    result: resultSpec,
    timestamp: timestampSpec,
    transactiontype: transactionTypeSpec,
    type: creditDebitSpec,
  };
}

/** `GET /api/v1/transactions`: the store query, and whether the filters can match anything at all. */
export interface TransactionsRequest {
  readonly query: TransactionListQuery;
  /** False when `type` names both credit and debit: the answer is an empty page. */
  readonly satisfiable: boolean;
  readonly paging: PagingContext;
}

/** Parses `GET /api/v1/transactions`; `url` is the request's path and query. */
export function parseTransactionsRequest(
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TransactionsRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const validated = validateFilters(
    request.value.query,
    transactionsSpec(opts),
    opts.maxRepeatedQueryParameters,
  );
  if (!validated.ok) return validated;

  const accountIds: Comparison<bigint | null>[] = [];
  const timestamps: Comparison<bigint>[] = [];
  const types: number[] = [];
  let result: "success" | "fail" | null = null;
  let creditDebit: string | null = null;
  let satisfiable = true;
  let limit = opts.defaultLimit;
  let order: Order = "desc";
  for (const filter of validated.value) {
    switch (filter.key) {
      case "account.id":
        accountIds.push({ op: filter.op, value: filter.value });
        break;
      case "timestamp":
        timestamps.push({ op: filter.op, value: filter.value });
        break;
      case "transactiontype":
        types.push(filter.value);
        break;
      case "result":
        result = filter.value;
        break;
      case "type":
        if (creditDebit !== null && creditDebit !== filter.value) satisfiable = false;
        creditDebit = filter.value;
        break;
      case "limit":
        limit = filter.value;
        break;
      case "order":
        order = filter.value;
        break;
    }
  }
  const lowered = creditDebit?.toLowerCase();
  const query: TransactionListQuery = {
    accountIds,
    timestamps,
    types,
    result,
    creditDebit: lowered === "credit" ? "credit" : lowered === "debit" ? "debit" : null,
    order,
    limit,
  };
  return succeed({ query, satisfiable, paging: pagingFor(request.value, "timestamp", order, limit) });
}

/** What `/transactions/{transactionIdOrHash}` names. */
export type TransactionLocator =
  | { readonly kind: "id"; readonly payerId: bigint; readonly validStartNs: bigint }
  | { readonly kind: "hash"; readonly hash: Uint8Array };

export interface TransactionLookupRequest {
  readonly locator: TransactionLocator;
  readonly filter: TransactionLookupFilter;
}

const INVALID_TRANSACTION_ID =
  'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';
const TRANSACTION_HASH = /^([\dA-Za-z+\-/_]{64}|(0x)?[\dA-Fa-f]{96})$/;
const TRANSACTION_ID = /^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$/;

/** Parses `GET /api/v1/transactions/{transactionIdOrHash}`; `url` is the request's path and query. */
export function parseTransactionLookupRequest(
  transactionIdOrHash: string,
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TransactionLookupRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const spec = { nonce: nonceSpec, scheduled: scheduledSpec };
  const validated = validateFilters(request.value.query, spec, opts.maxRepeatedQueryParameters);
  if (!validated.ok) return validated;
  const filter: { nonce?: number; scheduled?: boolean } = {};
  for (const f of validated.value) {
    if (f.key === "nonce") filter.nonce = f.value as number;
    else filter.scheduled = f.value as boolean;
  }
  const locator = parseTransactionIdOrHash(transactionIdOrHash, opts);
  return locator.ok ? succeed({ locator: locator.value, filter }) : locator;
}

/** A transaction hash or id as upstream reads `{transactionIdOrHash}`. */
export function parseTransactionIdOrHash(
  value: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TransactionLocator> {
  if (TRANSACTION_HASH.test(value)) {
    const hash =
      value.length === 64
        ? Buffer.from(value, "base64url")
        : Buffer.from(value.length === 98 ? value.slice(2) : value, "hex");
    return succeed({ kind: "hash", hash: new Uint8Array(hash) });
  }
  const match = TRANSACTION_ID.exec(value);
  if (match === null) return fail([INVALID_TRANSACTION_ID]);
  const [, shard, realm, num, seconds, nanos] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const entity = parseEntityIdString(`${shard}.${realm}.${num}`, "any", options);
  if (!entity.ok || entity.id.kind !== "id") {
    return fail([`Invalid entity ID "${entity.ok ? value : entity.expanded}"`]);
  }
  // Upstream reads the seconds with Long.fromString, which wraps past int64; negative seconds are refused.
  const wrapped = BigInt.asIntN(64, BigInt(seconds));
  if (wrapped < 0n) return fail([INVALID_TRANSACTION_ID]);
  const validStartNs = BigInt(`${wrapped}${String(Number(nanos)).padStart(9, "0")}`);
  return succeed({
    kind: "id",
    payerId: entity.id.encoded,
    // Beyond int64 no transaction can match (upstream's database refuses the value).
    validStartNs: validStartNs > MAX_INT64 ? -1n : validStartNs,
  });
}

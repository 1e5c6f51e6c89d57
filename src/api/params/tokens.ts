/**
 * Request parsing for `GET /api/v1/tokens` and `GET /api/v1/tokens/{tokenId}`, reproducing `rest/tokens.js`
 * (`getTokensRequest`, `getTokenInfoRequest`, `validateTokenQueryFilter`, `validateTokenInfoFilter`).
 *
 * `/tokens`: the two `name` conflicts are checked first (by JavaScript truthiness of the raw values, so an
 * empty `name=` does not count), then every value, then the raw `account.id` a second time with its operator
 * still attached (only a single bare ID survives that). Default order asc; pages on `token.id`, except that a
 * `name` search never links onward.
 *
 * `/tokens/{tokenId}`: the path first, then `timestamp` (eq, lt, lte; the last one wins).
 *
 * On every route a query string the parser rejects is reported before anything else, and `limit` / `order`
 * are "last one wins" (limit default 25, capped at 100).
 */
import { parseEntityIdString } from "./entity-id.ts";
import { fail, invalidParameter, type ParamResult, succeed } from "./errors.ts";
import { type Comparison, limitAndOrder, type Order, validateFilters } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import {
  accountIdSpec,
  limitSpec,
  orderSpec,
  publicKeySpec,
  type TokenType,
  tokenIdSpec,
  tokenInfoTimestampSpec,
  tokenNameSpec,
  tokenTypeSpec,
} from "./param-specs.ts";
import { parseTokenIdPathParam } from "./path-params.ts";
import { type QueryEntry, valueText } from "./query.ts";
import { pagingFor, readPathAndQuery, readRequest } from "./request.ts";

/** Accepted query parameters of `GET /api/v1/tokens`. */
export function tokensSpec(options: ParamOptions) {
  return {
    "account.id": accountIdSpec(options),
    limit: limitSpec(options.maxLimit),
    name: tokenNameSpec,
    order: orderSpec,
    publickey: publicKeySpec,
    "token.id": tokenIdSpec(options),
    type: tokenTypeSpec,
  };
}

/** Accepted query parameters of `GET /api/v1/tokens/{tokenId}`. */
export const tokenInfoSpec = { timestamp: tokenInfoTimestampSpec };

/** `GET /api/v1/tokens`. Conditions of each list are ANDed. */
export interface TokensRequest {
  /** `token.id` values without an operator or with `eq:`: one IN list (empty: no such condition). */
  readonly tokenIds: readonly bigint[];
  /** `token.id` values with `ne`, `lt`, `lte`, `gt` or `gte`. */
  readonly tokenIdRanges: readonly Comparison<bigint>[];
  /**
   * Tokens associated with this account (`token_account.associated`), or undefined for no such filter. Null
   * means a non-long-zero EVM address, which matches no token.
   */
  readonly accountId: bigint | null | undefined;
  /** Compared with the token entity's `public_key` using the given operator. */
  readonly publicKeys: readonly Comparison<string>[];
  /** Token type conditions; `type=ALL` adds none. */
  readonly types: readonly Comparison<TokenType>[];
  /** Case-insensitive substrings of the token name (3-100 bytes each). */
  readonly names: readonly string[];
  readonly limit: number;
  /** Sort order of the token ID. */
  readonly order: Order;
  /** Null when `name` is given: such pages never link onward. */
  readonly paging: PagingContext | null;
}

/** `GET /api/v1/tokens/{tokenId}`. */
export interface TokenInfoRequest {
  readonly tokenId: bigint;
  /** The last `timestamp` value; `eq` is reported as `lte`. Null means "current state". */
  readonly timestamp: { readonly op: "lt" | "lte"; readonly value: bigint } | null;
}

/** Upstream tests these with JavaScript truthiness: an empty single value counts as absent, a list never. */
function isPresent(entry: QueryEntry | undefined): entry is QueryEntry {
  if (entry === undefined) return false;
  if (entry.repeated) return true;
  const first = entry.values[0];
  return first !== undefined && first !== "";
}

/** Parses `GET /api/v1/tokens`; `url` is `req.originalUrl`. */
export function parseTokensRequest(
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TokensRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const { query } = request.value;
  const opts = request.value.options;

  if (isPresent(query.get("name"))) {
    if (isPresent(query.get("token.id"))) {
      return fail(["token.id and name can not be used together. Use a more specific name instead."]);
    }
    if (isPresent(query.get("account.id"))) return fail(["account.id and name cannot be used together"]);
  }

  const validated = validateFilters(query, tokensSpec(opts), opts.maxRepeatedQueryParameters);
  if (!validated.ok) return validated;
  const filters = validated.value;

  // Upstream reads the raw `account.id` once more, operator included, so only a bare single ID works.
  let accountId: bigint | null | undefined;
  const accountEntry = query.get("account.id");
  if (isPresent(accountEntry)) {
    if (accountEntry.repeated) {
      return fail([`Entity ID "${accountEntry.values.map(valueText).join(",")}" is not a string`]);
    }
    const parsed = parseEntityIdString(valueText(accountEntry.values[0] ?? ""), "any", opts);
    if (!parsed.ok) return fail([invalidParameter("account.id")]);
    accountId = parsed.id.kind === "id" ? parsed.id.encoded : null;
  }

  const tokenIds: bigint[] = [];
  const tokenIdRanges: Comparison<bigint>[] = [];
  const publicKeys: Comparison<string>[] = [];
  const types: Comparison<TokenType>[] = [];
  const names: string[] = [];
  for (const filter of filters) {
    switch (filter.key) {
      case "token.id":
        if (filter.op === "eq") tokenIds.push(filter.value);
        else tokenIdRanges.push({ op: filter.op, value: filter.value });
        break;
      case "publickey":
        publicKeys.push({ op: filter.op, value: filter.value });
        break;
      case "type":
        if (filter.value !== "ALL") types.push({ op: filter.op, value: filter.value });
        break;
      case "name":
        names.push(filter.value);
        break;
    }
  }
  const { limit, order } = limitAndOrder(filters, opts.defaultLimit, "asc");
  const paging = names.length > 0 ? null : pagingFor(request.value, "token.id", order, limit);
  return succeed({ tokenIds, tokenIdRanges, accountId, publicKeys, types, names, limit, order, paging });
}

/** Parses `GET /api/v1/tokens/{tokenId}`; `url` is `req.originalUrl`. */
export function parseTokenInfoRequest(
  params: { readonly tokenId: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TokenInfoRequest> {
  const read = readPathAndQuery(
    url,
    options,
    (opts) => parseTokenIdPathParam(params.tokenId, opts),
    () => tokenInfoSpec,
  );
  if (!read.ok) return read;
  const last = read.value.filters.at(-1);
  const timestamp =
    last === undefined ? null : ({ op: last.op === "lt" ? "lt" : "lte", value: last.value } as const);
  return succeed({ tokenId: read.value.path, timestamp });
}

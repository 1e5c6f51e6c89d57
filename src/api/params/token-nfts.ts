/**
 * Request parsing for the NFT routes of `rest/tokens.js`:
 * - `GET /api/v1/tokens/{tokenId}/nfts` (`getNftTokensRequest`): the path, then `account.id`, `serialnumber`,
 *   `limit`, `order` (default desc). Pages on `serialnumber`.
 * - `GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}` (`getNftTokenInfoRequest`): any query parameter is
 *   reported first (one message per name), then `tokenid`, then `serialnumber`.
 * - `GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions` (`getNftTransferHistoryRequest`):
 *   `tokenid`, `serialnumber`, then `timestamp`, `limit`, `order` (default desc). Pages on `timestamp`.
 */
import { fail, type ParamResult, succeed } from "./errors.ts";
import { type Comparison, limitAndOrder, type Order, rejectAllParameters } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { accountIdSpec, limitSpec, orderSpec, serialNumberSpec, timestampSpec } from "./param-specs.ts";
import { parseSerialNumberPathParam, parseTokenIdPathParam } from "./path-params.ts";
import { pagingFor, readPathAndQuery, readRequest } from "./request.ts";

/** Accepted query parameters of `GET /api/v1/tokens/{tokenId}/nfts`. */
export function tokenNftsSpec(options: ParamOptions) {
  return {
    "account.id": accountIdSpec(options),
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    serialnumber: serialNumberSpec,
  };
}

/** Accepted query parameters of `GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions`. */
export function nftTransactionsSpec(options: ParamOptions) {
  return { limit: limitSpec(options.maxLimit), order: orderSpec, timestamp: timestampSpec };
}

/** `GET /api/v1/tokens/{tokenId}/nfts`. */
export interface TokenNftsRequest {
  readonly tokenId: bigint;
  /** Conditions on the owner; a null value (a non-long-zero EVM address) matches nothing. */
  readonly accountIds: readonly Comparison<bigint | null>[];
  readonly serialNumbers: readonly Comparison<bigint>[];
  readonly limit: number;
  /** Sort order of the serial number. */
  readonly order: Order;
  readonly paging: PagingContext;
}

/** `GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}`. */
export interface TokenNftRequest {
  readonly tokenId: bigint;
  readonly serialNumber: bigint;
}

/** `GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions`. */
export interface NftTransactionsRequest {
  readonly tokenId: bigint;
  readonly serialNumber: bigint;
  /** Conditions on the event timestamp, all ANDed. */
  readonly timestamps: readonly Comparison<bigint>[];
  readonly limit: number;
  /** Sort order of the event timestamp. */
  readonly order: Order;
  readonly paging: PagingContext;
}

/** Parses `GET /api/v1/tokens/{tokenId}/nfts`; `url` is `req.originalUrl`. */
export function parseTokenNftsRequest(
  params: { readonly tokenId: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TokenNftsRequest> {
  const read = readPathAndQuery(
    url,
    options,
    (opts) => parseTokenIdPathParam(params.tokenId, opts),
    tokenNftsSpec,
  );
  if (!read.ok) return read;
  const { request, path: tokenId, filters } = read.value;

  const accountIds: Comparison<bigint | null>[] = [];
  const serialNumbers: Comparison<bigint>[] = [];
  for (const filter of filters) {
    if (filter.key === "account.id") accountIds.push({ op: filter.op, value: filter.value });
    else if (filter.key === "serialnumber") serialNumbers.push({ op: filter.op, value: filter.value });
  }
  const { limit, order } = limitAndOrder(filters, request.options.defaultLimit, "desc");
  const paging = pagingFor(request, "serialnumber", order, limit);
  return succeed({ tokenId, accountIds, serialNumbers, limit, order, paging });
}

/** Parses `GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}`; `url` is `req.originalUrl`. */
export function parseTokenNftRequest(
  params: { readonly tokenId: string; readonly serialNumber: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TokenNftRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const unknown = rejectAllParameters(request.value.query);
  if (unknown.length > 0) return fail(unknown);
  return readNftPath(params, request.value.options);
}

/** The token, then the serial number: each failing alone, in that order. */
function readNftPath(
  params: { readonly tokenId: string; readonly serialNumber: string },
  options: ParamOptions,
): ParamResult<{ tokenId: bigint; serialNumber: bigint }> {
  const tokenId = parseTokenIdPathParam(params.tokenId, options);
  if (!tokenId.ok) return tokenId;
  const serialNumber = parseSerialNumberPathParam(params.serialNumber);
  if (!serialNumber.ok) return serialNumber;
  return succeed({ tokenId: tokenId.value, serialNumber: serialNumber.value });
}

/** Parses `GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions`; `url` is `req.originalUrl`. */
export function parseNftTransactionsRequest(
  params: { readonly tokenId: string; readonly serialNumber: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<NftTransactionsRequest> {
  const read = readPathAndQuery(url, options, (opts) => readNftPath(params, opts), nftTransactionsSpec);
  if (!read.ok) return read;
  const { request, path, filters } = read.value;

  const timestamps: Comparison<bigint>[] = [];
  for (const filter of filters) {
    if (filter.key === "timestamp") timestamps.push({ op: filter.op, value: filter.value });
  }
  const { limit, order } = limitAndOrder(filters, request.options.defaultLimit, "desc");
  const paging = pagingFor(request, "timestamp", order, limit);
  return succeed({
    ...path,
    timestamps,
    limit,
    order,
    paging,
  });
}

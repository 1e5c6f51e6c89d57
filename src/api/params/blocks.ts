/**
 * Request parsing for `/api/v1/blocks…`, reproducing `rest/controllers/blockController.js`:
 * - `GET /blocks` accepts `block.number` (decimal or `0x`, no `ne`), `timestamp` (matched against the
 *   block's consensus end), `limit` and `order` (default desc). The first `block.number` or `timestamp`
 *   filter picks the sort column; links always page on `block.number`.
 * - `GET /blocks/{hashOrNumber}` accepts no query parameters (reported first, one per name), then checks the
 *   path parameter.
 * A query string the parser rejects is reported before anything else.
 */
import { fail, type ParamResult, succeed } from "./errors.ts";
import { type Comparison, type Order, rejectAllParameters, validateFilters } from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { blockNumberSpec, limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";
import { type BlockLocator, parseHashOrNumberPathParam } from "./path-params.ts";
import { pagingFor, readRequest } from "./request.ts";

/** Accepted query parameters of `GET /api/v1/blocks`. */
export function blocksSpec(options: ParamOptions) {
  return {
    "block.number": blockNumberSpec,
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    timestamp: timestampSpec,
  };
}

/** `GET /api/v1/blocks`. Conditions are ANDed. */
export interface BlocksRequest {
  readonly blockNumbers: readonly Comparison<bigint>[];
  /** Conditions on the block's consensus end (its last transaction). */
  readonly timestamps: readonly Comparison<bigint>[];
  /** Sort column: the block number if the first block filter is `block.number`, else the consensus end. */
  readonly orderBy: "number" | "timestamp";
  readonly limit: number;
  readonly order: Order;
  readonly paging: PagingContext;
}

/** Parses `GET /api/v1/blocks`; `url` is `req.originalUrl`. */
export function parseBlocksRequest(
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<BlocksRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const validated = validateFilters(request.value.query, blocksSpec(opts), opts.maxRepeatedQueryParameters);
  if (!validated.ok) return validated;

  const blockNumbers: Comparison<bigint>[] = [];
  const timestamps: Comparison<bigint>[] = [];
  let orderBy: "number" | "timestamp" | undefined;
  let limit = opts.defaultLimit;
  let order: Order = "desc";
  for (const filter of validated.value) {
    switch (filter.key) {
      case "block.number":
        blockNumbers.push({ op: filter.op, value: filter.value });
        orderBy ??= "number";
        break;
      case "timestamp":
        timestamps.push({ op: filter.op, value: filter.value });
        orderBy ??= "timestamp";
        break;
      case "limit":
        limit = filter.value;
        break;
      case "order":
        order = filter.value;
        break;
    }
  }
  const paging = pagingFor(request.value, "block.number", order, limit);
  return succeed({ blockNumbers, timestamps, orderBy: orderBy ?? "timestamp", limit, order, paging });
}

/** Parses `GET /api/v1/blocks/{hashOrNumber}`; `url` is `req.originalUrl`. */
export function parseBlockRequest(
  params: { readonly hashOrNumber: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<BlockLocator> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const unknown = rejectAllParameters(request.value.query);
  if (unknown.length > 0) return fail(unknown);
  const locator = parseHashOrNumberPathParam(params.hashOrNumber);
  return locator.ok ? succeed(locator.value) : locator;
}

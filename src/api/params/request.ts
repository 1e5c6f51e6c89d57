/**
 * The first step every tokens/blocks route shares: split `req.originalUrl` into the path and the query string
 * and parse the query as upstream's query parser does (a parser failure is reported before anything else).
 */
import { fail, type ParamResult, succeed } from "./errors.ts";
import { type EndpointSpec, type FilterOf, type Order, validateFilters } from "./filters.ts";
import { type AnchorKey, linkPath, type PagingContext } from "./links.ts";
import { type ParamOptions, resolveOptions } from "./options.ts";
import { type ParsedQuery, parseQueryString, splitRequestUrl } from "./query.ts";

export interface RequestParts {
  /** The request path as sent, without its trailing `/`. */
  readonly path: string;
  readonly query: ParsedQuery;
  readonly options: ParamOptions;
}

/** Parses `req.originalUrl` (path plus `?query`; a bare `?query` also works). */
export function readRequest(url: string, options: Partial<ParamOptions> = {}): ParamResult<RequestParts> {
  const resolved = resolveOptions(options);
  const { path, queryString } = splitRequestUrl(url);
  const parsed = parseQueryString(queryString, resolved.maxRepeatedQueryParameters);
  if (!parsed.ok) return fail(parsed.messages);
  return succeed({ path: linkPath(path), query: parsed.query, options: resolved });
}

/** The paging context of a list request. */
export function pagingFor(
  request: RequestParts,
  anchor: AnchorKey,
  order: Order,
  limit: number,
): PagingContext {
  const { shard, realm } = request.options;
  return { path: request.path, query: request.query, anchor, order, limit, shard, realm };
}

/**
 * The shared start of a route with path parameters: the query parsed, then the path parameters read (upstream
 * checks them before the query's values, and a bad one fails alone), then the query validated against the
 * endpoint's spec.
 */
export function readPathAndQuery<P, S extends EndpointSpec>(
  url: string,
  options: Partial<ParamOptions>,
  readPath: (options: ParamOptions) => ParamResult<P>,
  specOf: (options: ParamOptions) => S,
): ParamResult<{ request: RequestParts; path: P; filters: FilterOf<S>[] }> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const path = readPath(opts);
  if (!path.ok) return path;
  const filters = validateFilters(request.value.query, specOf(opts), opts.maxRepeatedQueryParameters);
  if (!filters.ok) return filters;
  return succeed({ request: request.value, path: path.value, filters: filters.value });
}

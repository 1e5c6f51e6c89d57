/**
 * `links.next` as upstream's `getPaginationLink` (`rest/utils.js`) builds it for the Node endpoints.
 *
 * The link is relative: the request path as sent (one trailing `/` removed) plus the parsed query, names
 * lower-cased, values decoded and written back without percent-encoding. The endpoint's anchor parameter K
 * is rewritten with the last item's value:
 * 1. K's values that contain `gt:`/`gte:` (asc) or `lt:`/`lte:` (desc) anywhere are dropped.
 * 2. The bound `gt:<last>` (asc) or `lt:<last>` (desc) is placed by one of three rules:
 *    - K absent, or its single value dropped: `K=<bound>` goes to the end of the query;
 *    - K single and kept: K becomes [value, bound] in place, but only if the value starts with a range
 *      operator (`gt`, `gte`, `lt`, `lte` + `:`); a bare or `eq:` value gets no bound;
 *    - K repeated: K keeps its place (even if emptied) and gets the bound only if its first original value
 *      starts with a range operator.
 * 3. If K's range-operator values now describe an empty range (`gt` read as +1, `lt` as -1), there is no link.
 * Other parameters keep their values and places.
 */
import { parseEntityIdString, type ShardRealm } from "./entity-id.ts";
import { type Order, splitOperator } from "./filters.ts";
import { parseHexLong } from "./integers.ts";
import { type ParsedQuery, valueText } from "./query.ts";
import { parseTimestamp } from "./timestamp.ts";

/** The parameter each list endpoint pages on. */
export type AnchorKey =
  | "token.id"
  | "account.id"
  | "spender.id"
  | "serialnumber"
  | "timestamp"
  | "block.number"
  | "schedule.id"
  | "contract.id"
  | "index"
  | "slot";

/** Everything a list route needs to build its next link once it knows the page. */
export interface PagingContext {
  /** Request path as sent, without its trailing `/`. */
  readonly path: string;
  readonly query: ParsedQuery;
  readonly anchor: AnchorKey;
  readonly order: Order;
  /** The effective (capped) page size: only a full page gets a link. */
  readonly limit: number;
  readonly shard: bigint;
  readonly realm: bigint;
}

export interface NextLinkInput extends ShardRealm {
  readonly path: string;
  readonly query: ParsedQuery;
  readonly anchor: AnchorKey;
  readonly order: Order;
  /** The anchor value of the last item, as the response prints it (`0.0.25301`, `1234567890.000000007`, `17`). */
  readonly lastValue: string;
}

const RANGE_OPERATOR_PREFIX = /^[gl]t[e]?:/;

/** The request path upstream puts in links: as sent, minus one trailing `/`. */
export function linkPath(path: string): string {
  return path.endsWith("/") ? path.slice(0, -1) : path;
}

/** An anchor value as the number upstream compares for the empty-range check; null when it names none. */
function anchorNumber(anchor: AnchorKey, value: string, config: ShardRealm): bigint | null {
  switch (anchor) {
    case "token.id":
    case "account.id":
    case "spender.id":
    case "schedule.id":
    case "contract.id": {
      const parsed = parseEntityIdString(value, anchor === "token.id" ? "num-alias" : "any", config);
      return parsed.ok && parsed.id.kind === "id" ? parsed.id.encoded : null;
    }
    case "timestamp":
      return parseTimestamp(value);
    case "block.number":
      return value.startsWith("0x") ? parseHexLong(value, true) : /^\d+$/.test(value) ? BigInt(value) : null;
    case "serialnumber":
    case "index":
      return /^\d+$/.test(value) ? BigInt(value) : null;
    case "slot":
      return /^(0x)?[0-9a-fA-F]{1,64}$/.test(value)
        ? BigInt(value.startsWith("0x") ? value : `0x${value}`)
        : null;
  }
}

function isEmptyRange(anchor: AnchorKey, values: readonly string[], config: ShardRealm): boolean {
  let lower: bigint | null = null;
  let upper: bigint | null = null;
  for (const text of values) {
    if (!RANGE_OPERATOR_PREFIX.test(text)) continue;
    const { op, value } = splitOperator(text);
    if (value === undefined) continue;
    const parsed = anchorNumber(anchor, value, config);
    if (parsed === null) continue;
    if (op === "gt" || op === "gte") {
      const bound = op === "gt" ? parsed + 1n : parsed;
      lower = lower === null || bound > lower ? bound : lower;
    } else if (op === "lt" || op === "lte") {
      const bound = op === "lt" ? parsed - 1n : parsed;
      upper = upper === null || bound < upper ? bound : upper;
    }
  }
  return lower !== null && upper !== null && upper < lower;
}

/** Builds the next link for a full page; null when the rewritten anchor range is empty. */
export function buildNextLink(input: NextLinkInput): string | null {
  return buildPairedNextLink({ ...input, keys: [{ anchor: input.anchor, lastValue: input.lastValue }] });
}

/** One anchor of a multi-key next link, with its last value; `inclusive` writes `gte:`/`lte:`. */
export interface NextLinkKey {
  readonly anchor: AnchorKey;
  readonly lastValue: string;
  readonly inclusive?: boolean;
}

/**
 * The next link of a list paged on several keys at once (upstream `getNextParamQueries` with a map of last
 * values, as `BaseController.getPaginationLink` builds it for two-key lists): each key is rewritten in turn by
 * the rules above, in the given order, and the empty-range check looks at the first key only.
 */
export function buildPairedNextLink(
  input: ShardRealm & {
    readonly path: string;
    readonly query: ParsedQuery;
    readonly order: Order;
    readonly keys: readonly NextLinkKey[];
  },
): string | null {
  const { order } = input;
  const sameDirection = order === "asc" ? /gt[e]?:/ : /lt[e]?:/;

  const query = new Map<string, { values: string[]; repeated: boolean }>();
  for (const [name, entry] of input.query) {
    query.set(name, { values: entry.values.map(valueText), repeated: entry.repeated });
  }

  for (const { anchor, lastValue, inclusive } of input.keys) {
    const bound = `${order === "asc" ? "gt" : "lt"}${inclusive === true ? "e" : ""}:${lastValue}`;
    const original = query.get(anchor);
    if (original === undefined) {
      query.set(anchor, { values: [bound], repeated: false });
    } else if (original.repeated) {
      const kept = original.values.filter((value) => !sameDirection.test(value));
      // Upstream tests the list itself, whose text is its values joined by commas: the first value decides.
      const values = RANGE_OPERATOR_PREFIX.test(original.values.join(",")) ? [...kept, bound] : kept;
      query.set(anchor, { values, repeated: true });
    } else {
      const value = original.values[0] ?? "";
      if (sameDirection.test(value)) {
        query.delete(anchor);
        query.set(anchor, { values: [bound], repeated: false });
      } else if (RANGE_OPERATOR_PREFIX.test(value)) {
        query.set(anchor, { values: [value, bound], repeated: true });
      }
    }
  }

  const first = input.keys[0]?.anchor;
  if (first !== undefined && isEmptyRange(first, query.get(first)?.values ?? [], input)) return null;

  const pairs = [...query].flatMap(([name, entry]) => entry.values.map((value) => `${name}=${value}`));
  return linkPath(input.path) + (pairs.length === 0 ? "" : `?${pairs.join("&")}`);
}

/**
 * The `links.next` of a list response: null unless the page is full (`itemCount === limit`, never for an
 * empty page) or when paging is off (`/tokens` with `name`).
 */
export function nextLink(
  paging: PagingContext | null,
  itemCount: number,
  lastValue: string | undefined,
): string | null {
  if (paging === null || lastValue === undefined || itemCount === 0 || itemCount !== paging.limit)
    return null;
  return buildNextLink({ ...paging, lastValue });
}

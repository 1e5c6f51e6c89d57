/**
 * `links.next` of the Java-implemented list endpoints (upstream `LinkFactoryImpl`, api.md §1.8).
 *
 * The query is the servlet parameter map (request order, names as sent, unknown names included). The anchor's
 * values in the paging direction (`gt:`/`gte:` ascending, `lt:`/`lte:` descending, any case) are dropped. If a
 * remaining anchor value is an equality (`eq:` or no operator) no bound is added; otherwise `gt:<last>` /
 * `lt:<last>` follows the anchor's surviving values, or ends the query when none survived. When the anchor's
 * range values then describe an empty range there is no next page. Values are percent-encoded where a query
 * component needs it (Spring's `UriComponentsBuilder.encode()`); values with control characters are dropped.
 */
import type { Order } from "./params.ts";
import type { JavaQuery } from "./query.ts";

const RANGE_PREFIXES = ["gt:", "gte:", "lt:", "lte:"];

function sameDirection(order: Order, value: string): boolean {
  const lower = value.toLowerCase();
  return order === "asc"
    ? lower.startsWith("gt:") || lower.startsWith("gte:")
    : lower.startsWith("lt:") || lower.startsWith("lte:");
}

function isEquality(value: string): boolean {
  const lower = value.toLowerCase();
  return lower.startsWith("eq:") || !RANGE_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** Whether the anchor's range values leave nothing (`gt` read as +1, `lt` as −1; non-numbers skipped). */
function isEmptyRange(values: readonly string[]): boolean {
  let lower: bigint | null = null;
  let upper: bigint | null = null;
  for (const value of values) {
    const lowerCased = value.toLowerCase();
    const [prefix, delta, isLower] = lowerCased.startsWith("gte:")
      ? ["gte:", 0n, true]
      : lowerCased.startsWith("gt:")
        ? ["gt:", 1n, true]
        : lowerCased.startsWith("lte:")
          ? ["lte:", 0n, false]
          : lowerCased.startsWith("lt:")
            ? ["lt:", -1n, false]
            : [null, 0n, false];
    if (prefix === null) continue;
    const digits = value.slice(prefix.length);
    if (!/^[+-]?\d{1,19}$/.test(digits)) continue;
    const bound = BigInt(digits) + delta;
    if (isLower) lower = lower === null || bound > lower ? bound : lower;
    else upper = upper === null || bound < upper ? bound : upper;
  }
  return lower !== null && upper !== null && upper < lower;
}

/** Characters a query name or value keeps as they are (RFC 3986 pchar minus `&`, `=`, `+`, plus `/` `?`). */
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/%(2F|3F|3A|40|21|24|27|28|29|2A|2C|3B)/gi, (encoded) =>
    decodeURIComponent(encoded),
  );
}

/**
 * The next link for a full page whose last item has anchor value `lastValue`, or null. `path` is the request
 * path as sent.
 */
export function javaNextLink(
  path: string,
  query: JavaQuery,
  anchor: string,
  order: Order,
  lastValue: string,
): string | null {
  const pairs: Array<[string, string]> = [];
  const anchorValues: string[] = [];
  for (const [name, values] of query) {
    if (hasControlCharacter(name)) continue;
    for (const value of values) {
      if (hasControlCharacter(value)) continue;
      if (name === anchor) {
        if (sameDirection(order, value)) continue;
        anchorValues.push(value);
      }
      pairs.push([name, value]);
    }
  }
  if (!anchorValues.some(isEquality)) {
    const bound = `${order === "asc" ? "gt" : "lt"}:${lastValue}`;
    const lastAnchor = pairs.findLastIndex(([name]) => name === anchor);
    pairs.splice(lastAnchor === -1 ? pairs.length : lastAnchor + 1, 0, [anchor, bound]);
    anchorValues.push(bound);
  }
  if (isEmptyRange(anchorValues)) return null;
  const text = pairs.map(([name, value]) => `${encodeQueryPart(name)}=${encodeQueryPart(value)}`).join("&");
  return text === "" ? path : `${path}?${text}`;
}

/**
 * The next link of a Java list sorted on several keys (upstream `LinkFactoryImpl.createNextLink` with a sort and
 * an extractor), for a full page whose last item gives `values` (the extractor's map: its keys are the
 * pagination parameters, `sortKeys` the sort, primary first):
 *
 * 1. the query's parameters are copied by name, in first-appearance order with all their values; of a
 *    pagination parameter, the values in the paging direction are left out (none left: the name goes too);
 * 2. then each sort key in turn, unless it kept an equality: `gte:`/`lte:` with its last value when the next
 *    key kept no equality (or `gt:`/`lt:` when it did, and always for the last key), after its other values or
 *    at the end of the query;
 * 3. no link when the primary key's numeric range values now leave nothing.
 */
export function javaSortedNextLink(
  path: string,
  query: JavaQuery,
  order: Order,
  sortKeys: readonly string[],
  values: Readonly<Record<string, string>>,
): string | null {
  const params = new Map<string, string[]>();
  const add = (name: string, value: string) => {
    const list = params.get(name);
    if (list === undefined) params.set(name, [value]);
    else list.push(value);
  };
  for (const [name, list] of query) {
    if (hasControlCharacter(name)) continue;
    const paging = Object.hasOwn(values, name);
    for (const value of list) {
      if (hasControlCharacter(value) || (paging && sameDirection(order, value))) continue;
      add(name, value);
    }
  }
  const keptEquality = new Map(sortKeys.map((key) => [key, (params.get(key) ?? []).some(isEquality)]));
  sortKeys.forEach((key, i) => {
    if (params.has(key) && keptEquality.get(key) === true) return;
    const next = sortKeys[i + 1];
    const exclusive = next === undefined ? true : keptEquality.get(next) === true;
    const op = `${order === "asc" ? "gt" : "lt"}${exclusive ? "" : "e"}`;
    const value = `${op}:${values[key] ?? ""}`;
    if (!hasControlCharacter(value)) add(key, value);
  });
  const primary = sortKeys[0];
  if (primary !== undefined && isEmptyRange(params.get(primary) ?? [])) return null;
  const text = [...params]
    .flatMap(([name, list]) => list.map((value) => `${encodeQueryPart(name)}=${encodeQueryPart(value)}`))
    .join("&");
  return text === "" ? path : `${path}?${text}`;
}

/**
 * Query-string parsing as the Node REST service does it: Express hands the raw query string to
 * `requestQueryParser` (`rest/middleware/requestHandler.js`), which runs
 * `qs.parse(query, {arrayLimit: 100, depth: 1, strictDepth: true, throwOnLimitExceeded: true})` and then
 * lower-cases every name, merging names that differ only in case.
 *
 * What that means, reproduced here:
 * - Parts are split on `&`; empty parts (`&&`) and parts with an empty name are dropped. A part without `=`
 *   has the empty value. More than 1000 parts fail with qs's `Parameter limit exceeded…` message.
 * - Names and values are percent-decoded after turning `+` into a space; a part whose escapes do not decode
 *   is kept as written (minus the `+` change). `%5B`/`%5D` count as brackets before anything else.
 * - Repeats of one spelled name collect in request order; more than 100 fail with
 *   `Array limit exceeded. Only 100 elements allowed in an array.` Names are then lower-cased and merged in
 *   first-appearance order of the spelled names, so `a=1&A=2&a=3` gives `a: [1, 3, 2]`.
 * - Values of `order` and `result` are lower-cased.
 * - Names that are `Object.prototype` members (`toString`, `constructor`, …) vanish, as does anything that
 *   lower-cases to `__proto__`; names that look like array indices come first, as JavaScript orders object keys.
 * - Bracket syntax follows qs 6.17 (`x[]=v` adds to `x`'s list, `x[key]=v` gives `x` an object value that no
 *   filter accepts, two bracket groups fail with qs's depth message), except that an index spelling
 *   `x[3]=v` is treated like `x[]=v`: qs would place it by index, and count the holes against the limit.
 *   A differential run against qs itself over random strings built from these pieces found no other
 *   difference.
 */

/** A value qs builds from `name[key]=v`: an object, which no filter accepts (links print `[object Object]`). */
export interface ObjectValue {
  readonly kind: "object";
}

export type QueryValue = string | ObjectValue;

/** The values of one lower-cased name. `repeated` means upstream holds a list rather than a single value. */
export interface QueryEntry {
  readonly values: readonly QueryValue[];
  readonly repeated: boolean;
}

/** Lower-cased names in upstream's key order, each with its values in upstream's order. */
export type ParsedQuery = ReadonlyMap<string, QueryEntry>;

export type QueryParseResult =
  | { readonly ok: true; readonly query: ParsedQuery }
  | { readonly ok: false; readonly messages: readonly string[] };

const PARAMETER_LIMIT = 1000;
const OBJECT_VALUE: ObjectValue = Object.freeze({ kind: "object" });
const LOWER_CASED_VALUES = new Set(["order", "result"]);

class QueryStringError extends Error {}

interface MutableEntry {
  values: QueryValue[];
  repeated: boolean;
}

/** The text upstream prints for a value when it writes it back into a link. */
export function valueText(value: QueryValue): string {
  return typeof value === "string" ? value : "[object Object]";
}

function arrayLimitError(limit: number): QueryStringError {
  return new QueryStringError(
    `Array limit exceeded. Only ${limit} element${limit === 1 ? "" : "s"} allowed in an array.`,
  );
}

/** qs's decoder: `+` is a space; malformed escapes leave the component as written. */
function decodeComponent(text: string): string {
  const spaced = text.includes("+") ? text.replace(/\+/g, " ") : text;
  if (!text.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function addValues(
  target: Map<string, MutableEntry>,
  name: string,
  values: readonly QueryValue[],
  list: boolean,
) {
  const existing = target.get(name);
  if (existing === undefined) {
    target.set(name, { values: [...values], repeated: list });
  } else {
    existing.values.push(...values);
    existing.repeated = true;
  }
}

/** qs `parseValues`: spelled (decoded, not yet nested) names to their values, in first-appearance order. */
function collectSpelledNames(queryString: string, arrayLimit: number): Map<string, MutableEntry> {
  const cleaned = queryString.includes("%")
    ? queryString.replace(/%5B/gi, "[").replace(/%5D/gi, "]")
    : queryString;
  const parts = cleaned.split("&", PARAMETER_LIMIT + 1);
  if (parts.length > PARAMETER_LIMIT) {
    throw new QueryStringError(`Parameter limit exceeded. Only ${PARAMETER_LIMIT} parameters allowed.`);
  }
  const spelled = new Map<string, MutableEntry>();
  for (const part of parts) {
    const bracketEquals = part.indexOf("]=");
    const split = bracketEquals === -1 ? part.indexOf("=") : bracketEquals + 1;
    const name = decodeComponent(split === -1 ? part : part.slice(0, split));
    const value = split === -1 ? "" : decodeComponent(part.slice(split + 1));
    const existing = spelled.get(name);
    if (existing !== undefined && existing.values.length + 1 > arrayLimit) throw arrayLimitError(arrayLimit);
    addValues(spelled, name, [value], false);
  }
  return spelled;
}

/**
 * qs `utils.merge` (6.17, `strictMerge`) of one spelling's result into a name another spelling already
 * filled (only bracket spellings get here): an empty string adds nothing, an object absorbs lists and
 * objects, a list turns into an object when an object arrives, anything else concatenates.
 */
function mergeSpelling(
  target: Map<string, MutableEntry>,
  name: string,
  source: MutableEntry,
  arrayLimit: number,
) {
  const existing = target.get(name);
  if (existing === undefined) {
    target.set(name, { values: [...source.values], repeated: source.repeated });
    return;
  }
  const single = source.repeated ? undefined : source.values[0];
  if (single === "") return;
  const existingSingle = existing.repeated ? undefined : existing.values[0];
  if (existingSingle !== undefined && typeof existingSingle !== "string" && typeof single !== "string")
    return;
  if (existing.repeated && single !== undefined && typeof single !== "string") {
    target.set(name, { values: [OBJECT_VALUE], repeated: false });
    return;
  }
  if (existing.values.length + source.values.length > arrayLimit) throw arrayLimitError(arrayLimit);
  existing.values.push(...source.values);
  existing.repeated = true;
}

function isPrototypeMember(name: string): boolean {
  return Object.hasOwn(Object.prototype, name);
}

function isArrayIndexText(text: string): boolean {
  // Most names start with a letter: no pattern to run for them.
  const first = text.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return false;
  return /^(0|[1-9]\d*)$/.test(text) && Number(text) < 2 ** 32 - 1;
}

/** qs `parseKeys` with depth 1: folds `name[...]` spellings into `name`. */
function nestSpelledNames(spelled: Map<string, MutableEntry>, arrayLimit: number): Map<string, MutableEntry> {
  const nested = new Map<string, MutableEntry>();
  for (const [spelling, entry] of objectKeyOrder(spelled)) {
    if (spelling === "") continue;
    const open = spelling.indexOf("[");
    const parent = open === -1 ? spelling : spelling.slice(0, open);
    if (parent !== "" && isPrototypeMember(parent)) continue;
    if (open === -1) {
      mergeSpelling(nested, parent, entry, arrayLimit);
      continue;
    }
    const close = findClosingBracket(spelling, open);
    let content: string;
    if (close === -1) {
      content = spelling.slice(open);
    } else {
      content = spelling.slice(open + 1, close);
      if (isPrototypeMember(content)) continue;
      if (spelling.indexOf("[", close + 1) !== -1) {
        throw new QueryStringError("Input depth exceeded depth option of 1 and strictDepth is true");
      }
    }
    const isIndex = close !== -1 && isArrayIndexText(content);
    if (isIndex && Number(content) >= arrayLimit) throw arrayLimitError(arrayLimit);
    if (parent === "" && content === "") {
      // A top-level `[]=v` list spreads over the names 0, 1, …
      entry.values.forEach((value, i) => {
        mergeSpelling(nested, String(i), { values: [value], repeated: false }, arrayLimit);
      });
    } else if (parent === "") {
      mergeSpelling(nested, content, entry, arrayLimit);
    } else if (close !== -1 && (content === "" || isIndex)) {
      mergeSpelling(nested, parent, { values: entry.values, repeated: true }, arrayLimit);
    } else {
      mergeSpelling(nested, parent, { values: [OBJECT_VALUE], repeated: false }, arrayLimit);
    }
  }
  return nested;
}

function findClosingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return -1;
}

/** Orders names as `Object.entries` would: array-index-like names first, ascending, then insertion order. */
function objectKeyOrder<V>(entries: Map<string, V>): Iterable<[string, V]> {
  let indexLike = false;
  for (const name of entries.keys()) {
    if (isArrayIndexText(name)) {
      indexLike = true;
      break;
    }
  }
  // The usual query has no such name: insertion order as it is.
  if (!indexLike) return entries;
  const all = [...entries];
  const indices = all.filter(([name]) => isArrayIndexText(name)).sort(([a], [b]) => Number(a) - Number(b));
  return [...indices, ...all.filter(([name]) => !isArrayIndexText(name))];
}

/**
 * Parses a raw query string (without the `?`) into lower-cased names, or returns the single message upstream's
 * query parser fails with.
 */
export function parseQueryString(queryString: string, arrayLimit = 100): QueryParseResult {
  let nested: Map<string, MutableEntry>;
  try {
    nested = nestSpelledNames(collectSpelledNames(queryString, arrayLimit), arrayLimit);
  } catch (error) {
    if (error instanceof QueryStringError) return { ok: false, messages: [error.message] };
    throw error;
  }
  const merged = new Map<string, MutableEntry>();
  for (const [name, entry] of objectKeyOrder(nested)) {
    const lower = name.toLowerCase();
    // Assigning to a plain object's `__proto__` key does not create a property, so upstream loses it.
    if (lower === "__proto__") continue;
    const values = LOWER_CASED_VALUES.has(lower)
      ? entry.values.map((value) => (typeof value === "string" ? value.toLowerCase() : value))
      : entry.values;
    addValues(merged, lower, values, entry.repeated);
  }
  const ordered = objectKeyOrder(merged);
  return { ok: true, query: ordered === merged ? merged : new Map(ordered) };
}

/** Splits `req.originalUrl` into the path as sent and the raw query string (no `?`, no `#fragment`). */
export function splitRequestUrl(url: string): { path: string; queryString: string } {
  const hash = url.indexOf("#");
  const withoutHash = hash === -1 ? url : url.slice(0, hash);
  const question = withoutHash.indexOf("?");
  if (question === -1) return { path: withoutHash, queryString: "" };
  return { path: withoutHash.slice(0, question), queryString: withoutHash.slice(question + 1) };
}

/**
 * JSON text for API responses. Like the mirror node (json-bigint), int64 values are printed exactly as JSON
 * numbers: a `bigint` becomes its decimal digits, never a rounded double. Object keys keep insertion order,
 * which is how views fix the field order clients see; keys whose value is `undefined` are left out.
 *
 * This runs for every answer that is not cached, so it avoids per-object allocations (`Object.entries`), and
 * quotes keys and strings that need no escaping (ids, timestamps, hex, most names) itself: a call into
 * `JSON.stringify` per value cost more than the scan that shows it is not needed.
 */
export function toJson(value: unknown): string {
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "string":
      return quoteString(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "null";
    default:
      break;
  }
  if (value === null) return "null";
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    let out = `[${toJson(value[0])}`;
    for (let i = 1; i < value.length; i++) out += `,${toJson(value[i])}`;
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  // Own enumerable string keys in order, as `for…in` with an own-property check gives them (V8 keeps them cached).
  const keys = Object.keys(object);
  let out = "";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = object[key];
    if (v === undefined) continue;
    out += `${out.length === 0 ? "{" : ","}${quoteString(key)}:${toJson(v)}`;
  }
  return out.length === 0 ? "{}" : `${out}}`;
}

const LONG_STRING = 64;

/**
 * A string as `JSON.stringify` writes it: quotes alone when it has nothing to escape (control characters, `"`,
 * `\`, and surrogates, which JSON.stringify writes as escapes when they are unpaired).
 */
export function quoteString(text: string): string {
  // Past a few dozen characters (hex blobs, blooms) the native scan wins over this loop.
  if (text.length > LONG_STRING) return JSON.stringify(text);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * JSON text a view rendered already (a transaction object, rendered straight to text for speed): `toJson` writes
 * it as it is wherever it appears in a response object.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON text for API responses. Like the mirror node (json-bigint), int64 values are printed exactly as JSON
 * numbers: a `bigint` becomes its decimal digits, never a rounded double. Object keys keep insertion order,
 * which is how views fix the field order clients see; keys whose value is `undefined` are left out.
 *
 * This runs for every answer that is not cached, so it avoids per-object allocations (`Object.entries`) and
 * quotes object keys that need no escaping without `JSON.stringify`.
 */
export function toJson(value: unknown): string {
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "string":
      return JSON.stringify(value);
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
  let out = "{";
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const v = object[key];
    if (v === undefined) continue;
    out += `${out.length === 1 ? "" : ","}${quoteKey(key)}:${toJson(v)}`;
  }
  return `${out}}`;
}

/**
 * JSON text a view rendered already (a transaction object, rendered straight to text for speed): `toJson` writes
 * it as it is wherever it appears in a response object.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Plain field names (the views' own) need only quotes around them. */
const PLAIN_KEY = /^[A-Za-z0-9_.]*$/;

function quoteKey(key: string): string {
  return PLAIN_KEY.test(key) ? `"${key}"` : JSON.stringify(key);
}

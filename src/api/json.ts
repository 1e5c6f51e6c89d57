/**
 * JSON text for API responses. Like the mirror node (json-bigint), int64 values are printed exactly as JSON
 * numbers: a `bigint` becomes its decimal digits, never a rounded double. Object keys keep insertion order,
 * which is how views fix the field order clients see.
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
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  let out = "{";
  let first = true;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:${toJson(v)}`;
    first = false;
  }
  return `${out}}`;
}

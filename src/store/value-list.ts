/**
 * A list of values bound as ONE parameter: a JSON array read back by `json_each`. `column IN (…)` written with one
 * placeholder per value makes a new SQL text (and a new prepared statement) for every list length, and a client
 * asking lists of every length up to 100 would evict the hot statements from the statement cache; bound as one
 * JSON text, the list keeps one statement shape whatever its length. SQLite still seeks the index once per value
 * (`SEARCH … (column=?)` over a `LIST SUBQUERY`), as it does for a literal list.
 *
 * Values are integers (bigint or number: JSON integers, which SQLite reads as exact 64-bit integers), strings,
 * or bytes (hex strings turned back into blobs with `unhex`); a null in an IN list matches nothing, as in SQL.
 */

/** A value a list can carry. */
export type ListValue = bigint | number | string | Uint8Array | null;

/** Whether a list holds bytes (all its values are), which changes how SQLite reads the JSON back. */
function holdsBytes(values: readonly ListValue[]): boolean {
  return values.some((value) => value instanceof Uint8Array);
}

/** The subquery that yields a list's values from its JSON parameter, typed as the values are. */
export function listSelect(values: readonly ListValue[]): string {
  return holdsBytes(values) ? "SELECT unhex(value) FROM json_each(?)" : "SELECT value FROM json_each(?)";
}

/** The JSON array text a list is bound as: exact for int64 (no `number` on the way), bytes as hex. */
export function jsonList(values: readonly ListValue[]): string {
  const items = values.map((value) => {
    if (value === null) return "null";
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number") {
      if (!Number.isInteger(value)) throw new TypeError(`a list holds integers, not ${value}`);
      return String(value);
    }
    if (typeof value === "string") return JSON.stringify(value);
    if (value instanceof Uint8Array)
      return `"${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}"`;
    throw new TypeError(`a list cannot hold ${typeof value}`);
  });
  return `[${items.join(",")}]`;
}

/** `column IN (SELECT value FROM json_each(?))` with its one parameter. */
export function inList(column: string, values: readonly ListValue[]): [sql: string, param: string] {
  return [`${column} IN (${listSelect(values)})`, jsonList(values)];
}

/** `column NOT IN (SELECT value FROM json_each(?))` with its one parameter. */
export function notInList(column: string, values: readonly ListValue[]): [sql: string, param: string] {
  // A NULL in a NOT IN list makes the test NULL for every row: a caller's bug, never a request's meaning.
  if (values.includes(null)) throw new TypeError("a NOT IN list holds null");
  return [`${column} NOT IN (${listSelect(values)})`, jsonList(values)];
}

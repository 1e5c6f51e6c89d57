/**
 * The query string as upstream's Java service sees it: the servlet parameter map.
 *
 * Unlike the Node service, names are taken exactly as sent (case-sensitive: `Limit` is not `limit`), nothing
 * is lower-cased, brackets mean nothing, and unknown names are simply never read. Each `&`-separated part is
 * `name=value` (or a bare `name`, whose value is empty); names and values are percent-decoded with `+` as a
 * space. A part whose escapes do not decode is dropped, as Tomcat drops it. Values of one name keep request
 * order.
 */

/** Names (exact spelling) to their values in request order. */
export type JavaQuery = ReadonlyMap<string, readonly string[]>;

/** Most parts read from one query string; the rest are ignored (Tomcat's default `maxParameterCount`). */
const MAX_PARTS = 10_000;

function decode(text: string): string | null {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

/** Parses the query of a request URL (`/path?a=1&b=2`, or just `a=1&b=2` after a `?`). */
export function parseJavaQuery(url: string): JavaQuery {
  const at = url.indexOf("?");
  const query = new Map<string, string[]>();
  if (at === -1) return query;
  const hash = url.indexOf("#", at);
  const text = url.slice(at + 1, hash === -1 ? undefined : hash);
  let parts = 0;
  for (const part of text.split("&")) {
    if (part === "") continue;
    if (++parts > MAX_PARTS) break;
    const equals = part.indexOf("=");
    const name = decode(equals === -1 ? part : part.slice(0, equals));
    const value = decode(equals === -1 ? "" : part.slice(equals + 1));
    if (name === null || value === null || name === "") continue;
    const values = query.get(name);
    if (values === undefined) query.set(name, [value]);
    else values.push(value);
  }
  return query;
}

/**
 * The token given as the `token.id` query parameter on the short paths (`/api/v1/tokens/balances`,
 * `/api/v1/tokens/nfts`, `/api/v1/tokens/nfts/{serialNumber}[/transactions]`), which the public mirror node
 * does not have. A single plain (or `eq:`) `token.id` makes the request exactly the `{tokenId}` one: same
 * checks, same paging, `token.id` kept in the links. Without `token.id`, or with other `token.id` operators, a
 * list spans tokens: it is ordered by token and then by its own key (account or serial), and pages through
 * (token, key) pairs, the way the mirror node pages an account's NFTs by `token.id` and `serialnumber`:
 * a next link carries `token.id=lte:<last token>&serialnumber=lt:<last serial>` (desc; `gte`/`gt` asc), and a
 * range on the key must come with such a `token.id` bound on the same side.
 */
import { formatEntityId } from "../../ids.ts";
import type { PairBound, TokenScope } from "../../store/token-scope.ts";
import { HttpError } from "../http-errors.ts";
import {
  type Comparison,
  type Order,
  type ParamResult,
  type ParsedQuery,
  type RequestParts,
  readRequest,
  splitOperator,
} from "../params/index.ts";
import { valueText } from "../params/query.ts";

export const TOKEN_ID = "token.id";

/** The parsed request, or a 400 carrying every message the parameter grammar reported. */
export function orFail<T>(result: ParamResult<T>): T {
  if (!result.ok) throw new HttpError(400, [...result.messages]);
  return result.value;
}

/** How a short-path request names its token. */
export type TokenIdParam =
  | { readonly kind: "absent" }
  /** One plain or `eq:` value, as text (checked later with the `{tokenId}` rules). */
  | { readonly kind: "one"; readonly value: string }
  /** Several values or other operators: validated with the other filters, the list spans tokens. */
  | { readonly kind: "conditions" };

/** Reads the request and classifies its `token.id`. */
export function readShortPathRequest(url: string): { request: RequestParts; tokenId: TokenIdParam } {
  const request = orFail(readRequest(url));
  const entry = request.query.get(TOKEN_ID);
  if (entry === undefined) return { request, tokenId: { kind: "absent" } };
  const first = entry.values[0];
  if (!entry.repeated && entry.values.length === 1 && typeof first === "string") {
    const { op, value } = splitOperator(first);
    if (op === "eq" && value !== undefined) return { request, tokenId: { kind: "one", value } };
  }
  return { request, tokenId: { kind: "conditions" } };
}

/**
 * The URL with every `token.id` part removed from its query string, so the `{tokenId}` parsers see the rest
 * exactly as sent. Names are compared as the query parser reads them (decoded, lower-cased, brackets dropped).
 */
export function withoutTokenId(url: string): string {
  const question = url.indexOf("?");
  if (question === -1) return url;
  const kept = url
    .slice(question + 1)
    .split("&")
    .filter((part) => {
      const equals = part.indexOf("=");
      const rawName = equals === -1 ? part : part.slice(0, equals);
      return parameterName(rawName) !== TOKEN_ID;
    });
  return `${url.slice(0, question)}?${kept.join("&")}`;
}

function parameterName(raw: string): string {
  let name = raw.replace(/\+/g, " ").replace(/%5B/gi, "[");
  try {
    name = decodeURIComponent(name);
  } catch {
    // Kept as written, as the query parser does.
  }
  const bracket = name.indexOf("[");
  return (bracket === -1 ? name : name.slice(0, bracket)).toLowerCase();
}

/** A parsed request's paging, moved to the short path with `token.id` kept in the query. */
export function onShortPath<P extends { path: string; query: ParsedQuery }>(
  paging: P,
  request: RequestParts,
): P {
  return { ...paging, path: request.path, query: request.query };
}

/**
 * The scope of a cross-token list from its `token.id` conditions and the conditions on its own key
 * (`keyName`). Equalities and `ne` on the key apply to every token; a range on the key pairs with the `token.id`
 * bound on the same side (the last `gte` for `gt`/`gte`, the last `lte` for `lt`/`lte`), which is then no longer
 * a condition of its own. Null key values (EVM addresses naming no account) make the result empty.
 */
export function crossTokenScope<V extends bigint | null>(
  keyName: string,
  tokenConditions: readonly Comparison<bigint>[],
  keyConditions: readonly Comparison<V>[],
): ParamResult<{ scope: TokenScope; keyConditions: Comparison<V>[]; empty: boolean }> {
  const lowerKey = keyConditions.filter((c) => c.op === "gt" || c.op === "gte");
  const upperKey = keyConditions.filter((c) => c.op === "lt" || c.op === "lte");
  const messages: string[] = [];
  if (lowerKey.length > 1) messages.push(`${keyName} may have one gt/gte bound across tokens`);
  if (upperKey.length > 1) messages.push(`${keyName} may have one lt/lte bound across tokens`);
  const lowerToken = tokenConditions.findLast((c) => c.op === "gte");
  const upperToken = tokenConditions.findLast((c) => c.op === "lte");
  if (lowerKey.length > 0 && lowerToken === undefined) {
    messages.push(`${keyName} with gt/gte needs a token.id=gte: bound`);
  }
  if (upperKey.length > 0 && upperToken === undefined) {
    messages.push(`${keyName} with lt/lte needs a token.id=lte: bound`);
  }
  if (messages.length > 0) return { ok: false, messages };

  let empty = false;
  const pair = (token: Comparison<bigint> | undefined, key: Comparison<V> | undefined): PairBound | null => {
    if (token === undefined || key === undefined) return null;
    if (key.value === null) {
      empty = true;
      return null;
    }
    return { tokenId: token.value, op: key.op, value: key.value };
  };
  const lower = pair(lowerToken, lowerKey[0]);
  const upper = pair(upperToken, upperKey[0]);
  const consumed = new Set([
    lower === null ? undefined : lowerToken,
    upper === null ? undefined : upperToken,
  ]);
  const scope: TokenScope = {
    kind: "all",
    tokenIds: tokenConditions.filter((c) => c.op === "eq").map((c) => c.value),
    tokenConditions: tokenConditions.filter((c) => c.op !== "eq" && !consumed.has(c)),
    lower,
    upper,
  };
  const plainKey = keyConditions.filter((c) => c.op === "eq" || c.op === "ne");
  return { ok: true, value: { scope, keyConditions: plainKey, empty } };
}

/**
 * The next link of a cross-token page: the query as parsed, with the `token.id` and key values that bound the
 * paging direction replaced by the last row's pair. Null unless the page is full.
 */
export function crossTokenNextLink(args: {
  request: RequestParts;
  keyName: string;
  order: Order;
  limit: number;
  count: number;
  last: { tokenId: bigint; key: string } | undefined;
}): string | null {
  const { request, keyName, order, limit, count, last } = args;
  if (last === undefined || count === 0 || count !== limit) return null;
  const forward = order === "asc" ? ["gt", "gte"] : ["lt", "lte"];
  const query = new Map<string, string[]>();
  for (const [name, entry] of request.query) query.set(name, entry.values.map(valueText));
  const bounds: [string, string][] = [
    [TOKEN_ID, `${order === "asc" ? "gte" : "lte"}:${formatEntityId(last.tokenId)}`],
    [keyName, `${order === "asc" ? "gt" : "lt"}:${last.key}`],
  ];
  for (const [name, bound] of bounds) {
    const kept = (query.get(name) ?? []).filter((value) => !forward.includes(splitOperator(value).op ?? ""));
    query.delete(name);
    query.set(name, [...kept, bound]);
  }
  const pairs = [...query].flatMap(([name, values]) => values.map((value) => `${name}=${value}`));
  return `${request.path}?${pairs.join("&")}`;
}

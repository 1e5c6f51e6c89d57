/**
 * The filter pipeline of upstream's `buildAndValidateFilters` (`rest/utils.js`), driven by an endpoint spec.
 *
 * 1. Each value is split on `:`: the last piece is the value, the piece before it the operator (`eq` when
 *    there is none). So `gt:5` is (gt, 5), `lt:gt:5` is (gt, 5) and `a:b:c` is (b, c), an invalid operator.
 * 2. Messages are collected in upstream's order: names whose merged value list is longer than the repeat
 *    limit (`Parameter values count exceeds maximum number allowed: <name> count: <n> max: <m>`, their values
 *    skipped); then `Invalid parameter: <name>` once per bad value, in query order; then
 *    `Unknown query parameter: <name>` once per value of an unaccepted name, in query order.
 * 3. Only when nothing was reported are the values converted, in query order; the first conversion that fails
 *    is the only message (upstream throws from `formatComparator`, e.g. `Invalid entity ID "0.0.1234567890123"`).
 *
 * "Query order" is upstream's: names in first-appearance order, each name's values together.
 */
import { fail, invalidParameter, type ParamResult, succeed, unknownParameter } from "./errors.ts";
import type { ParsedQuery, QueryValue } from "./query.ts";

export type Operator = "eq" | "ne" | "lt" | "lte" | "gt" | "gte";

export type Order = "asc" | "desc";

/** One `op:value` condition with its converted value. */
export interface Comparison<V> {
  readonly op: Operator;
  readonly value: V;
}

/** A conversion either yields the typed value or the one message upstream throws. */
export type Conversion<V> =
  | { readonly ok: true; readonly value: V }
  | { readonly ok: false; readonly message: string };

/** How one query parameter is validated and converted on one endpoint. */
export interface ParamSpec<V> {
  /** Upstream's per-parameter validator case, given a known operator and the raw value. */
  isValid(op: Operator, value: string): boolean;
  /** Upstream's `formatComparator` case, run only after every value validated. */
  convert(value: string, op: Operator): Conversion<V>;
}

/** The accepted parameter names of an endpoint and their specs. */
export type EndpointSpec = Readonly<Record<string, ParamSpec<unknown>>>;

/** A converted filter; a union over the spec's names, so `filter.key === "limit"` narrows `filter.value`. */
export type FilterOf<S extends EndpointSpec> = {
  [K in keyof S & string]: {
    readonly key: K;
    readonly op: Operator;
    readonly value: S[K] extends ParamSpec<infer V> ? V : never;
  };
}[keyof S & string];

const OPERATORS: ReadonlySet<string> = new Set(["eq", "ne", "lt", "lte", "gt", "gte"]);

export function isOperator(text: string | undefined): text is Operator {
  return text !== undefined && OPERATORS.has(text);
}

/** Upstream `buildComparatorFilter`: an object value has no operator and no string value. */
export function splitOperator(raw: QueryValue): { op: string | undefined; value: string | undefined } {
  if (typeof raw !== "string") return { op: undefined, value: undefined };
  const pieces = raw.split(":");
  const value = pieces.pop();
  return { op: pieces.pop() ?? "eq", value };
}

/** Helper for specs whose conversion cannot fail. */
export function always<V>(value: V): Conversion<V> {
  return { ok: true, value };
}

/**
 * Validates and converts a parsed query against an endpoint spec, with upstream's message order.
 * `maxRepeated` is `maxRepeatedQueryParameters`.
 */
export function validateFilters<S extends EndpointSpec>(
  query: ParsedQuery,
  spec: S,
  maxRepeated: number,
): ParamResult<FilterOf<S>[]> {
  const countErrors: string[] = [];
  const invalid: string[] = [];
  const unknown: string[] = [];
  const accepted: { key: string; op: Operator; value: string }[] = [];
  for (const [key, entry] of query) {
    if (entry.repeated && entry.values.length > maxRepeated) {
      countErrors.push(
        `Parameter values count exceeds maximum number allowed: ${key} count: ${entry.values.length} max: ${maxRepeated}`,
      );
      continue;
    }
    for (const raw of entry.values) {
      const paramSpec = Object.hasOwn(spec, key) ? spec[key] : undefined;
      if (paramSpec === undefined) {
        unknown.push(unknownParameter(key));
        continue;
      }
      const { op, value } = splitOperator(raw);
      if (!isOperator(op) || value === undefined || !paramSpec.isValid(op, value)) {
        invalid.push(invalidParameter(key));
        continue;
      }
      accepted.push({ key, op, value });
    }
  }
  const messages = [...countErrors, ...invalid, ...unknown];
  if (messages.length > 0) return fail(messages);

  const filters: FilterOf<S>[] = [];
  for (const { key, op, value } of accepted) {
    const result = (spec[key] as ParamSpec<unknown>).convert(value, op);
    if (!result.ok) return fail([result.message]);
    filters.push({ key, op, value: result.value } as FilterOf<S>);
  }
  return succeed(filters);
}

/**
 * Upstream `validateReq` with no accepted names, used by the single-item routes: one
 * `Unknown query parameter: <name>` per name (not per value), in query order.
 */
export function rejectAllParameters(query: ParsedQuery): readonly string[] {
  return [...query.keys()].map(unknownParameter);
}

/**
 * `limit` and `order` are settings, not conditions: the last value of each wins, whatever its operator.
 * Specs guarantee `limit` converts to a number and `order` to an `Order`.
 */
export function limitAndOrder(
  filters: readonly { readonly key: string; readonly value: unknown }[],
  defaultLimit: number,
  defaultOrder: Order,
): { limit: number; order: Order } {
  let limit = defaultLimit;
  let order = defaultOrder;
  for (const filter of filters) {
    if (filter.key === "limit") limit = filter.value as number;
    else if (filter.key === "order") order = filter.value as Order;
  }
  return { limit, order };
}

/**
 * Upstream's `utils.validateReq` (`rest/utils.js`), the check `/api/v1/accounts` and `/api/v1/balances` run,
 * which differs from `buildAndValidateFilters` (filters.ts) in ways a client can see:
 *
 * - one pass over the names in query order, each problem reported where it stands: an unaccepted name gives
 *   one `Unknown query parameter: <name>` (not one per value), too many values one count message, and each bad
 *   value one `Invalid parameter: <name>`;
 * - a value splits on `:` into exactly one or two pieces: `op:value`, or `value` meaning `eq`; three or more
 *   pieces are invalid (`buildAndValidateFilters` takes the last two instead);
 * - an object value (from `name[key]=v`) is invalid.
 */
import { fail, invalidParameter, type ParamResult, succeed, unknownParameter } from "./errors.ts";
import type { ParsedQuery, QueryValue } from "./query.ts";

/** Upstream's `isValidOperatorQuery`. */
const OPERATOR = /^(gte?|lte?|eq|ne)$/;

/** A value check given the operator as written (`eq` when absent) and the value. */
export type ValueCheck = (op: string, value: string) => boolean;

/** `validateOpAndValue`: a known operator; any value, even an empty one. */
export const anyValue: ValueCheck = (op) => OPERATOR.test(op);

/** A check that first requires a known operator, as `filterValidityChecks` does for every parameter. */
export function withOperator(check: ValueCheck): ValueCheck {
  return (op, value) => OPERATOR.test(op) && check(op, value);
}

/** Splits a raw value as `paramValidityChecks` does; null for an object or three or more pieces. */
export function splitOpAndValue(raw: QueryValue): { op: string; value: string } | null {
  if (typeof raw !== "string") return null;
  const pieces = raw.split(":");
  if (pieces.length === 1) return { op: "eq", value: pieces[0] ?? "" };
  if (pieces.length === 2) return { op: pieces[0] ?? "", value: pieces[1] ?? "" };
  return null;
}

/** Validates a parsed query against the accepted names, with upstream's messages in upstream's order. */
export function validateReq(
  query: ParsedQuery,
  accepted: Readonly<Record<string, ValueCheck>>,
  maxRepeated: number,
): ParamResult<void> {
  const messages: string[] = [];
  for (const [name, entry] of query) {
    const check = Object.hasOwn(accepted, name) ? accepted[name] : undefined;
    if (check === undefined) {
      messages.push(unknownParameter(name));
      continue;
    }
    if (entry.repeated && entry.values.length > maxRepeated) {
      messages.push(
        `Parameter values count exceeds maximum number allowed: ${name} count: ${entry.values.length} max: ${maxRepeated}`,
      );
      continue;
    }
    for (const raw of entry.values) {
      const split = splitOpAndValue(raw);
      if (split === null || !check(split.op, split.value)) messages.push(invalidParameter(name));
    }
  }
  return messages.length > 0 ? fail(messages) : succeed(undefined);
}

/**
 * The values of a parameter as upstream's `parseParams` walks them: duplicates (as written) once, each split
 * into a known operator and its value (`parseOperatorAndValueFromQueryParam`; values it cannot split are
 * skipped). Only call after `validateReq` accepted the query.
 */
export function distinctOpValues(query: ParsedQuery, name: string): Array<{ op: Operator; value: string }> {
  const entry = query.get(name);
  if (entry === undefined) return [];
  const out: Array<{ op: Operator; value: string }> = [];
  const seen = new Set<string>();
  for (const raw of entry.values) {
    if (typeof raw !== "string" || seen.has(raw)) continue;
    seen.add(raw);
    const split = splitOpAndValue(raw);
    if (split === null || !isOperator(split.op)) continue;
    out.push({ op: split.op, value: split.value });
  }
  return out;
}

type Operator = "eq" | "ne" | "lt" | "lte" | "gt" | "gte";

function isOperator(op: string): op is Operator {
  return op === "eq" || op === "ne" || op === "lt" || op === "lte" || op === "gt" || op === "gte";
}

/** The raw value of a parameter as Express hands it over: the last one when repeated, or undefined. */
export function lastRawValue(query: ParsedQuery, name: string): QueryValue | undefined {
  return query.get(name)?.values.at(-1);
}

/** `req.query[name]` compared as a single string: undefined when repeated (upstream then sees an array). */
export function singleRawValue(query: ParsedQuery, name: string): QueryValue | undefined {
  const entry = query.get(name);
  if (entry === undefined || entry.repeated) return undefined;
  return entry.values[0];
}

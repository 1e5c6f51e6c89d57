/**
 * Lists paged on two keys, a primary and a secondary (an account's NFTs by `token.id` then `serialnumber`, its
 * token allowances by `spender.id` then `token.id`), as upstream's `Bound` and `BaseController` read them
 * (`rest/controllers/bound.js`, `baseController.js`):
 *
 * - each key takes at most one `eq`, one `gt`/`gte` and one `lt`/`lte`, and no `ne` (the first offending filter,
 *   in query order, is the one 400 message);
 * - then: no key with both a range and `eq`; no secondary without a primary; a secondary lower bound needs the
 *   primary's `eq` or `gte` (not `gt`), an upper bound its `eq` or `lte`;
 * - the query is the union of up to three parts (`PairedParts`): the primary's first value with the secondary's
 *   bound, the primary values strictly between, and its last value with the secondary's other bound;
 * - the next link (`pairedNextKeys`) carries both keys: the primary inclusive, the secondary exclusive.
 */

import type { Comparison, Operator } from "./filters.ts";
import type { AnchorKey, NextLinkKey } from "./links.ts";

/** The filters of one key (`eq`, lower, upper), each kept at most once. */
export type KeyBound<V> = {
  readonly name: AnchorKey;
  equal: Comparison<V> | null;
  lower: Comparison<V> | null;
  upper: Comparison<V> | null;
};

export function emptyBound<V>(name: AnchorKey): KeyBound<V> {
  return { name, equal: null, lower: null, upper: null };
}

const isLower = (op: Operator) => op === "gt" || op === "gte";
const isUpper = (op: Operator) => op === "lt" || op === "lte";

const hasBound = (b: KeyBound<unknown>) => b.lower !== null || b.upper !== null;
const isEmpty = (b: KeyBound<unknown>) => b.equal === null && !hasBound(b);

/** Adds a filter to its key's bound; the message upstream throws when the key already has one of its kind. */
export function addToBound<V>(bound: KeyBound<V>, filter: Comparison<V>): string | null {
  if (filter.op === "eq") {
    if (bound.equal !== null) return `Only one equal (eq) operator is allowed for ${bound.name}`;
    bound.equal = filter;
  } else if (isLower(filter.op)) {
    if (bound.lower !== null) return `Only one gt/gte operator is allowed for ${bound.name}`;
    bound.lower = filter;
  } else if (isUpper(filter.op)) {
    if (bound.upper !== null) return `Only one lt/lte operator is allowed for ${bound.name}`;
    bound.upper = filter;
  } else {
    return `Not equal (ne) operator is not supported for ${bound.name}`;
  }
  return null;
}

/** Upstream `validateBounds`: the first rule the two bounds break, or null. */
export function validatePair(primary: KeyBound<unknown>, secondary: KeyBound<unknown>): string | null {
  for (const bound of [primary, secondary]) {
    if (hasBound(bound) && bound.equal !== null)
      return `Can't support both range and equal for ${bound.name}`;
  }
  if (isEmpty(primary) && !isEmpty(secondary)) {
    return `${secondary.name} without a ${primary.name} parameter filter`;
  }
  if (
    primary.equal === null &&
    secondary.lower !== null &&
    (primary.lower === null || primary.lower.op === "gt")
  ) {
    return `${primary.name} must have gte or eq operator`;
  }
  if (
    primary.equal === null &&
    secondary.upper !== null &&
    (primary.upper === null || primary.upper.op === "lt")
  ) {
    return `${primary.name} must have lte or eq operator`;
  }
  return null;
}

/** A condition on the primary (`key: 0`) or the secondary (`key: 1`) key. */
export type PairCondition<V> = { readonly key: 0 | 1; readonly op: Operator; readonly value: V };

/** The parts whose union is the list; an empty part is left out (all empty: no condition at all). */
export type PairedParts<V> = {
  readonly lower: PairCondition<V>[];
  readonly inner: PairCondition<V>[];
  readonly upper: PairCondition<V>[];
};

const on = <V>(key: 0 | 1, c: Comparison<V> | null, op?: Operator): PairCondition<V>[] =>
  c === null ? [] : [{ key, op: op ?? c.op, value: c.value }];

/** Upstream `getLowerFilters` / `getInnerFilters` / `getUpperFilters`. */
export function pairedParts<V>(primary: KeyBound<V>, secondary: KeyBound<V>): PairedParts<V> {
  let lower: PairCondition<V>[] = [];
  if (!hasBound(secondary)) {
    lower = [
      ...on(0, primary.equal),
      ...on(0, primary.lower),
      ...on(0, primary.upper),
      ...on(1, secondary.equal),
    ];
  } else if (primary.lower !== null && secondary.lower !== null) {
    lower = [...on(0, primary.lower, "eq"), ...on(1, secondary.lower)];
  } else if (primary.equal !== null) {
    lower = [
      ...on(0, primary.equal),
      ...on(0, primary.lower),
      ...on(0, primary.upper),
      ...on(1, secondary.lower),
      ...on(1, secondary.equal),
      ...on(1, secondary.upper),
    ];
  }
  let inner: PairCondition<V>[] = [];
  if (hasBound(primary) && hasBound(secondary)) {
    inner = [
      ...on(0, primary.lower, secondary.lower !== null ? "gt" : undefined),
      ...on(0, primary.upper, secondary.upper !== null ? "lt" : undefined),
    ];
  }
  const upper =
    primary.upper !== null && secondary.upper !== null
      ? [...on(0, primary.upper, "eq"), ...on(1, secondary.upper)]
      : [];
  return { lower, inner, upper };
}

/**
 * The keys of the next link after a full page whose last item has these values (upstream
 * `BaseController.getPaginationLink`): none when both keys are equalities; the primary (inclusive unless the
 * secondary is an equality) when it has a range or no filter; the secondary when it has a range or no filter.
 */
export function pairedNextKeys(
  primary: KeyBound<unknown>,
  secondary: KeyBound<unknown>,
  last: { primary: string; secondary: string },
): NextLinkKey[] | null {
  if (primary.equal !== null && secondary.equal !== null) return null;
  const keys: NextLinkKey[] = [];
  if (hasBound(primary) || isEmpty(primary)) {
    keys.push({ anchor: primary.name, lastValue: last.primary, inclusive: secondary.equal === null });
  }
  if (hasBound(secondary) || isEmpty(secondary))
    keys.push({ anchor: secondary.name, lastValue: last.secondary });
  return keys;
}

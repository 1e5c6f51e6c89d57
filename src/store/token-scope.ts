import type { Condition, Op } from "./conditions.ts";
import { WhereBuilder } from "./conditions.ts";

/**
 * A bound on the (token, secondary key) pair of a list that spans tokens, ordered by token then by the
 * secondary key (an account for balances, a serial for NFTs). `lower` means "after (tokenId, value)" in
 * ascending order: rows of later tokens, or rows of `tokenId` whose secondary key satisfies `op value`.
 */
export type PairBound = { readonly tokenId: bigint; readonly op: Op; readonly value: bigint };

/**
 * Which tokens a list covers: one token (the `{tokenId}` path or a single `token.id`), or every token that the
 * `token.id` conditions admit, with optional pair bounds for paging through several tokens.
 */
export type TokenScope =
  | { readonly kind: "one"; readonly tokenId: bigint }
  | {
      readonly kind: "all";
      /** `token.id` equalities, one IN list (empty: no such condition). */
      readonly tokenIds: readonly bigint[];
      /** Other `token.id` conditions, each ANDed. */
      readonly tokenConditions: readonly Condition<bigint>[];
      readonly lower: PairBound | null;
      readonly upper: PairBound | null;
    };

/** Adds the scope's conditions on `tokenColumn` (and the pair bounds with `secondaryColumn`) to a WHERE. */
export function applyTokenScope(
  where: WhereBuilder,
  scope: TokenScope,
  tokenColumn: string,
  secondaryColumn: string,
): void {
  if (scope.kind === "one") {
    where.add(`${tokenColumn} = ?`, scope.tokenId);
    return;
  }
  where.in(tokenColumn, scope.tokenIds);
  where.compare(tokenColumn, scope.tokenConditions);
  for (const [bound, beyond] of [
    [scope.lower, ">"],
    [scope.upper, "<"],
  ] as const) {
    if (bound === null) continue;
    const inner = new WhereBuilder().compare(secondaryColumn, [{ op: bound.op, value: bound.value }]);
    // The implied bound on the token alone comes first: an OR is no index range, this is.
    where.add(`${tokenColumn} ${beyond}= ?`, bound.tokenId);
    where.add(
      `(${tokenColumn} ${beyond} ? OR (${tokenColumn} = ? AND ${inner.clauses[0]}))`,
      bound.tokenId,
      bound.tokenId,
      ...inner.params,
    );
  }
}

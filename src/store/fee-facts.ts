import type { Db } from "./db.ts";

/** What STATE-mode fee estimation reads about a token: its kind and whether its fee schedule charges anything. */
export type TokenFeeFactsRow = { nonFungible: boolean; hasCustomFees: boolean };

export type FeeFactQueries = {
  /** The current token with id `num` (0.0.num, as the mirror node looks tokens up by number only). */
  token(num: bigint): TokenFeeFactsRow | undefined;
  /** Whether topic 0.0.num currently has at least one fixed custom fee. */
  topicHasFixedFees(num: bigint): boolean;
};

/** Current-state lookups for fee estimation: one index seek each, prepared once on the read connection. */
export function createFeeFactQueries(db: Db): FeeFactQueries {
  const tokenFacts = db.prepare(
    `SELECT t.type, f.fees FROM token t
     LEFT JOIN custom_fee f ON f.token_id = t.id AND f.valid_to IS NULL
     WHERE t.id = ? AND t.valid_to IS NULL`,
  );
  const topicFees = db.prepare("SELECT custom_fees FROM topic WHERE id = ? AND valid_to IS NULL").pluck();
  return {
    token(num) {
      const row = tokenFacts.get(num) as { type: string; fees: string | null } | undefined;
      if (row === undefined) return undefined;
      return { nonFungible: row.type === "NON_FUNGIBLE_UNIQUE", hasCustomFees: hasFees(row.fees) };
    },
    topicHasFixedFees(num) {
      // A topic's custom fees are fixed fees only (the handler stores no other kind).
      return hasFees(topicFees.get(num) as string | undefined);
    },
  };
}

/**
 * Whether a stored fee list (custom_fee encoding, a JSON array) holds at least one fee. Every stored fee is a
 * fixed, fractional or royalty fee, so a non-empty array is enough; this runs on every STATE estimate.
 */
function hasFees(json: string | null | undefined): boolean {
  return json != null && json !== "[]";
}

import { decodeCustomFees } from "./custom-fees.ts";
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
  const tokenType = db.prepare("SELECT type FROM token WHERE id = ? AND valid_to IS NULL").pluck();
  const tokenFees = db.prepare("SELECT fees FROM custom_fee WHERE token_id = ? AND valid_to IS NULL").pluck();
  const topicFees = db.prepare("SELECT custom_fees FROM topic WHERE id = ? AND valid_to IS NULL").pluck();
  return {
    token(num) {
      const type = tokenType.get(num) as string | undefined;
      if (type === undefined) return undefined;
      const fees = tokenFees.get(num) as string | undefined;
      return {
        nonFungible: type === "NON_FUNGIBLE_UNIQUE",
        hasCustomFees: fees !== undefined && decodeCustomFees(fees).length > 0,
      };
    },
    topicHasFixedFees(num) {
      const fees = topicFees.get(num) as string | undefined;
      return fees !== undefined && decodeCustomFees(fees).some((fee) => fee.kind === "fixed");
    },
  };
}

import { type CustomFeeValue, decodeCustomFees } from "./custom-fees.ts";
import type { Db } from "./db.ts";
import { type AsOf, upperBoundNs, versionAt } from "./history.ts";
import type { CustomFeeRow, EntityRow, TokenRow } from "./rows.ts";

/** A token as `GET /api/v1/tokens/{id}` shows it: each part in the version valid at the instant asked. */
export type TokenInfo = {
  token: TokenRow;
  entity: EntityRow;
  customFees: { createdNs: bigint; fees: CustomFeeValue[] };
  totalSupply: bigint;
};

export type TokenQueries = {
  /**
   * The token as of an instant. The token, entity and fee-schedule versions are chosen independently (the
   * mirror node does the same); undefined when any of them has no version by then.
   */
  getTokenInfo(tokenId: bigint, asOf: AsOf): TokenInfo | undefined;
};

export function createTokenQueries(db: Db): TokenQueries {
  const tokenAt = versionAt<TokenRow>(db, "token", ["id"]);
  const entityAt = versionAt<EntityRow>(db, "entity", ["id"]);
  const feesAt = versionAt<CustomFeeRow>(db, "custom_fee", ["token_id"]);
  const supplyAt = db.prepare(
    "SELECT total_supply FROM token_supply WHERE token_id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1",
  );
  supplyAt.pluck();

  return {
    getTokenInfo(tokenId, asOf) {
      const token = tokenAt([tokenId], asOf);
      if (token === undefined) return undefined;
      const entity = entityAt([tokenId], asOf);
      const fees = feesAt([tokenId], asOf);
      if (entity === undefined || fees === undefined) return undefined;
      const totalSupply =
        (supplyAt.get(tokenId, upperBoundNs(asOf)) as bigint | undefined) ?? token.initial_supply;
      return {
        token,
        entity,
        customFees: { createdNs: fees.valid_from, fees: decodeCustomFees(fees.fees) },
        totalSupply,
      };
    },
  };
}

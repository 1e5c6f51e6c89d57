import { type CustomFeeValue, decodeCustomFees } from "./custom-fees.ts";
import type { Db } from "./db.ts";
import { type AsOf, upperBoundNs } from "./history.ts";
import type { EntityRow, TokenRow } from "./rows.ts";

/** The token entity's fields that token info shows. */
export type TokenEntityFields = Pick<
  EntityRow,
  | "valid_from"
  | "created_ns"
  | "deleted"
  | "memo"
  | "key"
  | "auto_renew_account_id"
  | "auto_renew_period"
  | "expiration_ns"
>;

/** A token as `GET /api/v1/tokens/{id}` shows it: each part in the version valid at the instant asked. */
export type TokenInfo = {
  token: TokenRow;
  entity: TokenEntityFields;
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

type TokenInfoRow = TokenRow & {
  e_valid_from: bigint;
  e_created_ns: bigint | null;
  e_deleted: bigint | null;
  e_memo: string;
  e_key: Buffer | null;
  e_auto_renew_account_id: bigint | null;
  e_auto_renew_period: bigint | null;
  e_expiration_ns: bigint | null;
  f_valid_from: bigint;
  f_fees: string;
  supply: bigint | null;
};

/**
 * Token info is the hottest lookup that the response cache cannot answer (a new instant, a new token), so its
 * four "version as of T" seeks (token, entity, fee schedule, supply; each one seek on its (key, valid_from)
 * primary key) run as one statement, and only the entity columns the answer shows are read.
 */
const TOKEN_INFO_SQL = `
  SELECT t.*,
    e.valid_from AS e_valid_from, e.created_ns AS e_created_ns, e.deleted AS e_deleted, e.memo AS e_memo,
    e.key AS e_key, e.auto_renew_account_id AS e_auto_renew_account_id,
    e.auto_renew_period AS e_auto_renew_period, e.expiration_ns AS e_expiration_ns,
    f.valid_from AS f_valid_from, f.fees AS f_fees,
    (SELECT s.total_supply FROM token_supply s WHERE s.token_id = @id AND s.valid_from <= @at
      ORDER BY s.valid_from DESC LIMIT 1) AS supply
  FROM (SELECT * FROM token WHERE id = @id AND valid_from <= @at ORDER BY valid_from DESC LIMIT 1) t
  JOIN (SELECT * FROM entity WHERE id = @id AND valid_from <= @at ORDER BY valid_from DESC LIMIT 1) e
  JOIN (SELECT valid_from, fees FROM custom_fee WHERE token_id = @id AND valid_from <= @at
    ORDER BY valid_from DESC LIMIT 1) f`;

export function createTokenQueries(db: Db): TokenQueries {
  const tokenInfoAt = db.prepare(TOKEN_INFO_SQL);

  return {
    getTokenInfo(tokenId, asOf) {
      const row = tokenInfoAt.get({ id: tokenId, at: upperBoundNs(asOf) }) as TokenInfoRow | undefined;
      if (row === undefined) return undefined;
      return {
        // The row carries the entity and fee columns too, under prefixed names the view never reads.
        token: row,
        entity: {
          valid_from: row.e_valid_from,
          created_ns: row.e_created_ns,
          deleted: row.e_deleted,
          memo: row.e_memo,
          key: row.e_key,
          auto_renew_account_id: row.e_auto_renew_account_id,
          auto_renew_period: row.e_auto_renew_period,
          expiration_ns: row.e_expiration_ns,
        },
        customFees: { createdNs: row.f_valid_from, fees: decodeCustomFees(row.f_fees) },
        totalSupply: row.supply ?? row.initial_supply,
      };
    },
  };
}

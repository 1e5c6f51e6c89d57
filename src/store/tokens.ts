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

/** A row of TOKEN_INFO_SQL, read as an array: a lookup builds no object of 33 named columns. */
type TokenInfoDbRow = [
  ...token: [
    id: bigint,
    validFrom: bigint,
    validTo: bigint | null,
    createdNs: bigint,
    name: string,
    symbol: string,
    decimals: bigint,
    initialSupply: bigint,
    maxSupply: bigint,
    supplyType: string,
    type: string,
    treasuryId: bigint,
    freezeDefault: bigint,
    freezeKey: Buffer | null,
    kycKey: Buffer | null,
    wipeKey: Buffer | null,
    supplyKey: Buffer | null,
    feeScheduleKey: Buffer | null,
    pauseKey: Buffer | null,
    metadataKey: Buffer | null,
    metadata: Buffer | null,
    pauseStatus: string,
  ],
  ...entity: [
    validFrom: bigint,
    createdNs: bigint | null,
    deleted: bigint | null,
    memo: string,
    key: Buffer | null,
    autoRenewAccountId: bigint | null,
    autoRenewPeriod: bigint | null,
    expirationNs: bigint | null,
  ],
  ...fees: [validFrom: bigint, fees: string, supply: bigint | null],
];

/**
 * Token info is the hottest lookup that the response cache cannot answer (a new instant, a new token), so its
 * four "version as of T" lookups (token, entity, fee schedule, supply) run as one statement, and only the entity
 * columns the answer shows are read. Each version is found by a `max(valid_from)` seek on its (key,
 * valid_from) primary key and read with one more seek: subqueries in FROM (`ORDER BY valid_from DESC LIMIT 1`)
 * were materialised into temporary tables, which cost more than the seeks themselves.
 */
const TOKEN_INFO_SQL = `
  SELECT t.id, t.valid_from, t.valid_to, t.created_ns, t.name, t.symbol, t.decimals, t.initial_supply,
    t.max_supply, t.supply_type, t.type, t.treasury_id, t.freeze_default, t.freeze_key, t.kyc_key, t.wipe_key,
    t.supply_key, t.fee_schedule_key, t.pause_key, t.metadata_key, t.metadata, t.pause_status,
    e.valid_from, e.created_ns, e.deleted, e.memo, e.key, e.auto_renew_account_id, e.auto_renew_period,
    e.expiration_ns,
    f.valid_from, f.fees,
    (SELECT s.total_supply FROM token_supply s WHERE s.token_id = @id AND s.valid_from <= @at
      ORDER BY s.valid_from DESC LIMIT 1)
  FROM token t, entity e, custom_fee f
  WHERE t.id = @id AND t.valid_from = (SELECT max(valid_from) FROM token WHERE id = @id AND valid_from <= @at)
    AND e.id = @id AND e.valid_from = (SELECT max(valid_from) FROM entity WHERE id = @id AND valid_from <= @at)
    AND f.token_id = @id
    AND f.valid_from = (SELECT max(valid_from) FROM custom_fee WHERE token_id = @id AND valid_from <= @at)`;

export function createTokenQueries(db: Db): TokenQueries {
  const tokenInfoAt = db.prepare(TOKEN_INFO_SQL).raw(true);

  return {
    getTokenInfo(tokenId, asOf) {
      const row = tokenInfoAt.get({ id: tokenId, at: upperBoundNs(asOf) }) as TokenInfoDbRow | undefined;
      if (row === undefined) return undefined;
      const token: TokenRow = {
        id: row[0],
        valid_from: row[1],
        valid_to: row[2],
        created_ns: row[3],
        name: row[4],
        symbol: row[5],
        decimals: row[6],
        initial_supply: row[7],
        max_supply: row[8],
        supply_type: row[9],
        type: row[10],
        treasury_id: row[11],
        freeze_default: row[12],
        freeze_key: row[13],
        kyc_key: row[14],
        wipe_key: row[15],
        supply_key: row[16],
        fee_schedule_key: row[17],
        pause_key: row[18],
        metadata_key: row[19],
        metadata: row[20],
        pause_status: row[21],
      };
      return {
        token,
        entity: {
          valid_from: row[22],
          created_ns: row[23],
          deleted: row[24],
          memo: row[25],
          key: row[26],
          auto_renew_account_id: row[27],
          auto_renew_period: row[28],
          expiration_ns: row[29],
        },
        customFees: { createdNs: row[30], fees: decodeCustomFees(row[31]) },
        totalSupply: row[32] ?? token.initial_supply,
      };
    },
  };
}

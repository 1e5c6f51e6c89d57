import { type CustomFeeValue, decodeCustomFees } from "./custom-fees.ts";
import type { Db } from "./db.ts";

/** A token as one version held it, with the fields the token service's read functions show. */
export type EvmTokenRow = {
  name: string;
  symbol: string;
  decimals: bigint;
  /** `FUNGIBLE_COMMON` or `NON_FUNGIBLE_UNIQUE`. */
  type: string;
  treasuryId: bigint;
  freezeDefault: boolean;
  hasKycKey: boolean;
  /** The token's own keys (protobuf `Key` bytes), by the token service's key type: 2 KYC, 4 freeze, 8 wipe, 16
   * supply, 32 fee schedule, 64 pause. The admin key (1) is the entity's (`EvmTokenEntityRow.adminKey`). */
  keys: ReadonlyMap<number, Uint8Array>;
};

/** An account's relationship with a token at one instant (absent when not associated then). */
export type EvmTokenRelationRow = { freezeStatus: string; kycStatus: string };

/** One NFT at one instant. */
export type EvmNftRow = {
  /** The owner; null or 0 means the treasury (as the consensus node stores a treasury-held NFT). */
  accountId: bigint | null;
  /** The account approved for this serial, if any. */
  spender: bigint | null;
  metadata: Uint8Array | null;
};

/** A token entity's admin key and expiry fields at one instant. */
export type EvmTokenEntityRow = {
  adminKey: Uint8Array | null;
  /** The expiry the entity states, else its creation plus its auto-renew period (as upstream's effective expiry). */
  expirationNs: bigint | null;
  autoRenewAccountId: bigint | null;
  autoRenewPeriod: bigint | null;
};

/**
 * The token reads of the token service and the token facades, each at an explicit instant and each one seek on a
 * table's primary key (`(id, valid_from)`-shaped): the newest version at or before the instant, dropped when it
 * had ended by then.
 */
export type EvmTokenQueries = {
  tokenAt(tokenId: bigint, atNs: bigint): EvmTokenRow | undefined;
  totalSupplyAt(tokenId: bigint, atNs: bigint): bigint;
  /** The balance history of the relationship; 0 when never held. */
  balanceAt(tokenId: bigint, accountId: bigint, atNs: bigint): bigint;
  relationAt(tokenId: bigint, accountId: bigint, atNs: bigint): EvmTokenRelationRow | undefined;
  nftAt(tokenId: bigint, serial: bigint, atNs: bigint): EvmNftRow | undefined;
  /** What is left of a fungible allowance (0 when none). */
  tokenAllowanceAt(owner: bigint, spender: bigint, tokenId: bigint, atNs: bigint): bigint;
  approvedForAllAt(owner: bigint, spender: bigint, tokenId: bigint, atNs: bigint): boolean;
  tokenEntityAt(tokenId: bigint, atNs: bigint): EvmTokenEntityRow | undefined;
  /** The token's fee schedule in force at the instant (empty when none). */
  customFeesAt(tokenId: bigint, atNs: bigint): CustomFeeValue[];
};

type Versioned = { valid_to: bigint | null };
const live = <T extends Versioned>(row: T | undefined, atNs: bigint): T | undefined =>
  row === undefined || (row.valid_to !== null && row.valid_to <= atNs) ? undefined : row;

function keysByType(entries: Array<[number, Uint8Array | null]>): Map<number, Uint8Array> {
  const keys = new Map<number, Uint8Array>();
  for (const [type, key] of entries) if (key !== null && key.length > 0) keys.set(type, key);
  return keys;
}

export function createEvmTokenQueries(db: Db): EvmTokenQueries {
  const token = db.prepare<
    [bigint, bigint],
    Versioned & {
      name: string;
      symbol: string;
      decimals: bigint;
      type: string;
      treasury_id: bigint;
      freeze_default: bigint;
      kyc_key: Uint8Array | null;
      freeze_key: Uint8Array | null;
      wipe_key: Uint8Array | null;
      supply_key: Uint8Array | null;
      fee_schedule_key: Uint8Array | null;
      pause_key: Uint8Array | null;
    }
  >(
    `SELECT valid_to, name, symbol, decimals, type, treasury_id, freeze_default,
       kyc_key, freeze_key, wipe_key, supply_key, fee_schedule_key, pause_key FROM token
     WHERE id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const supply = db
    .prepare<[bigint, bigint], bigint>(
      `SELECT total_supply FROM token_supply WHERE token_id = ? AND valid_from <= ?
       ORDER BY valid_from DESC LIMIT 1`,
    )
    .pluck();
  const balance = db
    .prepare<[bigint, bigint, bigint], bigint>(
      `SELECT balance FROM token_balance WHERE token_id = ? AND account_id = ? AND valid_from <= ?
       ORDER BY valid_from DESC LIMIT 1`,
    )
    .pluck();
  const relation = db.prepare<
    [bigint, bigint, bigint],
    Versioned & { associated: bigint; freeze_status: string; kyc_status: string }
  >(
    `SELECT valid_to, associated, freeze_status, kyc_status FROM token_account
     WHERE token_id = ? AND account_id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const nft = db.prepare<
    [bigint, bigint, bigint],
    Versioned & {
      deleted: bigint;
      account_id: bigint | null;
      spender: bigint | null;
      metadata: Uint8Array | null;
    }
  >(
    `SELECT valid_to, deleted, account_id, spender, metadata FROM nft
     WHERE token_id = ? AND serial = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const tokenAllowance = db.prepare<[bigint, bigint, bigint, bigint], Versioned & { amount: bigint }>(
    `SELECT valid_to, amount FROM token_allowance
     WHERE owner = ? AND spender = ? AND token_id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const nftAllowance = db.prepare<[bigint, bigint, bigint, bigint], Versioned & { approved_for_all: bigint }>(
    `SELECT valid_to, approved_for_all FROM nft_allowance
     WHERE owner = ? AND spender = ? AND token_id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const expiry = db.prepare<
    [bigint, bigint],
    Versioned & {
      key: Uint8Array | null;
      expiration_ns: bigint | null;
      created_ns: bigint | null;
      auto_renew_account_id: bigint | null;
      auto_renew_period: bigint | null;
    }
  >(
    `SELECT valid_to, key, expiration_ns, created_ns, auto_renew_account_id, auto_renew_period FROM entity
     WHERE id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );

  const customFees = db.prepare<[bigint, bigint], Versioned & { fees: string }>(
    `SELECT valid_to, fees FROM custom_fee WHERE token_id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );

  return {
    customFeesAt(tokenId, atNs) {
      const row = live(customFees.get(tokenId, atNs), atNs);
      return row === undefined ? [] : decodeCustomFees(row.fees);
    },
    tokenAt(tokenId, atNs) {
      const row = live(token.get(tokenId, atNs), atNs);
      if (row === undefined) return undefined;
      return {
        name: row.name,
        symbol: row.symbol,
        decimals: row.decimals,
        type: row.type,
        treasuryId: row.treasury_id,
        freezeDefault: row.freeze_default === 1n,
        hasKycKey: row.kyc_key !== null && row.kyc_key.length > 0,
        keys: keysByType([
          [2, row.kyc_key],
          [4, row.freeze_key],
          [8, row.wipe_key],
          [16, row.supply_key],
          [32, row.fee_schedule_key],
          [64, row.pause_key],
        ]),
      };
    },
    totalSupplyAt: (tokenId, atNs) => supply.get(tokenId, atNs) ?? 0n,
    balanceAt: (tokenId, accountId, atNs) => balance.get(tokenId, accountId, atNs) ?? 0n,
    relationAt(tokenId, accountId, atNs) {
      const row = live(relation.get(tokenId, accountId, atNs), atNs);
      if (row === undefined || row.associated !== 1n) return undefined;
      return { freezeStatus: row.freeze_status, kycStatus: row.kyc_status };
    },
    nftAt(tokenId, serial, atNs) {
      const row = live(nft.get(tokenId, serial, atNs), atNs);
      if (row === undefined || row.deleted === 1n) return undefined;
      return { accountId: row.account_id, spender: row.spender, metadata: row.metadata };
    },
    tokenAllowanceAt(owner, spender, tokenId, atNs) {
      return live(tokenAllowance.get(owner, spender, tokenId, atNs), atNs)?.amount ?? 0n;
    },
    approvedForAllAt(owner, spender, tokenId, atNs) {
      return live(nftAllowance.get(owner, spender, tokenId, atNs), atNs)?.approved_for_all === 1n;
    },
    tokenEntityAt(tokenId, atNs) {
      const row = live(expiry.get(tokenId, atNs), atNs);
      if (row === undefined) return undefined;
      const derived =
        row.created_ns !== null && row.auto_renew_period !== null
          ? row.created_ns + row.auto_renew_period * 1_000_000_000n
          : null;
      return {
        adminKey: row.key !== null && row.key.length > 0 ? row.key : null,
        expirationNs: row.expiration_ns ?? derived,
        autoRenewAccountId: row.auto_renew_account_id,
        autoRenewPeriod: row.auto_renew_period,
      };
    },
  };
}

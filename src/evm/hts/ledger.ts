import { encodeEntityId } from "../../ids.ts";
import type { CustomFeeValue } from "../../store/custom-fees.ts";
import type { EvmStateQueries } from "../../store/evm-state.ts";
import type { EvmNftRow, EvmTokenRow } from "../../store/evm-tokens.ts";
import { longZeroAddress, longZeroParts } from "../address.ts";

/** A token as the token service sees it: its id with the version in force. */
export type HtsToken = EvmTokenRow & { id: bigint };

/**
 * How an address argument names an account, as the consensus node's `accountNumberForEvmReference` decides:
 * `missing` when nothing answers at it, `nonCanonical` when it is the long-zero address of an account that has an
 * EVM address of its own (such an account answers only at that one).
 */
export type AccountReference =
  | { kind: "account"; id: bigint }
  | { kind: "missing" }
  | { kind: "nonCanonical" };

const NON_FUNGIBLE = "NON_FUNGIBLE_UNIQUE";
export const isNonFungible = (token: HtsToken): boolean => token.type === NON_FUNGIBLE;

/** The ledger as of one instant, as the token service's read functions read it. Never writes. */
export type HtsLedger = {
  /** The token at a long-zero address, if one existed then. */
  tokenAt(address: Uint8Array): HtsToken | undefined;
  account(address: Uint8Array): AccountReference;
  /** The address an account answers at: its own EVM address when it has one, else its long-zero address. */
  addressOf(accountId: bigint): Uint8Array | undefined;
  /** An entity's long-zero address, whatever else it answers at. */
  longZeroOf(id: bigint): Uint8Array;
  totalSupply(token: HtsToken): bigint;
  balance(token: HtsToken, accountId: bigint): bigint;
  relation(token: HtsToken, accountId: bigint): { frozen: boolean; kycGranted: boolean } | undefined;
  nft(token: HtsToken, serial: bigint): EvmNftRow | undefined;
  tokenAllowance(token: HtsToken, owner: bigint, spender: bigint): bigint;
  approvedForAll(token: HtsToken, owner: bigint, spender: bigint): boolean;
  expiry(token: HtsToken): { second: bigint; autoRenewAccount: bigint | null; autoRenewPeriod: bigint };
  /** The token's key of a key type (1 admin, 2 KYC, 4 freeze, 8 wipe, 16 supply, 32 fee schedule, 64 pause). */
  key(token: HtsToken, keyType: bigint): Uint8Array | undefined;
  customFees(token: HtsToken): CustomFeeValue[];
};

const NS_PER_SECOND = 1_000_000_000n;

export function createHtsLedger(queries: EvmStateQueries, atNs: bigint): HtsLedger {
  const tokens = queries.tokens;
  const entityIdOfLongZero = (address: Uint8Array): bigint | null => {
    const parts = longZeroParts(address);
    return parts === null ? null : encodeEntityId(parts.shard, parts.realm, parts.num);
  };
  const isAccount = (type: string) => type === "ACCOUNT" || type === "CONTRACT";

  return {
    tokenAt(address) {
      const id = entityIdOfLongZero(address);
      if (id === null) return undefined;
      const token = tokens.tokenAt(id, atNs);
      return token === undefined ? undefined : { ...token, id };
    },
    account(address) {
      const longZero = entityIdOfLongZero(address);
      if (longZero !== null) {
        const entity = queries.entityAt(longZero, atNs);
        if (entity !== undefined && isAccount(entity.type)) {
          return entity.evmAddress === null || Buffer.from(entity.evmAddress).equals(address)
            ? { kind: "account", id: longZero }
            : { kind: "nonCanonical" };
        }
      }
      const id = queries.idByEvmAddress(address);
      if (id === null) return { kind: "missing" };
      const entity = queries.entityAt(id, atNs);
      return entity !== undefined && isAccount(entity.type) ? { kind: "account", id } : { kind: "missing" };
    },
    addressOf(accountId) {
      const entity = queries.entityAt(accountId, atNs);
      if (entity === undefined) return undefined;
      return entity.evmAddress ?? longZeroAddress(accountId);
    },
    longZeroOf: (id) => longZeroAddress(id),
    totalSupply: (token) => tokens.totalSupplyAt(token.id, atNs),
    balance: (token, accountId) => tokens.balanceAt(token.id, accountId, atNs),
    relation(token, accountId) {
      const row = tokens.relationAt(token.id, accountId, atNs);
      if (row === undefined) return undefined;
      // NOT_APPLICABLE (no KYC key) counts as granted: the consensus node grants KYC at association then.
      return { frozen: row.freezeStatus === "FROZEN", kycGranted: row.kycStatus !== "REVOKED" };
    },
    nft: (token, serial) => tokens.nftAt(token.id, serial, atNs),
    tokenAllowance: (token, owner, spender) => tokens.tokenAllowanceAt(owner, spender, token.id, atNs),
    approvedForAll: (token, owner, spender) => tokens.approvedForAllAt(owner, spender, token.id, atNs),
    customFees: (token) => tokens.customFeesAt(token.id, atNs),
    key(token, keyType) {
      if (keyType === 1n) return tokens.tokenEntityAt(token.id, atNs)?.adminKey ?? undefined;
      return keyType > 64n ? undefined : token.keys.get(Number(keyType));
    },
    expiry(token) {
      const row = tokens.tokenEntityAt(token.id, atNs);
      const period = row?.autoRenewPeriod ?? 0n;
      return {
        second: (row?.expirationNs ?? 0n) / NS_PER_SECOND,
        autoRenewAccount: row?.autoRenewAccountId ?? null,
        autoRenewPeriod: period > 0n ? period : 0n,
      };
    },
  };
}

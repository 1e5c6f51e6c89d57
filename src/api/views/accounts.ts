/**
 * The account object of `/api/v1/accounts` and `/api/v1/accounts/{id}`, field by field as upstream's
 * `processRow` (`rest/accounts.js`) prints it; `delegation_address` is left out, as upstream's default
 * configuration does (`enableDelegationAddress: false`).
 */
import { formatEntityId } from "../../ids.ts";
import type { AccountRow, HbarBalance, TokenBalanceRow } from "../../store/accounts.ts";
import { formatTimestamp } from "../../time.ts";
import { encodeBase32 } from "../base32.ts";
import { keyView } from "./keys.ts";

const EVM_ADDRESS_BYTES = 20;
const NS_PER_SECOND = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SECOND;

/** The `balance` object: hbar balance, the instant it is reported at, and token balances. */
export type BalanceView = {
  balance: bigint;
  timestamp: string | null;
  tokens: Array<{ token_id: string | null; balance: bigint }>;
};

export function balanceView(
  hbar: HbarBalance,
  timestampNs: bigint | null,
  tokens: readonly TokenBalanceRow[],
): BalanceView {
  return {
    balance: hbar.balance,
    timestamp: timestampNs === null ? null : formatTimestamp(timestampNs),
    tokens: tokens.map(tokenBalanceView),
  };
}

export function tokenBalanceView(row: TokenBalanceRow): { token_id: string | null; balance: bigint } {
  return { token_id: formatEntityId(row.token_id), balance: row.balance };
}

/** One account: every field in upstream's order; `balance` null when the request asked for none. */
export function accountView(row: AccountRow, balance: BalanceView | null) {
  const stakedNode = row.staked_node_id;
  const stakedToNode = stakedNode !== null && stakedNode !== -1n;
  const periodStart = row.stake_period_start ?? -1n;
  return {
    account: formatEntityId(row.id),
    alias: row.alias === null ? null : encodeBase32(row.alias),
    auto_renew_period: row.auto_renew_period,
    balance,
    created_timestamp: row.created_ns === null ? null : formatTimestamp(row.created_ns),
    decline_reward: row.decline_reward === 1n,
    deleted: row.deleted === null ? null : row.deleted === 1n,
    ethereum_nonce: row.ethereum_nonce,
    evm_address: evmAddressOf(row),
    expiry_timestamp: expiryOf(row),
    key: keyView(row.key),
    max_automatic_token_associations: row.max_automatic_token_associations,
    memo: row.memo,
    // Pending rewards are computed from NodeStakeUpdate-driven stake tables mirrorlite does not keep: 0, as
    // upstream shows for an account without such a row.
    pending_reward: 0n,
    receiver_sig_required: row.receiver_sig_required === null ? null : row.receiver_sig_required === 1n,
    staked_account_id: formatEntityId(row.staked_account_id),
    staked_node_id: stakedToNode ? stakedNode : null,
    stake_period_start:
      stakedToNode && periodStart !== -1n ? formatTimestamp(periodStart * NS_PER_DAY) : null,
  };
}

/** The EVM address: the entity's own, else a 20-byte alias, else the long-zero address of its ID. */
function evmAddressOf(row: AccountRow): string {
  if (row.evm_address !== null) return `0x${hex(row.evm_address)}`;
  if (row.alias !== null && row.alias.length === EVM_ADDRESS_BYTES) return `0x${hex(row.alias)}`;
  return longZeroAddress(row.id);
}

/** `0x` + shard (4 bytes), realm (8 bytes) and num (8 bytes) of an entity ID. */
export function longZeroAddress(id: bigint): string {
  const shard = BigInt.asUintN(10, id >> 54n);
  const realm = (id >> 38n) & 0xffffn;
  const num = id & ((1n << 38n) - 1n);
  return `0x${shard.toString(16).padStart(8, "0")}${realm.toString(16).padStart(16, "0")}${num.toString(16).padStart(16, "0")}`;
}

/** `expiration_ns` when set, else creation plus the auto-renew period, else null (`calculateExpiryTimestamp`). */
function expiryOf(row: AccountRow): string | null {
  if (row.expiration_ns !== null) return formatTimestamp(row.expiration_ns);
  if (row.created_ns === null || row.auto_renew_period === null) return null;
  return formatTimestamp(row.created_ns + row.auto_renew_period * NS_PER_SECOND);
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

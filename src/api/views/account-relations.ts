/**
 * The objects of the account sub-resources, fields in the mirror node's order: token relationships
 * (`TokenRelationshipViewModel`), staking reward payouts (`StakingRewardTransferViewModel`), hbar and token
 * allowances (`CryptoAllowanceViewModel`, `TokenAllowanceViewModel`), and, from the Java service, NFT allowances
 * (`NftAllowanceMapper`) and token airdrops (`TokenAirdropMapper`). NFTs are `nftView`'s.
 */
import { formatEntityId } from "../../ids.ts";
import type { TokenRelationshipRow } from "../../store/account-tokens.ts";
import type { TokenAirdropRow } from "../../store/airdrops.ts";
import type { FungibleAllowanceRow, NftAllowanceRow } from "../../store/allowances.ts";
import type { StakingRewardRow } from "../../store/staking-rewards.ts";
import { formatTimestamp } from "../../time.ts";

export function tokenRelationshipView(row: TokenRelationshipRow) {
  return {
    automatic_association: row.automatic_association !== 0n,
    balance: row.balance,
    created_timestamp: formatTimestamp(row.created_ns),
    decimals: row.decimals,
    freeze_status: row.freeze_status,
    kyc_status: row.kyc_status,
    token_id: formatEntityId(row.token_id),
  };
}

export function stakingRewardView(row: StakingRewardRow) {
  return {
    account_id: formatEntityId(row.account_id),
    amount: row.amount,
    timestamp: formatTimestamp(row.consensus_ns),
  };
}

function timestampRange(from: bigint, to: bigint | null) {
  return { from: formatTimestamp(from), to: to === null ? null : formatTimestamp(to) };
}

/** An hbar allowance; a token allowance adds `token_id` last. */
export function fungibleAllowanceView(row: FungibleAllowanceRow) {
  const view = {
    amount: row.amount,
    amount_granted: row.amount_granted,
    owner: formatEntityId(row.owner),
    spender: formatEntityId(row.spender),
    timestamp: timestampRange(row.valid_from, row.valid_to),
  };
  return row.token_id === undefined ? view : { ...view, token_id: formatEntityId(row.token_id) };
}

export function nftAllowanceView(row: NftAllowanceRow) {
  return {
    approved_for_all: row.approved_for_all !== 0n,
    owner: formatEntityId(row.owner),
    spender: formatEntityId(row.spender),
    timestamp: timestampRange(row.valid_from, row.valid_to),
    token_id: formatEntityId(row.token_id),
  };
}

/** A pending airdrop: `serial_number` null for a fungible token (stored as 0), `amount` null for an NFT. */
export function tokenAirdropView(row: TokenAirdropRow) {
  return {
    amount: row.amount,
    receiver_id: formatEntityId(row.receiver),
    sender_id: formatEntityId(row.sender),
    serial_number: row.serial === 0n ? null : row.serial,
    timestamp: timestampRange(row.valid_from, row.valid_to),
    token_id: formatEntityId(row.token_id),
  };
}

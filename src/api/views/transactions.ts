/**
 * The transaction object of the REST API, built in one place for `/api/v1/transactions`, the lookups by id or
 * hash, and the list embedded in `/api/v1/accounts/{id}` (upstream's `formatTransactionRows` in
 * `rest/transactions.js`). Keys are in upstream's order: alphabetical, `assessed_custom_fees` first (only in the
 * lookups, and only when the transaction has some).
 */
import { decodeEntityId, encodeEntityId, formatEntityId } from "../../ids.ts";
import { transactionTypeName } from "../../ingest/transaction-types.ts";
import type { TransactionRow } from "../../store/transactions.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { formatTimestamp } from "../../time.ts";

const NANOS_PER_SECOND = 1_000_000_000n;
/** The staking reward account's number (0.0.800): its payouts are shown only when it is in the transfers. */
const STAKING_REWARD_ACCOUNT = 800n;

export type TransferView = { account: string | null; amount: bigint; is_approval: boolean };

export type TransactionView = {
  assessed_custom_fees?: {
    amount: bigint;
    collector_account_id: string | null;
    effective_payer_account_ids: (string | null)[];
    token_id: string | null;
  }[];
  batch_key: string | null;
  bytes: null;
  charged_tx_fee: bigint;
  consensus_timestamp: string;
  entity_id: string | null;
  high_volume: boolean;
  high_volume_pricing_multiplier: bigint;
  max_custom_fees: { account_id: string | null; amount: bigint; denominating_token_id: string | null }[];
  max_fee: string;
  memo_base64: string;
  name: string;
  nft_transfers: {
    is_approval: boolean;
    receiver_account_id: string | null;
    sender_account_id: string | null;
    serial_number: bigint;
    token_id: string | null;
  }[];
  node: string | null;
  nonce: number;
  parent_consensus_timestamp: string | null;
  result: string;
  scheduled: boolean;
  staking_reward_transfers: { account: string | null; amount: bigint }[];
  token_transfers: {
    token_id: string | null;
    account: string | null;
    amount: bigint;
    is_approval: boolean;
  }[];
  transaction_hash: string;
  transaction_id: string;
  transfers: TransferView[];
  valid_duration_seconds: string | null;
  valid_start_timestamp: string;
};

/**
 * A transaction as the API shows it. `detail` (the lookups by id or hash) adds `assessed_custom_fees` when the
 * transaction has any.
 */
export function transactionView(row: TransactionRow, detail = false): TransactionView {
  const { extras } = row;
  const assessed =
    detail && extras.assessedCustomFees.length > 0
      ? [...extras.assessedCustomFees]
          .sort((a, b) => compare(a.collectorId, b.collectorId) || compare(a.amount, b.amount))
          .map((fee) => ({
            amount: fee.amount,
            collector_account_id: formatEntityId(fee.collectorId),
            effective_payer_account_ids: fee.effectivePayerIds.map((id) => formatEntityId(id)),
            token_id: formatEntityId(fee.tokenId),
          }))
      : undefined;
  return {
    assessed_custom_fees: assessed,
    batch_key: extras.batchKey === null ? null : `0x${Buffer.from(extras.batchKey).toString("hex")}`,
    bytes: null,
    charged_tx_fee: row.chargedFee,
    consensus_timestamp: formatTimestamp(row.consensusNs),
    entity_id: formatEntityId(row.entityId),
    high_volume: row.highVolume,
    high_volume_pricing_multiplier: extras.highVolumePricingMultiplier,
    max_custom_fees: extras.maxCustomFees.flatMap(customFeeLimitView),
    max_fee: row.maxFee.toString(),
    memo_base64: Buffer.from(row.memo).toString("base64"),
    name: transactionTypeName(row.type),
    nft_transfers: row.nftTransfers.map((t) => ({
      is_approval: t.isApproval,
      receiver_account_id: formatEntityId(t.receiverId),
      sender_account_id: formatEntityId(t.senderId),
      serial_number: t.serial,
      token_id: formatEntityId(t.tokenId),
    })),
    node: formatEntityId(row.nodeId),
    nonce: row.nonce,
    parent_consensus_timestamp: row.parentNs === null ? null : formatTimestamp(row.parentNs),
    result: resultName(row.result),
    scheduled: row.scheduled,
    staking_reward_transfers: paysStakingRewards(row)
      ? extras.stakingRewardTransfers.map((t) => ({ account: formatEntityId(t.accountId), amount: t.amount }))
      : [],
    token_transfers: row.tokenTransfers.map((t) => ({
      token_id: formatEntityId(t.tokenId),
      account: formatEntityId(t.accountId),
      amount: t.amount,
      is_approval: t.isApproval,
    })),
    transaction_hash: Buffer.from(row.hash).toString("base64"),
    transaction_id: transactionIdText(row.payerId, row.validStartNs),
    transfers: row.transfers.map((t) => ({
      account: formatEntityId(t.accountId),
      amount: t.amount,
      is_approval: t.isApproval,
    })),
    valid_duration_seconds: row.validDurationSeconds === null ? null : row.validDurationSeconds.toString(),
    valid_start_timestamp: formatTimestamp(row.validStartNs),
  };
}

/** `<payer>-<valid start seconds>-<valid start nanoseconds, 9 digits>`. */
export function transactionIdText(payerId: bigint, validStartNs: bigint): string {
  const seconds = validStartNs / NANOS_PER_SECOND;
  const nanos = (validStartNs % NANOS_PER_SECOND).toString().padStart(9, "0");
  return `${formatEntityId(payerId) ?? "0.0.0"}-${seconds}-${nanos}`;
}

/** The receipt status name (`SUCCESS`, `INSUFFICIENT_PAYER_BALANCE`, …); `UNKNOWN` for codes HAPI does not name. */
export function resultName(code: number): string {
  return (proto.ResponseCodeEnum as unknown as Record<number, string>)[code] ?? "UNKNOWN";
}

/** Upstream lists payouts only for transactions whose hbar transfers touch the staking reward account. */
function paysStakingRewards(row: TransactionRow): boolean {
  if (row.extras.stakingRewardTransfers.length === 0) return false;
  const { shard, realm } = decodeEntityId(row.payerId);
  const rewardAccount = encodeEntityId(shard, realm, STAKING_REWARD_ACCOUNT);
  return row.transfers.some((t) => t.accountId === rewardAccount);
}

/** One element per fixed fee of a serialized `CustomFeeLimit` (upstream's `CustomFeeLimitsViewModel`). */
function customFeeLimitView(bytes: Uint8Array): TransactionView["max_custom_fees"] {
  const limit = proto.CustomFeeLimit.decode(bytes);
  const account = limit.accountId;
  const accountId =
    account?.accountNum == null
      ? null
      : `${toBigInt(account.shardNum)}.${toBigInt(account.realmNum)}.${toBigInt(account.accountNum)}`;
  return (limit.fees ?? []).map((fee) => {
    const token = fee.denominatingTokenId;
    const num = toBigInt(token?.tokenNum);
    return {
      account_id: accountId,
      amount: toBigInt(fee.amount),
      denominating_token_id:
        token == null || num === 0n ? null : `${toBigInt(token.shardNum)}.${toBigInt(token.realmNum)}.${num}`,
    };
  });
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

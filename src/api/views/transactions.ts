/**
 * The transaction object of the REST API, rendered in one place for `/api/v1/transactions`, the lookups by id
 * or hash, and the list embedded in `/api/v1/accounts/{id}` (upstream's `formatTransactionRows` in
 * `rest/transactions.js`). Keys are in upstream's order: alphabetical, `assessed_custom_fees` first (only in the
 * lookups, and only when the transaction has some).
 *
 * A page holds up to 100 of these objects of two dozen fields each, so the object is written straight to JSON
 * text (int64 values exact) rather than built as an object and serialized; `transactionView` wraps the text for
 * response objects that `toJson` writes.
 */
import { formatEntityId } from "../../ids.ts";
import { transactionTypeName } from "../../ingest/transaction-types.ts";
import type { TransactionRow } from "../../store/transactions.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { formatTimestamp } from "../../time.ts";
import { RawJson } from "../json.ts";
import { keyView } from "./keys.ts";

const NANOS_PER_SECOND = 1_000_000_000n;
/** The staking reward account's number (0.0.800): its payouts are shown only when it is in the transfers. */
const STAKING_REWARD_ACCOUNT = 800n;
/** Ids of shard 0 realm 0 are their number: printed without decoding. */
const PLAIN_ID_LIMIT = 1n << 38n;

/** A transaction object, rendered (see the module comment); `toJson` writes it as it is. */
export type TransactionView = RawJson;

/** A transaction as the API shows it, for a response object. `detail`: a lookup's (assessed custom fees). */
export function transactionView(row: TransactionRow, detail = false): TransactionView {
  return new RawJson(transactionJson(row, detail));
}

/** A transaction's JSON text (see `transactionView`). */
export function transactionJson(row: TransactionRow, detail = false): string {
  const { extras } = row;
  let out = "{";
  if (detail && extras.assessedCustomFees.length > 0) {
    const fees = [...extras.assessedCustomFees].sort(
      (a, b) => compare(a.collectorId, b.collectorId) || compare(a.amount, b.amount),
    );
    out += `"assessed_custom_fees":[${fees
      .map(
        (fee) =>
          `{"amount":${fee.amount},"collector_account_id":${id(fee.collectorId)},"effective_payer_account_ids":[${fee.effectivePayerIds
            .map(id)
            .join(",")}],"token_id":${id(fee.tokenId)}}`,
      )
      .join(",")}],`;
  }
  // A key object as every other key (`{"_type","key"}`, null for the empty key list), as 0.154 prints it.
  out += `"batch_key":${extras.batchKey === null ? "null" : JSON.stringify(keyView(extras.batchKey))}`;
  out += `,"bytes":null,"charged_tx_fee":${row.chargedFee}`;
  out += `,"consensus_timestamp":"${formatTimestamp(row.consensusNs)}","entity_id":${id(row.entityId)}`;
  out += `,"high_volume":${row.highVolume},"high_volume_pricing_multiplier":${extras.highVolumePricingMultiplier}`;
  out += `,"max_custom_fees":[${extras.maxCustomFees
    .map(customFeeLimitJson)
    .filter((fees) => fees !== "")
    .join(",")}]`;
  out += `,"max_fee":"${row.maxFee}","memo_base64":"${base64(row.memo)}","name":"${transactionTypeName(row.type)}"`;
  out += `,"nft_transfers":[`;
  for (let i = 0; i < row.nftTransfers.length; i++) {
    const t = row.nftTransfers[i]!;
    out += `${i === 0 ? "" : ","}{"is_approval":${t.isApproval},"receiver_account_id":${id(t.receiverId)},"sender_account_id":${id(
      t.senderId,
    )},"serial_number":${t.serial},"token_id":${id(t.tokenId)}}`;
  }
  out += `],"node":${id(row.nodeId)},"nonce":${row.nonce},"parent_consensus_timestamp":${
    row.parentNs === null ? "null" : `"${formatTimestamp(row.parentNs)}"`
  }`;
  out += `,"result":${JSON.stringify(resultName(row.result))},"scheduled":${row.scheduled},"staking_reward_transfers":[`;
  if (paysStakingRewards(row)) {
    out += extras.stakingRewardTransfers
      .map((t) => `{"account":${id(t.accountId)},"amount":${t.amount}}`)
      .join(",");
  }
  out += `],"token_transfers":[`;
  for (let i = 0; i < row.tokenTransfers.length; i++) {
    const t = row.tokenTransfers[i]!;
    out += `${i === 0 ? "" : ","}{"token_id":${id(t.tokenId)},"account":${id(t.accountId)},"amount":${t.amount},"is_approval":${t.isApproval}}`;
  }
  const validStart = formatTimestamp(row.validStartNs);
  out += `],"transaction_hash":"${base64(row.hash)}","transaction_id":"${idText(row.payerId, row.validStartNs, validStart)}"`;
  out += `,"transfers":[`;
  for (let i = 0; i < row.transfers.length; i++) {
    const t = row.transfers[i]!;
    out += `${i === 0 ? "" : ","}{"account":${id(t.accountId)},"amount":${t.amount},"is_approval":${t.isApproval}}`;
  }
  out += `],"valid_duration_seconds":${row.validDurationSeconds === null ? "null" : `"${row.validDurationSeconds}"`}`;
  out += `,"valid_start_timestamp":"${validStart}"}`;
  return out;
}

/** `<payer>-<valid start seconds>-<valid start nanoseconds, 9 digits>`. */
export function transactionIdText(payerId: bigint, validStartNs: bigint): string {
  const seconds = validStartNs / NANOS_PER_SECOND;
  const nanos = (validStartNs % NANOS_PER_SECOND).toString().padStart(9, "0");
  return `${formatEntityId(payerId) ?? "0.0.0"}-${seconds}-${nanos}`;
}

/** `transactionIdText`, from the valid start already formatted as a timestamp (`<seconds>.<9 digits>`). */
function idText(payerId: bigint, validStartNs: bigint, validStart: string): string {
  if (validStartNs < 0n) return transactionIdText(payerId, validStartNs);
  const payer =
    payerId > 0n && payerId < PLAIN_ID_LIMIT ? `0.0.${payerId}` : (formatEntityId(payerId) ?? "0.0.0");
  const dot = validStart.length - 10;
  return `${payer}-${validStart.slice(0, dot)}-${validStart.slice(dot + 1)}`;
}

/** The receipt status name (`SUCCESS`, `INSUFFICIENT_PAYER_BALANCE`, …); `UNKNOWN` for codes HAPI does not name. */
export function resultName(code: number): string {
  return (proto.ResponseCodeEnum as unknown as Record<number, string>)[code] ?? "UNKNOWN";
}

/** An entity id as JSON: `"shard.realm.num"`, or null for none (or 0). */
function id(value: bigint | null): string {
  if (value === null || value === 0n) return "null";
  if (value > 0n && value < PLAIN_ID_LIMIT) return `"0.0.${value}"`;
  return `"${formatEntityId(value)}"`;
}

function base64(bytes: Uint8Array): string {
  if (bytes.length === 0) return "";
  return (
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  ).toString("base64");
}

/** Upstream lists payouts only for transactions whose hbar transfers touch the staking reward account. */
function paysStakingRewards(row: TransactionRow): boolean {
  if (row.extras.stakingRewardTransfers.length === 0) return false;
  // The reward account of the payer's shard and realm (0.0.800 on every network so far).
  const rewardAccount = (row.payerId & ~((1n << 38n) - 1n)) | STAKING_REWARD_ACCOUNT;
  return row.transfers.some((t) => t.accountId === rewardAccount);
}

/** One element per fixed fee of a serialized `CustomFeeLimit` (upstream's `CustomFeeLimitsViewModel`). */
function customFeeLimitJson(bytes: Uint8Array): string {
  const limit = proto.CustomFeeLimit.decode(bytes);
  const account = limit.accountId;
  const accountId =
    account?.accountNum == null
      ? "null"
      : `"${toBigInt(account.shardNum)}.${toBigInt(account.realmNum)}.${toBigInt(account.accountNum)}"`;
  return (limit.fees ?? [])
    .map((fee) => {
      const token = fee.denominatingTokenId;
      const num = toBigInt(token?.tokenNum);
      const tokenId =
        token == null || num === 0n
          ? "null"
          : `"${toBigInt(token.shardNum)}.${toBigInt(token.realmNum)}.${num}"`;
      return `{"account_id":${accountId},"amount":${toBigInt(fee.amount)},"denominating_token_id":${tokenId}}`;
    })
    .join(",");
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

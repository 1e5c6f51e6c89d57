/**
 * Writes the transaction index row of every record (failed, child and scheduled ones included) with what the
 * transaction object of the REST API needs, and the account rows that `account.id` filters seek. Token and NFT
 * transfers are written by `applyRecordTransfers` (token_transfer / nft_transfer); this only notes that they
 * exist and what they mean for each account.
 *
 * Everything is read from the record and the body, whatever the stream format the item came from: their common
 * fields as ingestion read them off the wire (`item.recordFields`, `item.bodyFields`), the rarely present parts
 * from the record decoded whole (`item.record`), only when `recordFields.parts` says they are there. Mirrors the
 * importer's `EntityRecordItemListener`: hbar transfers always, staking reward payouts always, token/NFT
 * transfers and assessed custom fees only for successful records (and FAIL_INVALID errata records). Returns the
 * record's hbar transfers, read once for the hbar ledger too.
 */
import { entityIdOf } from "../../ids.ts";
import {
  ACCOUNT_KIND_BITS,
  type AssessedCustomFee,
  type HbarTransfer,
  type InnerTransactionId,
  type StakingRewardTransfer,
  TRANSACTION_FLAGS,
  type TransactionExtras,
} from "../../store/transaction-lists.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { RECORD_PARTS } from "../../streams/record-fields.ts";
import { transactionBodyBytes } from "../../streams/transaction-body-bytes.ts";
import {
  type BodyAccountAmount,
  type BodyFields,
  hasApprovedTransfers,
  readCryptoTransferAmounts,
} from "../../streams/transaction-body-fields.ts";
import { timestampToNs } from "../../time.ts";
import type { DecodedItem } from "../decode.ts";
import { transactionEntityId } from "../transaction-entity.ts";
import type { HandlerContext } from "./context.ts";

/** Types whose payer counts for `account.id` even as a child without a parent (`precedingTransactionTypes`). */
const PRECEDING_TYPES = new Set([11, 15]);
/** Before 2020, failed CryptoTransfers could list spurious non-fee transfers (the importer's errata). */
const SPURIOUS_TRANSFERS_BEFORE_NS = 1577836799000000000n;

export function indexTransaction({ item, store }: HandlerContext): readonly HbarTransfer[] {
  const recordFields = item.recordFields;
  const { bodyBytes, bodyFields: fields } = item;
  const failed = !item.successful;
  const keepsTokenEffects = item.successful || item.status === proto.ResponseCodeEnum.FAIL_INVALID;

  let flags = failed ? TRANSACTION_FLAGS.failed : 0;
  if (fields.highVolume) flags |= TRANSACTION_FLAGS.highVolume;
  if (recordFields.hasScheduleRef) flags |= TRANSACTION_FLAGS.scheduled;

  // Each involved account with its credit / debit bits (0 for a payer or a zero amount); a handful per record.
  const accountIds: bigint[] = [];
  const accountBits: number[] = [];
  const involve = (accountId: bigint, amount: bigint) => {
    const bits = amount > 0n ? ACCOUNT_KIND_BITS.credit : amount < 0n ? ACCOUNT_KIND_BITS.debit : 0;
    flags |=
      bits === ACCOUNT_KIND_BITS.credit ? TRANSACTION_FLAGS.credit : bits === 0 ? 0 : TRANSACTION_FLAGS.debit;
    const at = accountIds.indexOf(accountId);
    if (at === -1) {
      accountIds.push(accountId);
      accountBits.push(bits);
    } else {
      accountBits[at]! |= bits;
    }
  };

  const transfers = hbarTransfers(item, bodyBytes, fields);
  for (const transfer of transfers) involve(transfer.accountId, transfer.amount);

  if (keepsTokenEffects && (recordFields.parts & RECORD_PARTS.tokenTransferLists) !== 0) {
    for (const list of item.record.tokenTransferLists) {
      // The same lists, and the same entries, that applyRecordTransfers writes.
      if (entityIdOf(list.token) === null) continue;
      for (const transfer of list.transfers ?? []) {
        const accountId = entityIdOf(transfer.accountID);
        if (accountId === null) continue;
        flags |= TRANSACTION_FLAGS.tokenTransfers;
        involve(accountId, toBigInt(transfer.amount));
      }
      if ((list.nftTransfers ?? []).length > 0) flags |= TRANSACTION_FLAGS.nftTransfers;
    }
  }

  const parentNs = recordFields.parentConsensusNs;
  // A payer finds its user transactions, its children that have a parent, and crypto creates / updates.
  if (item.nonce === 0 || parentNs !== null || PRECEDING_TYPES.has(item.typeId)) involve(item.payerId, 0n);

  const base = item.typeId * 8 + (failed ? ACCOUNT_KIND_BITS.failed : 0);
  const accountKinds = accountBits.map((bits) => base + bits);

  store.insertTransaction({
    consensusNs: item.consensusNs,
    type: item.typeId,
    result: item.status,
    payerId: item.payerId,
    validStartNs: item.validStartNs,
    nonce: item.nonce,
    flags,
    chargedFee: BigInt.asIntN(64, item.chargedFeeTinybars),
    maxFee: fields.maxFee,
    validDurationSeconds: fields.validDurationSeconds,
    nodeId: fields.nodeAccountId,
    entityId: transactionEntityId(item, bodyBytes, fields),
    parentNs,
    memo: fields.memo.length === 0 ? null : fields.memo,
    hash: recordFields.transactionHash,
    transfers,
    extras: extrasOf(item, fields, keepsTokenEffects),
    accountIds,
    accountKinds,
  });
  return transfers;
}

/** The rarely present parts; null (no work) for the common record that has none of them. */
function extrasOf(
  item: DecodedItem,
  fields: BodyFields,
  keepsTokenEffects: boolean,
): TransactionExtras | null {
  const parts = item.recordFields.parts;
  const rewards = (parts & RECORD_PARTS.paidStakingRewards) !== 0;
  const assessed = keepsTokenEffects && (parts & RECORD_PARTS.assessedCustomFees) !== 0;
  const multiplier = (parts & RECORD_PARTS.highVolumePricingMultiplier) !== 0;
  const batch = item.bodyCase === "atomicBatch";
  if (
    !rewards &&
    !assessed &&
    fields.maxCustomFees.length === 0 &&
    fields.batchKey === null &&
    !multiplier &&
    !batch
  ) {
    return null;
  }
  return {
    stakingRewardTransfers: rewards ? stakingRewards(item.record) : [],
    assessedCustomFees: assessed ? assessedFees(item.record) : [],
    maxCustomFees: fields.maxCustomFees,
    batchKey: fields.batchKey,
    highVolumePricingMultiplier: multiplier
      ? BigInt.asIntN(64, toBigInt(item.record.highVolumePricingMultiplier))
      : 0n,
    innerTransactions: batch ? innerTransactions(item) : [],
  };
}

/**
 * The record's hbar transfers, sorted by account then amount (the API's order). A debit is an approved
 * (allowance) transfer when a CryptoTransfer body lists the same account and amount with `is_approval`; credits
 * never are, except in the importer's pre-2020 failed transfers, which it looks up the same way.
 */
function hbarTransfers(item: DecodedItem, bodyBytes: Uint8Array, fields: BodyFields): HbarTransfer[] {
  // Entries without an account number move nobody's hbar: the record fields leave them out (the ledger too).
  const amounts = item.recordFields.transfers;
  if (amounts.length === 0) return [];
  let body: BodyAccountAmount[] | null = null;
  const lookupCredits = !item.successful && item.consensusNs < SPURIOUS_TRANSFERS_BEFORE_NS;
  // Only a CryptoTransfer body marks transfers approved, and almost none does: most are never matched.
  const approvals =
    item.bodyCase === "cryptoTransfer" &&
    fields.dataStart >= 0 &&
    hasApprovedTransfers(bodyBytes, fields.dataStart, fields.dataEnd);
  const out: HbarTransfer[] = [];
  for (const { accountId, amount } of amounts) {
    let isApproval = false;
    if (approvals && (amount < 0n || lookupCredits)) {
      body ??= readCryptoTransferAmounts(bodyBytes, fields.dataStart, fields.dataEnd);
      const match = body.find((aa) => aa.accountId === accountId && aa.amount === amount);
      isApproval = match?.isApproval ?? false;
    }
    out.push({ accountId, amount, isApproval });
  }
  // Records list transfers by account already; sort only when one does not.
  for (let i = 1; i < out.length; i++) {
    if (compareTransfers(out[i - 1]!, out[i]!) > 0) return out.sort(compareTransfers);
  }
  return out;
}

function compareTransfers(a: HbarTransfer, b: HbarTransfer): number {
  if (a.accountId !== b.accountId) return a.accountId < b.accountId ? -1 : 1;
  return a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0;
}

function stakingRewards(record: proto.TransactionRecord): StakingRewardTransfer[] {
  const paid = record.paidStakingRewards ?? [];
  return paid.map((aa) => ({ accountId: entityIdOf(aa.accountID) ?? 0n, amount: toBigInt(aa.amount) }));
}

function assessedFees(record: proto.TransactionRecord): AssessedCustomFee[] {
  return (record.assessedCustomFees ?? []).map((fee) => ({
    amount: toBigInt(fee.amount),
    collectorId: entityIdOf(fee.feeCollectorAccountId) ?? 0n,
    tokenId: entityIdOf(fee.tokenId),
    effectivePayerIds: (fee.effectivePayerAccountId ?? []).map((id) => entityIdOf(id) ?? 0n),
  }));
}

/** The transaction ids an atomic batch names: the payer and valid start of each inner transaction's body. */
function innerTransactions(item: DecodedItem): InnerTransactionId[] {
  const out: InnerTransactionId[] = [];
  for (const bytes of item.body.atomicBatch?.transactions ?? []) {
    const id = proto.TransactionBody.decode(transactionBodyBytes(bytes)).transactionID;
    const payerId = entityIdOf(id?.accountID);
    if (payerId === null) continue;
    out.push({ payerId, validStartNs: timestampToNs(id?.transactionValidStart) });
  }
  return out;
}

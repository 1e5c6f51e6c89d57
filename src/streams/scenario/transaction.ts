/**
 * Turns a simulated transaction into the two byte strings a record stream item holds: the signed
 * `Transaction` a client submitted and the `TransactionRecord` the node wrote for it.
 */
import { createHash } from "node:crypto";
import { proto } from "../proto.ts";
import type { RecordItem } from "../types.ts";
import type { Effects } from "./effects.ts";
import { type Signer, signatureMap, templateSignatureMap } from "./keys.ts";
import { NODE_ACCOUNT } from "./network-fees.ts";
import { accountId, duration, long, timestamp, tokenId } from "./pb.ts";

/** Transactions are valid for 120 seconds from their valid start, the SDK default. */
export const VALID_DURATION_SECONDS = 120n;

export type TransactionIdParts = { payer: bigint; validStartNs: bigint; nonce?: number };

export function transactionId(id: TransactionIdParts): proto.ITransactionID {
  const out: proto.ITransactionID = {
    accountID: accountId(id.payer),
    transactionValidStart: timestamp(id.validStartNs),
  };
  if (id.nonce !== undefined && id.nonce !== 0) out.nonce = id.nonce;
  return out;
}

/** A user transaction's body: the common fields a client fills, then the typed body. */
export function userBody(args: {
  id: TransactionIdParts;
  maxFeeTinybars: bigint;
  memo: string;
  typed: proto.ITransactionBody;
}): proto.ITransactionBody {
  const body: proto.ITransactionBody = {
    transactionID: transactionId(args.id),
    nodeAccountID: accountId(NODE_ACCOUNT),
    transactionFee: long(args.maxFeeTinybars),
    transactionValidDuration: duration(VALID_DURATION_SECONDS),
  };
  if (args.memo !== "") body.memo = args.memo;
  return { ...body, ...args.typed };
}

/**
 * Serializes and signs a body: a `Transaction` wrapping `signedTransactionBytes`, as SDKs send today.
 * `signers` null means a synthetic child transaction, which carries no signatures at all; `real` false
 * reuses a template signature per signer (see `templateSignatureMap`).
 */
export function signTransaction(
  body: proto.ITransactionBody,
  signers: Signer[] | null,
  real = true,
): { transactionBytes: Uint8Array; signedTransactionBytes: Uint8Array } {
  const bodyBytes = proto.TransactionBody.encode(body).finish();
  const signed: proto.ISignedTransaction = { bodyBytes };
  if (signers !== null)
    signed.sigMap = real ? signatureMap(bodyBytes, signers) : templateSignatureMap(signers);
  const signedTransactionBytes = proto.SignedTransaction.encode(signed).finish();
  return {
    transactionBytes: proto.Transaction.encode({ signedTransactionBytes }).finish(),
    signedTransactionBytes,
  };
}

export type RecordInput = {
  signedTransactionBytes: Uint8Array;
  consensusNs: bigint;
  id: TransactionIdParts;
  memo: string;
  feeTinybars: bigint;
  /** A `ResponseCodeEnum` name. */
  status: string;
  effects: Effects;
  isCryptoTransfer: boolean;
};

export function buildRecord(input: RecordInput): proto.ITransactionRecord {
  const fx = input.effects;
  const receipt: proto.ITransactionReceipt = { status: responseCode(input.status) };
  if (fx.receipt.accountId !== undefined) receipt.accountID = accountId(fx.receipt.accountId);
  if (fx.receipt.tokenId !== undefined) receipt.tokenID = tokenId(fx.receipt.tokenId);
  if (fx.receipt.newTotalSupply !== undefined && fx.receipt.newTotalSupply !== 0n) {
    receipt.newTotalSupply = long(fx.receipt.newTotalSupply);
  }
  if (fx.receipt.serialNumbers !== undefined) receipt.serialNumbers = fx.receipt.serialNumbers.map(long);

  const record: proto.ITransactionRecord = {
    receipt,
    transactionHash: createHash("sha384").update(input.signedTransactionBytes).digest(),
    consensusTimestamp: timestamp(input.consensusNs),
    transactionID: transactionId(input.id),
  };
  if (input.memo !== "") record.memo = input.memo;
  if (input.feeTinybars !== 0n) record.transactionFee = long(input.feeTinybars);
  record.transferList = fx.transferList();
  const tokenTransferLists = fx.tokenTransferLists(input.isCryptoTransfer);
  if (tokenTransferLists.length > 0) record.tokenTransferLists = tokenTransferLists;
  if (fx.assessedFees.length > 0) record.assessedCustomFees = fx.assessedCustomFees();
  if (fx.autoAssociations.length > 0) record.automaticTokenAssociations = fx.automaticTokenAssociations();
  if (fx.alias !== null) record.alias = fx.alias;
  if (fx.evmAddress !== null) record.evmAddress = fx.evmAddress;
  return record;
}

export function recordItem(transactionBytes: Uint8Array, record: proto.ITransactionRecord): RecordItem {
  return { transactionBytes, recordBytes: proto.TransactionRecord.encode(record).finish() };
}

/** The numeric `ResponseCodeEnum` for a status name, rejecting names HAPI does not define. */
export function responseCode(status: string): proto.ResponseCodeEnum {
  const code = (proto.ResponseCodeEnum as unknown as Record<string, number>)[status];
  if (code === undefined) throw new Error(`unknown ResponseCodeEnum ${status}`);
  return code;
}

import { entityIdOf } from "../ids.ts";
import { toBigInt } from "../streams/long.ts";
import { proto } from "../streams/proto.ts";
import type { RecordItem } from "../streams/types.ts";
import { timestampToNs } from "../time.ts";
import { transactionTypeId } from "./transaction-types.ts";

/** One record stream item, decoded once, with the facts every handler needs already extracted. */
export type DecodedItem = {
  consensusNs: bigint;
  typeId: number;
  /** The `TransactionBody` oneof case, e.g. `"tokenMint"`. */
  bodyCase: string | undefined;
  body: proto.TransactionBody;
  record: proto.TransactionRecord;
  status: number;
  /** Whether the receipt status is one the mirror node treats as success (only those change state). */
  successful: boolean;
  payerId: bigint;
  validStartNs: bigint;
  nonce: number;
  scheduled: boolean;
  chargedFeeTinybars: bigint;
};

const SUCCESS_STATUSES = new Set<number>([
  proto.ResponseCodeEnum.SUCCESS,
  proto.ResponseCodeEnum.FEE_SCHEDULE_FILE_PART_UPLOADED,
  proto.ResponseCodeEnum.SUCCESS_BUT_MISSING_EXPECTED_OPERATION,
]);

/**
 * Decodes an item's transaction and record. Transactions come in three generations: `signedTransactionBytes`
 * (current), `bodyBytes` with `sigMap` (2020–2021), and the deprecated embedded `body` (2019).
 * Throws on undecodable bytes; the caller names the file.
 */
export function decodeItem(item: RecordItem): DecodedItem {
  const record = proto.TransactionRecord.decode(item.recordBytes);
  const body = decodeBody(item.transactionBytes);
  const status = record.receipt?.status ?? 0;
  const txId = record.transactionID ?? body.transactionID;
  const bodyCase = body.data ?? undefined;
  return {
    consensusNs: timestampToNs(record.consensusTimestamp),
    typeId: transactionTypeId(bodyCase),
    bodyCase,
    body,
    record,
    status,
    successful: SUCCESS_STATUSES.has(status),
    payerId: entityIdOf(txId?.accountID) ?? 0n,
    validStartNs: timestampToNs(txId?.transactionValidStart),
    nonce: txId?.nonce ?? 0,
    scheduled: txId?.scheduled ?? false,
    chargedFeeTinybars: toBigInt(record.transactionFee),
  };
}

function decodeBody(transactionBytes: Uint8Array): proto.TransactionBody {
  const tx = proto.Transaction.decode(transactionBytes);
  if (tx.signedTransactionBytes && tx.signedTransactionBytes.length > 0) {
    const signed = proto.SignedTransaction.decode(tx.signedTransactionBytes);
    return proto.TransactionBody.decode(signed.bodyBytes);
  }
  if (tx.bodyBytes && tx.bodyBytes.length > 0) return proto.TransactionBody.decode(tx.bodyBytes);
  if (tx.body) return tx.body as proto.TransactionBody;
  throw new Error("transaction has neither signed transaction bytes, body bytes nor a body");
}

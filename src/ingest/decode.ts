import { entityIdOf } from "../ids.ts";
import type { BlockRecord } from "../streams/block-records.ts";
import { toBigInt } from "../streams/long.ts";
import { proto } from "../streams/proto.ts";
import { bodyCaseOf, transactionBodyBytes } from "../streams/transaction-body-bytes.ts";

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
  /** The `TransactionBody` bytes, for a handler that reads a field or two without decoding the whole body. */
  bodyBytes: Uint8Array;
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
 * Decodes an item's record, and finds its transaction's body and the body's kind without decoding the body:
 * `body` is decoded when first read (most bodies never are; see streams/transaction-body-bytes.ts). Transactions
 * come in three generations: `signedTransactionBytes` (current), `bodyBytes` with `sigMap` (2020–2021), and
 * the deprecated embedded `body` (2019). Throws on undecodable bytes; the caller names the file.
 */
export function decodeItem(item: RecordItem): DecodedItem {
  return decodedItemOf(
    proto.TransactionRecord.decode(item.recordBytes),
    transactionBodyBytes(item.transactionBytes),
  );
}

/**
 * The same facts for a transaction of a block stream block, whose record was synthesized from the block's items
 * (streams/block-records.ts): handlers cannot tell the two apart.
 */
export function decodeBlockRecord(block: BlockRecord): DecodedItem {
  return decodedItemOf(block.record, block.bodyBytes, block.bodyCase, block.body);
}

/** `bodyCase` and `body` when the caller knows them already (a block's transformer read the body first). */
function decodedItemOf(
  record: proto.TransactionRecord,
  bodyBytes: Uint8Array,
  bodyCase = bodyCaseOf(bodyBytes),
  decoded?: proto.TransactionBody,
): DecodedItem {
  let body = decoded;
  const bodyOf = () => {
    if (body === undefined) {
      try {
        body = proto.TransactionBody.decode(bodyBytes);
      } catch (cause) {
        throw new DecodeError(`transaction body does not decode: ${(cause as Error).message}`, { cause });
      }
    }
    return body;
  };
  const status = record.receipt?.status ?? 0;
  const txId = record.transactionID ?? bodyOf().transactionID;
  return {
    consensusNs: timestampToNs(record.consensusTimestamp),
    typeId: transactionTypeId(bodyCase),
    bodyCase,
    get body() {
      return bodyOf();
    },
    bodyBytes,
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

/** An item whose transaction or record bytes do not decode (the caller turns it into a CorruptFileError). */
export class DecodeError extends Error {}

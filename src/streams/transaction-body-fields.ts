/**
 * The common fields of a `TransactionBody` read straight off the wire, for the transaction index: decoding a
 * whole body with protobufjs costs as much as decoding its record, while the index needs a handful of fields
 * of every body (node, fees, duration, memo bytes, batch key, fee limits, the high-volume flag) and, for the
 * commonest types, one id inside the typed body.
 *
 * Field numbers are HAPI's (`transaction.proto`): 2 nodeAccountID, 3 transactionFee, 4 transactionValidDuration,
 * 6 memo, 73 batch_key, 1001 max_custom_fees, 1002 high_volume; the typed body is a oneof member.
 */
import { encodeEntityId, MAX_NUM } from "../ids.ts";
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from "./protobuf-wire.ts";

const NODE_ACCOUNT = 2;
const TRANSACTION_FEE = 3;
const VALID_DURATION = 4;
const MEMO = 6;
const BATCH_KEY = 73;
const MAX_CUSTOM_FEES = 1001;
const HIGH_VOLUME = 1002;

const EMPTY = new Uint8Array(0);

export type BodyFields = {
  /** The node account (packed), null when absent or not a plain number. */
  nodeAccountId: bigint | null;
  /** `transactionFee` (uint64 on the wire) as the int64 the mirror node stores. */
  maxFee: bigint;
  /** `transactionValidDuration.seconds`; null when the body has no duration. */
  validDurationSeconds: bigint | null;
  /** The memo's bytes as sent (HAPI strings are UTF-8; the index keeps the bytes). */
  memo: Uint8Array;
  /** Serialized `Key` of `batch_key`, null when absent. */
  batchKey: Uint8Array | null;
  /** Each serialized `CustomFeeLimit` of `max_custom_fees`, in order. */
  maxCustomFees: Uint8Array[];
  highVolume: boolean;
  /** The payload of the typed body (the oneof member `dataField`), null when absent. */
  data: Uint8Array | null;
};

/** Reads the common fields of body bytes; `dataField` is the field number of the body's oneof member. */
export function readBodyFields(bodyBytes: Uint8Array, dataField: number | null): BodyFields {
  const reader = new WireReader("transaction", bodyBytes, "TransactionBody");
  const end = bodyBytes.length;
  const fields: BodyFields = {
    nodeAccountId: null,
    maxFee: 0n,
    validDurationSeconds: null,
    memo: EMPTY,
    batchKey: null,
    maxCustomFees: [],
    highVolume: false,
    data: null,
  };
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (wireType === WIRE_LENGTH_DELIMITED) {
      switch (field) {
        case NODE_ACCOUNT:
          fields.nodeAccountId = readEntityId(reader.lengthDelimited(end));
          continue;
        case VALID_DURATION:
          fields.validDurationSeconds = readDurationSeconds(reader.lengthDelimited(end));
          continue;
        case MEMO:
          fields.memo = reader.lengthDelimited(end);
          continue;
        case BATCH_KEY:
          fields.batchKey = reader.lengthDelimited(end);
          continue;
        case MAX_CUSTOM_FEES:
          fields.maxCustomFees.push(reader.lengthDelimited(end));
          continue;
        default:
          if (field === dataField) {
            fields.data = reader.lengthDelimited(end);
            continue;
          }
      }
    } else if (wireType === WIRE_VARINT) {
      if (field === TRANSACTION_FEE) {
        fields.maxFee = reader.int64(end);
        continue;
      }
      if (field === HIGH_VOLUME) {
        fields.highVolume = reader.uint32(end) !== 0;
        continue;
      }
    }
    reader.skip(wireType, end);
  }
  return fields;
}

/**
 * A packed id from an AccountID / TopicID / TokenID / … message (1 shard, 2 realm, 3 num); null when the num is
 * absent or 0 (an alias-only account names no number), or the id does not fit the packing.
 */
export function readEntityId(bytes: Uint8Array): bigint | null {
  const reader = new WireReader("transaction", bytes, "entity id");
  const end = bytes.length;
  let shard = 0n;
  let realm = 0n;
  let num = 0n;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    if ((tag & 7) === WIRE_VARINT && tag >>> 3 <= 3) {
      const value = reader.int64(end);
      if (tag >>> 3 === 1) shard = value;
      else if (tag >>> 3 === 2) realm = value;
      else num = value;
    } else {
      reader.skip(tag & 7, end);
    }
  }
  if (num === 0n) return null;
  if (shard === 0n && realm === 0n && num > 0n && num <= MAX_NUM) return num;
  try {
    return encodeEntityId(shard, realm, num);
  } catch {
    return null;
  }
}

/** The last occurrence of a length-delimited field of a message, as a view; null when absent. */
export function nestedMessage(bytes: Uint8Array, field: number): Uint8Array | null {
  const reader = new WireReader("transaction", bytes, "TransactionBody member");
  const end = bytes.length;
  let found: Uint8Array | null = null;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    if (tag >>> 3 === field && (tag & 7) === WIRE_LENGTH_DELIMITED) found = reader.lengthDelimited(end);
    else reader.skip(tag & 7, end);
  }
  return found;
}

/** One `AccountAmount` of a body's transfer list. */
export type BodyAccountAmount = { accountId: bigint | null; amount: bigint; isApproval: boolean };

/** The hbar transfers a CryptoTransfer body asks for (`transfers` (1) → `accountAmounts` (1)). */
export function readCryptoTransferAmounts(cryptoTransfer: Uint8Array): BodyAccountAmount[] {
  const transferList = nestedMessage(cryptoTransfer, 1);
  if (transferList === null) return [];
  const reader = new WireReader("transaction", transferList, "TransferList");
  const end = transferList.length;
  const out: BodyAccountAmount[] = [];
  while (reader.pos < end) {
    const tag = reader.tag(end);
    if (tag >>> 3 === 1 && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      out.push(readAccountAmount(reader.lengthDelimited(end)));
    } else {
      reader.skip(tag & 7, end);
    }
  }
  return out;
}

/** `AccountAmount`: 1 accountID, 2 amount (sint64), 3 is_approval. */
function readAccountAmount(bytes: Uint8Array): BodyAccountAmount {
  const reader = new WireReader("transaction", bytes, "AccountAmount");
  const end = bytes.length;
  const entry: BodyAccountAmount = { accountId: null, amount: 0n, isApproval: false };
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      entry.accountId = readEntityId(reader.lengthDelimited(end));
    } else if (field === 2 && (tag & 7) === WIRE_VARINT) {
      const zigzag = BigInt.asUintN(64, reader.int64(end));
      entry.amount = (zigzag & 1n) === 0n ? zigzag >> 1n : -((zigzag + 1n) >> 1n);
    } else if (field === 3 && (tag & 7) === WIRE_VARINT) {
      entry.isApproval = reader.uint32(end) !== 0;
    } else {
      reader.skip(tag & 7, end);
    }
  }
  return entry;
}

/** `Duration.seconds` (field 1); 0 when the duration is present but empty. */
function readDurationSeconds(bytes: Uint8Array): bigint {
  const reader = new WireReader("transaction", bytes, "Duration");
  const end = bytes.length;
  let seconds = 0n;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    if (tag >>> 3 === 1 && (tag & 7) === WIRE_VARINT) seconds = reader.int64(end);
    else reader.skip(tag & 7, end);
  }
  return seconds;
}

/**
 * The fields of a `TransactionRecord` that ingestion reads for every record, read straight off the wire: a
 * record decoded whole with protobufjs (every nested message an object, every int64 a Long, every bytes field a
 * Buffer, the memo a string) costs more than everything the index then does with an hbar transfer or a
 * consensus message. The rarely present parts (contract results, token transfer lists, assessed custom fees,
 * automatic associations, staking reward payouts, pending airdrops, a pricing multiplier) are only flagged in
 * `parts`: whoever needs them decodes the record whole.
 *
 * Values are the generated decoder's, field for field (a repeated message field appends, any other field's last
 * occurrence replaces the earlier ones, defaults for absent fields), and the same facts come from an already
 * decoded record (block streams build record objects) through `recordFieldsOf`. A record this reader cannot take
 * the same way (a field of the messages it reads with another wire type than its schema's, an id the packing
 * cannot hold, malformed bytes) gives null: the caller decodes it whole, which then fails or succeeds exactly as
 * before. Inside the nested messages it skips (contract results, token lists, an exchange rate…) it checks only
 * that lengths stay in bounds: where such a message is itself malformed, the generated decoder reads on past its
 * end, which no node writes and this reader does not imitate.
 *
 * Field numbers are HAPI's (`transaction_record.proto`, `transaction_receipt.proto`, `basic_types.proto`).
 */
import { encodeEntityId, entityIdOf, MAX_NUM } from "../ids.ts";
import { timestampToNs } from "../time.ts";
import { toBigInt } from "./long.ts";
import type { proto } from "./proto.ts";
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT } from "./protobuf-wire.ts";
import { cursor, type Int64, int64At, payloadEnd, sint64At, skip, uint64At, varint32 } from "./wire-scan.ts";

/** Bits of `RecordFields.parts`: which rarely present parts the record holds (non-empty). */
export const RECORD_PARTS = {
  /** `contractCallResult` (7) or `contractCreateResult` (8). */
  contractResult: 1,
  tokenTransferLists: 2,
  assessedCustomFees: 4,
  automaticTokenAssociations: 8,
  paidStakingRewards: 16,
  newPendingAirdrops: 32,
  /** A non-zero `high_volume_pricing_multiplier`. */
  highVolumePricingMultiplier: 64,
} as const;

/** One entry of the record's hbar transfer list that names an account number (others move nobody's hbar). */
export type RecordTransfer = { accountId: bigint; amount: bigint };

export type RecordTransactionId = {
  /** The packed payer, null when the id names no account number. */
  payerId: bigint | null;
  validStartNs: bigint;
  nonce: number;
  scheduled: boolean;
};

export type RecordFields = {
  consensusNs: bigint;
  /** Whether the record has a receipt at all. */
  hasReceipt: boolean;
  /** The receipt's status (0 without a receipt). */
  status: number;
  topicSequenceNumber: bigint;
  /** Empty when absent. */
  topicRunningHash: Uint8Array;
  topicRunningHashVersion: bigint;
  /** Null when the record carries no transaction id (the body's then stands in). */
  transactionId: RecordTransactionId | null;
  /** `transactionFee` (uint64). */
  transactionFee: bigint;
  /** Empty when absent. */
  transactionHash: Uint8Array;
  parentConsensusNs: bigint | null;
  hasScheduleRef: boolean;
  /** The hbar transfer list in record order, entries without an account number left out. */
  transfers: RecordTransfer[];
  /** RECORD_PARTS bits. */
  parts: number;
};

const EMPTY = new Uint8Array(0);
const NS_PER_SECOND = 1_000_000_000n;
const MAX_NUM_VALUE = Number(MAX_NUM);

// TransactionRecord
const RECEIPT = 1;
const TRANSACTION_HASH = 2;
const CONSENSUS_TIMESTAMP = 3;
const TRANSACTION_ID = 4;
const TRANSACTION_FEE = 6;
const CONTRACT_CALL_RESULT = 7;
const CONTRACT_CREATE_RESULT = 8;
const TRANSFER_LIST = 10;
const TOKEN_TRANSFER_LISTS = 11;
const SCHEDULE_REF = 12;
const ASSESSED_CUSTOM_FEES = 13;
const AUTOMATIC_TOKEN_ASSOCIATIONS = 14;
const PARENT_CONSENSUS_TIMESTAMP = 15;
const PAID_STAKING_REWARDS = 18;
const NEW_PENDING_AIRDROPS = 22;
const HIGH_VOLUME_PRICING_MULTIPLIER = 23;
// TransactionReceipt
const RECEIPT_STATUS = 1;
const RECEIPT_TOPIC_SEQUENCE_NUMBER = 7;
const RECEIPT_TOPIC_RUNNING_HASH = 8;
const RECEIPT_TOPIC_RUNNING_HASH_VERSION = 9;
// TransactionID
const ID_VALID_START = 1;
const ID_ACCOUNT = 2;
const ID_SCHEDULED = 3;
const ID_NONCE = 4;

/** Other TransactionRecord fields and their wire types: 5 memo, 16 alias, 17 ethereum hash, 19/20 prng, 21 evm. */
const OTHER_RECORD_WIRE_TYPES: ReadonlyMap<number, number> = new Map([
  [5, WIRE_LENGTH_DELIMITED],
  [16, WIRE_LENGTH_DELIMITED],
  [17, WIRE_LENGTH_DELIMITED],
  [19, WIRE_LENGTH_DELIMITED],
  [20, WIRE_VARINT],
  [21, WIRE_LENGTH_DELIMITED],
]);
/**
 * The receipt's other fields and their wire types (2–6, 10, 12, 13 messages; 11, 15 varints; 14, repeated
 * int64, comes either way).
 */
const OTHER_RECEIPT_WIRE_TYPES: ReadonlyMap<number, number> = new Map([
  [2, WIRE_LENGTH_DELIMITED],
  [3, WIRE_LENGTH_DELIMITED],
  [4, WIRE_LENGTH_DELIMITED],
  [5, WIRE_LENGTH_DELIMITED],
  [6, WIRE_LENGTH_DELIMITED],
  [10, WIRE_LENGTH_DELIMITED],
  [11, WIRE_VARINT],
  [12, WIRE_LENGTH_DELIMITED],
  [13, WIRE_LENGTH_DELIMITED],
  [15, WIRE_VARINT],
]);

/** Length-delimited fields whose presence is a RECORD_PARTS bit. */
const PART_OF_FIELD: ReadonlyMap<number, number> = new Map([
  [CONTRACT_CALL_RESULT, RECORD_PARTS.contractResult],
  [CONTRACT_CREATE_RESULT, RECORD_PARTS.contractResult],
  [TOKEN_TRANSFER_LISTS, RECORD_PARTS.tokenTransferLists],
  [ASSESSED_CUSTOM_FEES, RECORD_PARTS.assessedCustomFees],
  [AUTOMATIC_TOKEN_ASSOCIATIONS, RECORD_PARTS.automaticTokenAssociations],
  [PAID_STAKING_REWARDS, RECORD_PARTS.paidStakingRewards],
  [NEW_PENDING_AIRDROPS, RECORD_PARTS.newPendingAirdrops],
]);

/** Thrown inside the reader when the record must be decoded whole instead. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain();

/** Reads a serialized TransactionRecord's fields; null when it must be decoded whole (see the module comment). */
export function readRecordFields(bytes: Uint8Array): RecordFields | null {
  try {
    return scanRecord(bytes);
  } catch {
    return null;
  }
}

function scanRecord(bytes: Uint8Array): RecordFields {
  const end = bytes.length;
  const fields: RecordFields = {
    consensusNs: 0n,
    hasReceipt: false,
    status: 0,
    topicSequenceNumber: 0n,
    topicRunningHash: EMPTY,
    topicRunningHashVersion: 0n,
    transactionId: null,
    transactionFee: 0n,
    transactionHash: EMPTY,
    parentConsensusNs: null,
    hasScheduleRef: false,
    transfers: [],
    parts: 0,
  };
  let multiplier: Int64 = 0;
  let pos = 0;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (wireType === WIRE_LENGTH_DELIMITED) {
      const stop = payloadEnd(bytes, pos, end);
      const start = cursor;
      pos = stop;
      switch (field) {
        case RECEIPT:
          scanReceipt(bytes, start, stop, fields);
          break;
        case TRANSACTION_HASH:
          fields.transactionHash = bytes.subarray(start, stop);
          break;
        case CONSENSUS_TIMESTAMP:
          fields.consensusNs = timestampAt(bytes, start, stop);
          break;
        case TRANSACTION_ID:
          fields.transactionId = transactionIdAt(bytes, start, stop);
          break;
        case TRANSFER_LIST:
          fields.transfers = transfersAt(bytes, start, stop);
          break;
        case SCHEDULE_REF:
          fields.hasScheduleRef = true;
          break;
        case PARENT_CONSENSUS_TIMESTAMP:
          fields.parentConsensusNs = timestampAt(bytes, start, stop);
          break;
        case TRANSACTION_FEE:
        case HIGH_VOLUME_PRICING_MULTIPLIER:
          throw NOT_PLAIN;
        default: {
          const part = PART_OF_FIELD.get(field);
          if (part !== undefined) fields.parts |= part;
          else checkWireType(OTHER_RECORD_WIRE_TYPES, field, wireType);
        }
      }
    } else if (field === TRANSACTION_FEE || field === HIGH_VOLUME_PRICING_MULTIPLIER) {
      if (wireType !== WIRE_VARINT) throw NOT_PLAIN;
      const value = uint64At(bytes, pos, end);
      pos = cursor;
      if (field === TRANSACTION_FEE) fields.transactionFee = BigInt(value);
      else multiplier = value;
    } else if (isMessageField(field)) {
      throw NOT_PLAIN;
    } else {
      checkWireType(OTHER_RECORD_WIRE_TYPES, field, wireType);
      pos = skip(bytes, wireType, pos, end);
    }
  }
  if (multiplier !== 0 && multiplier !== 0n) fields.parts |= RECORD_PARTS.highVolumePricingMultiplier;
  return fields;
}

/** Throws NOT_PLAIN when `field` is one of `known` and comes with another wire type than its own. */
function checkWireType(known: ReadonlyMap<number, number>, field: number, wireType: number): void {
  const expected = known.get(field);
  if (expected !== undefined && expected !== wireType) throw NOT_PLAIN;
}

/** Fields this reader takes as messages (or bytes): any other wire type for them is not a plain record. */
function isMessageField(field: number): boolean {
  return (
    field === RECEIPT ||
    field === TRANSACTION_HASH ||
    field === CONSENSUS_TIMESTAMP ||
    field === TRANSACTION_ID ||
    field === TRANSFER_LIST ||
    field === SCHEDULE_REF ||
    field === PARENT_CONSENSUS_TIMESTAMP ||
    PART_OF_FIELD.has(field)
  );
}

/** A receipt replaces any earlier one whole, as the decoder's does. */
function scanReceipt(bytes: Uint8Array, start: number, end: number, fields: RecordFields): void {
  fields.hasReceipt = true;
  fields.status = 0;
  fields.topicSequenceNumber = 0n;
  fields.topicRunningHash = EMPTY;
  fields.topicRunningHashVersion = 0n;
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (
      field === RECEIPT_STATUS ||
      field === RECEIPT_TOPIC_SEQUENCE_NUMBER ||
      field === RECEIPT_TOPIC_RUNNING_HASH_VERSION
    ) {
      if (wireType !== WIRE_VARINT) throw NOT_PLAIN;
      if (field === RECEIPT_STATUS) {
        // An enum reads as an int32.
        fields.status = varint32(bytes, pos, end) | 0;
      } else {
        const value = BigInt(uint64At(bytes, pos, end));
        if (field === RECEIPT_TOPIC_SEQUENCE_NUMBER) fields.topicSequenceNumber = value;
        else fields.topicRunningHashVersion = value;
      }
      pos = cursor;
    } else if (field === RECEIPT_TOPIC_RUNNING_HASH) {
      if (wireType !== WIRE_LENGTH_DELIMITED) throw NOT_PLAIN;
      const stop = payloadEnd(bytes, pos, end);
      fields.topicRunningHash = bytes.subarray(cursor, stop);
      pos = stop;
    } else {
      checkWireType(OTHER_RECEIPT_WIRE_TYPES, field, wireType);
      pos = skip(bytes, wireType, pos, end);
    }
  }
}

/** `Timestamp` (1 seconds int64, 2 nanos int32) in nanoseconds. */
function timestampAt(bytes: Uint8Array, start: number, end: number): bigint {
  let seconds: Int64 = 0;
  let nanos = 0;
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    if (field === 1 || field === 2) {
      if ((tag & 7) !== WIRE_VARINT) throw NOT_PLAIN;
      if (field === 1) seconds = int64At(bytes, pos, end);
      else nanos = varint32(bytes, pos, end) | 0;
      pos = cursor;
    } else {
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  return BigInt(seconds) * NS_PER_SECOND + BigInt(nanos);
}

function transactionIdAt(bytes: Uint8Array, start: number, end: number): RecordTransactionId {
  const id: RecordTransactionId = { payerId: null, validStartNs: 0n, nonce: 0, scheduled: false };
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === ID_VALID_START || field === ID_ACCOUNT) {
      if (wireType !== WIRE_LENGTH_DELIMITED) throw NOT_PLAIN;
      const stop = payloadEnd(bytes, pos, end);
      if (field === ID_VALID_START) id.validStartNs = timestampAt(bytes, cursor, stop);
      else id.payerId = accountIdAt(bytes, cursor, stop);
      pos = stop;
    } else if (field === ID_SCHEDULED || field === ID_NONCE) {
      if (wireType !== WIRE_VARINT) throw NOT_PLAIN;
      const value = varint32(bytes, pos, end);
      if (field === ID_SCHEDULED) id.scheduled = value !== 0;
      else id.nonce = value | 0;
      pos = cursor;
    } else {
      pos = skip(bytes, wireType, pos, end);
    }
  }
  return id;
}

/** `TransferList.accountAmounts` (1): each `AccountAmount` (1 accountID, 2 amount sint64). */
function transfersAt(bytes: Uint8Array, start: number, end: number): RecordTransfer[] {
  const out: RecordTransfer[] = [];
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    if (tag >>> 3 !== 1) {
      pos = skip(bytes, tag & 7, pos, end);
      continue;
    }
    if ((tag & 7) !== WIRE_LENGTH_DELIMITED) throw NOT_PLAIN;
    const stop = payloadEnd(bytes, pos, end);
    let at = cursor;
    let accountId: bigint | null = null;
    let amount = 0n;
    while (at < stop) {
      const entryTag = varint32(bytes, at, stop);
      at = cursor;
      const field = entryTag >>> 3;
      if (field === 1) {
        if ((entryTag & 7) !== WIRE_LENGTH_DELIMITED) throw NOT_PLAIN;
        const idEnd = payloadEnd(bytes, at, stop);
        accountId = accountIdAt(bytes, cursor, idEnd);
        at = idEnd;
      } else if (field === 2 || field === 3) {
        if ((entryTag & 7) !== WIRE_VARINT) throw NOT_PLAIN;
        if (field === 2) amount = sint64At(bytes, at, stop);
        else varint32(bytes, at, stop);
        at = cursor;
      } else {
        at = skip(bytes, entryTag & 7, at, stop);
      }
    }
    if (accountId !== null) out.push({ accountId, amount });
    pos = stop;
  }
  return out;
}

/**
 * An `AccountID` (1 shard, 2 realm, 3 accountNum; 4 alias) packed as `entityIdOf` packs it: null without an
 * account number; an id the packing cannot hold is not plain (the decoder's path throws for it).
 */
function accountIdAt(bytes: Uint8Array, start: number, end: number): bigint | null {
  let shard: Int64 = 0;
  let realm: Int64 = 0;
  let num: Int64 | null = null;
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    if (field >= 1 && field <= 3) {
      if ((tag & 7) !== WIRE_VARINT) throw NOT_PLAIN;
      const value = int64At(bytes, pos, end);
      pos = cursor;
      if (field === 1) shard = value;
      else if (field === 2) realm = value;
      else num = value;
    } else {
      // 4 is the alias (bytes).
      if (field === 4 && (tag & 7) !== WIRE_LENGTH_DELIMITED) throw NOT_PLAIN;
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  if (num === null) return null;
  if (shard === 0 && realm === 0 && typeof num === "number" && num >= 0 && num <= MAX_NUM_VALUE) {
    return BigInt(num);
  }
  try {
    return encodeEntityId(BigInt(shard), BigInt(realm), BigInt(num));
  } catch {
    throw NOT_PLAIN;
  }
}

/** The same fields of a record already decoded (or built from a block's items). */
export function recordFieldsOf(record: proto.ITransactionRecord): RecordFields {
  const receipt = record.receipt;
  const id = record.transactionID;
  const transfers: RecordTransfer[] = [];
  for (const entry of record.transferList?.accountAmounts ?? []) {
    const accountId = entityIdOf(entry.accountID);
    if (accountId !== null) transfers.push({ accountId, amount: toBigInt(entry.amount) });
  }
  let parts = 0;
  if (record.contractCallResult != null || record.contractCreateResult != null)
    parts |= RECORD_PARTS.contractResult;
  if (nonEmpty(record.tokenTransferLists)) parts |= RECORD_PARTS.tokenTransferLists;
  if (nonEmpty(record.assessedCustomFees)) parts |= RECORD_PARTS.assessedCustomFees;
  if (nonEmpty(record.automaticTokenAssociations)) parts |= RECORD_PARTS.automaticTokenAssociations;
  if (nonEmpty(record.paidStakingRewards)) parts |= RECORD_PARTS.paidStakingRewards;
  if (nonEmpty(record.newPendingAirdrops)) parts |= RECORD_PARTS.newPendingAirdrops;
  if (toBigInt(record.highVolumePricingMultiplier) !== 0n) parts |= RECORD_PARTS.highVolumePricingMultiplier;
  return {
    consensusNs: timestampToNs(record.consensusTimestamp),
    hasReceipt: receipt != null,
    status: receipt?.status ?? 0,
    topicSequenceNumber: toBigInt(receipt?.topicSequenceNumber),
    topicRunningHash: receipt?.topicRunningHash ?? EMPTY,
    topicRunningHashVersion: toBigInt(receipt?.topicRunningHashVersion),
    transactionId:
      id == null
        ? null
        : {
            payerId: entityIdOf(id.accountID),
            validStartNs: timestampToNs(id.transactionValidStart),
            nonce: id.nonce ?? 0,
            scheduled: id.scheduled ?? false,
          },
    transactionFee: toBigInt(record.transactionFee),
    transactionHash: record.transactionHash ?? EMPTY,
    parentConsensusNs:
      record.parentConsensusTimestamp == null ? null : timestampToNs(record.parentConsensusTimestamp),
    hasScheduleRef: record.scheduleRef != null,
    transfers,
    parts,
  };
}

function nonEmpty(list: readonly unknown[] | null | undefined): boolean {
  return list != null && list.length > 0;
}

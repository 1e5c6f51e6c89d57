/**
 * The common fields of a `TransactionBody` read straight off the wire, for the transaction index: decoding a
 * whole body with protobufjs costs as much as decoding its record, while the index needs a handful of fields
 * of every body (node, fees, duration, memo bytes, batch key, fee limits, the high-volume flag) and, for the
 * commonest types, one id inside the typed body. Nested messages are read in place (offsets into the body,
 * no views or readers allocated): this runs for every record of a catch-up.
 *
 * Field numbers are HAPI's (`transaction.proto`): 2 nodeAccountID, 3 transactionFee, 4 transactionValidDuration,
 * 6 memo, 73 batch_key, 1001 max_custom_fees, 1002 high_volume; the typed body is a oneof member. Ids and
 * amounts that fit 49 bits come back as numbers (no bigint allocated), larger ones as bigints: both bind to
 * SQLite as the same integer.
 */
import { encodeEntityId, MAX_NUM } from "../ids.ts";
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from "./protobuf-wire.ts";
import { cursor, type Int64, int64At, malformed, payloadEnd, skip, varint32 } from "./wire-scan.ts";

const NODE_ACCOUNT = 2;
const TRANSACTION_FEE = 3;
const VALID_DURATION = 4;
const MEMO = 6;
const BATCH_KEY = 73;
const MAX_CUSTOM_FEES = 1001;
const HIGH_VOLUME = 1002;

const EMPTY = new Uint8Array(0);
const MAX_NUM_VALUE = Number(MAX_NUM);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const NO_FEE_LIMITS: Uint8Array[] = [];

export type { Int64 };

export type BodyFields = {
  /** The node account (packed), null when absent or not a plain number. */
  nodeAccountId: Int64 | null;
  /** `transactionFee` (uint64 on the wire) as the int64 the mirror node stores. */
  maxFee: Int64;
  /** `transactionValidDuration.seconds`; null when the body has no duration. */
  validDurationSeconds: Int64 | null;
  /** The memo's bytes as sent (HAPI strings are UTF-8; the index keeps the bytes). */
  memo: Uint8Array;
  /** Serialized `Key` of `batch_key`, null when absent. */
  batchKey: Uint8Array | null;
  /** Each serialized `CustomFeeLimit` of `max_custom_fees`, in order. */
  maxCustomFees: Uint8Array[];
  highVolume: boolean;
  /** The field number of the typed body (the `data` oneof member; the last one, as decoders keep), or null. */
  dataField: number | null;
  /** Where the typed body lies in the body bytes; -1 when absent. */
  dataStart: number;
  dataEnd: number;
};

/**
 * Reads the common fields of body bytes, and finds the typed body: the last length-delimited field that
 * `isDataField` names a member of the `data` oneof. Throws `CorruptFileError` on malformed bytes.
 */
export function readBodyFields(bodyBytes: Uint8Array, isDataField: (field: number) => boolean): BodyFields {
  const end = bodyBytes.length;
  const fields: BodyFields = {
    nodeAccountId: null,
    maxFee: 0,
    validDurationSeconds: null,
    memo: EMPTY,
    batchKey: null,
    maxCustomFees: NO_FEE_LIMITS,
    highVolume: false,
    dataField: null,
    dataStart: -1,
    dataEnd: -1,
  };
  let pos = 0;
  while (pos < end) {
    const tag = varint32(bodyBytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 0) malformed(bodyBytes, "field number 0");
    if (wireType === WIRE_LENGTH_DELIMITED) {
      const length = varint32(bodyBytes, pos, end);
      const start = cursor;
      const stop = start + length;
      if (stop > end) malformed(bodyBytes, "a length runs past the end");
      pos = stop;
      switch (field) {
        case NODE_ACCOUNT:
          fields.nodeAccountId = entityIdAt(bodyBytes, start, stop);
          break;
        case VALID_DURATION:
          fields.validDurationSeconds = int64FieldAt(bodyBytes, start, stop, 1);
          break;
        case MEMO:
          fields.memo = bodyBytes.subarray(start, stop);
          break;
        case BATCH_KEY:
          fields.batchKey = bodyBytes.subarray(start, stop);
          break;
        case MAX_CUSTOM_FEES:
          if (fields.maxCustomFees === NO_FEE_LIMITS) fields.maxCustomFees = [];
          fields.maxCustomFees.push(bodyBytes.subarray(start, stop));
          break;
        default:
          if (isDataField(field)) {
            fields.dataField = field;
            fields.dataStart = start;
            fields.dataEnd = stop;
          }
      }
    } else if (wireType === WIRE_VARINT) {
      if (field === TRANSACTION_FEE) fields.maxFee = int64At(bodyBytes, pos, end);
      else if (field === HIGH_VOLUME) fields.highVolume = varint32(bodyBytes, pos, end) !== 0;
      else int64At(bodyBytes, pos, end);
      pos = cursor;
    } else {
      pos = skip(bodyBytes, wireType, pos, end);
    }
  }
  return fields;
}

/**
 * A packed id from an AccountID / TopicID / TokenID / … message lying at [start, end) (1 shard, 2 realm, 3 num);
 * null when the num is absent or 0 (an alias-only account names no number), or the id does not fit the packing.
 */
export function entityIdAt(bytes: Uint8Array, start: number, end: number): Int64 | null {
  let shard: Int64 = 0;
  let realm: Int64 = 0;
  let num: Int64 = 0;
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    if ((tag & 7) === WIRE_VARINT && field >= 1 && field <= 3) {
      const value = int64At(bytes, pos, end);
      pos = cursor;
      if (field === 1) shard = value;
      else if (field === 2) realm = value;
      else num = value;
    } else {
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  // Shard 0, realm 0 (every network so far): the packed id is the num itself.
  if (shard === 0 && realm === 0 && typeof num === "number")
    return num > 0 && num <= MAX_NUM_VALUE ? num : null;
  if (num === 0 || num === 0n) return null;
  try {
    const packed = encodeEntityId(BigInt(shard), BigInt(realm), BigInt(num));
    return packed >= 0n && packed <= MAX_SAFE ? Number(packed) : packed;
  } catch {
    return null;
  }
}

/** The payload of the last length-delimited `field` of the message at [start, end), as [start, end); null if absent. */
export function nestedAt(
  bytes: Uint8Array,
  start: number,
  end: number,
  field: number,
): [number, number] | null {
  let found: [number, number] | null = null;
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    if ((tag & 7) === WIRE_LENGTH_DELIMITED) {
      const length = varint32(bytes, pos, end);
      const from = cursor;
      pos = from + length;
      if (pos > end) malformed(bytes, "a length runs past the end");
      if (tag >>> 3 === field) found = [from, pos];
    } else {
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  return found;
}

/** One `AccountAmount` of a body's transfer list. */
export type BodyAccountAmount = { accountId: bigint | null; amount: bigint; isApproval: boolean };

/**
 * The hbar transfers a CryptoTransfer body asks for (`transfers` (1) → `accountAmounts` (1)); the typed body lies
 * at [start, end). Rare enough (only records with a debit are matched against it) to use the plain reader.
 */
export function readCryptoTransferAmounts(
  bytes: Uint8Array,
  start: number,
  end: number,
): BodyAccountAmount[] {
  const list = nestedAt(bytes, start, end, 1);
  if (list === null) return [];
  const reader = new WireReader("transaction", bytes, "TransferList", list[0]);
  const out: BodyAccountAmount[] = [];
  while (reader.pos < list[1]) {
    const tag = reader.tag(list[1]);
    if (tag >>> 3 === 1 && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      const entryEnd = reader.lengthDelimitedEnd(list[1]);
      out.push(readAccountAmount(reader, entryEnd));
    } else {
      reader.skip(tag & 7, list[1]);
    }
  }
  return out;
}

/** `AccountAmount`: 1 accountID, 2 amount (sint64), 3 is_approval; the reader is at its start. */
function readAccountAmount(reader: WireReader, end: number): BodyAccountAmount {
  const entry: BodyAccountAmount = { accountId: null, amount: 0n, isApproval: false };
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      const idEnd = reader.lengthDelimitedEnd(end);
      const id = entityIdAt(reader.bytes, reader.pos, idEnd);
      entry.accountId = id === null ? null : BigInt(id);
      reader.pos = idEnd;
    } else if (field === 2 && (tag & 7) === WIRE_VARINT) {
      const zigzag = BigInt.asUintN(64, reader.int64(end));
      entry.amount = (zigzag & 1n) === 0n ? zigzag >> 1n : -((zigzag + 1n) >> 1n);
    } else if (field === 3 && (tag & 7) === WIRE_VARINT) {
      entry.isApproval = reader.uint32(end) !== 0;
    } else {
      reader.skip(tag & 7, end);
    }
  }
  reader.pos = end;
  return entry;
}

/** The int64 varint field `field` of the message at [start, end) (0 when absent). */
function int64FieldAt(bytes: Uint8Array, start: number, end: number, field: number): Int64 {
  let value: Int64 = 0;
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    if (tag >>> 3 === field && (tag & 7) === WIRE_VARINT) {
      value = int64At(bytes, pos, end);
      pos = cursor;
    } else {
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  return value;
}

/**
 * Whether a CryptoTransfer typed body at [start, end) marks any hbar or fungible token transfer as approved
 * (`is_approval`, field 3 of an `AccountAmount` in `transfers` (1) or in a `tokenTransfers` (2) list's
 * `transfers` (2)). Almost none do: without one, nothing about allowances needs the body decoded.
 */
export function hasApprovedTransfers(bytes: Uint8Array, start: number, end: number): boolean {
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    const field = tag >>> 3;
    if ((tag & 7) === WIRE_LENGTH_DELIMITED && (field === 1 || field === 2)) {
      const stop = payloadEnd(bytes, pos, end);
      // A TransferList's entries are field 1, a TokenTransferList's fungible entries field 2.
      if (listHasApproval(bytes, cursor, stop, field === 1 ? 1 : 2)) return true;
      pos = stop;
    } else {
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  return false;
}

/**
 * Whether a `CryptoTransferTransactionBody` (`bytes[start, end)`) marks any token transfer approved, fungible or
 * NFT: without one, matching a record's token lists against the body finds no approval, and the body need not be
 * decoded for it.
 */
export function hasTokenApprovals(bytes: Uint8Array, start: number, end: number): boolean {
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    if ((tag & 7) === WIRE_LENGTH_DELIMITED && tag >>> 3 === 2) {
      const stop = payloadEnd(bytes, pos, end);
      // `cursor` moves as the list is read: its start is kept for the second walk.
      const listStart = cursor;
      // A TokenTransferList's fungible entries are field 2 (approval field 3), its NFT transfers field 3 (field 4).
      if (listHasApproval(bytes, listStart, stop, 2) || listHasApproval(bytes, listStart, stop, 3, 4))
        return true;
      pos = stop;
    } else {
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  return false;
}

function listHasApproval(
  bytes: Uint8Array,
  start: number,
  end: number,
  entryField: number,
  approvalField = 3,
): boolean {
  let pos = start;
  while (pos < end) {
    const tag = varint32(bytes, pos, end);
    pos = cursor;
    if ((tag & 7) === WIRE_LENGTH_DELIMITED && tag >>> 3 === entryField) {
      const stop = payloadEnd(bytes, pos, end);
      let at = cursor;
      while (at < stop) {
        const entryTag = varint32(bytes, at, stop);
        at = cursor;
        if (entryTag >>> 3 === approvalField && (entryTag & 7) === WIRE_VARINT) {
          if (varint32(bytes, at, stop) !== 0) return true;
          at = cursor;
        } else {
          at = skip(bytes, entryTag & 7, at, stop);
        }
      }
      pos = stop;
    } else {
      pos = skip(bytes, tag & 7, pos, end);
    }
  }
  return false;
}

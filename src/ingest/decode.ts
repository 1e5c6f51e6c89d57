import { CorruptFileError } from "../errors.ts";
import { entityIdOf } from "../ids.ts";
import type { SerializedRecords } from "../streams/block-record-bytes.ts";
import { proto } from "../streams/proto.ts";
import { type RecordFields, readRecordFields, recordFieldsOf } from "../streams/record-fields.ts";
import { signatureMapBytes } from "../streams/signature-map.ts";
import { dataCaseOf, isDataField, transactionBodyBytes } from "../streams/transaction-body-bytes.ts";
import { type BodyFields, readBodyFields } from "../streams/transaction-body-fields.ts";
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
  /** The body's common fields and where its typed body lies, read without decoding it. */
  bodyFields: BodyFields;
  /**
   * The record decoded whole, when first read: read `recordFields` first, and the record only for what they do
   * not hold (`recordFields.parts` says which rarely present parts exist).
   */
  record: proto.TransactionRecord;
  /** The record's commonly read fields, read without decoding it (streams/record-fields.ts). */
  recordFields: RecordFields;
  status: number;
  /** Whether the receipt status is one the mirror node treats as success (only those change state). */
  successful: boolean;
  payerId: bigint;
  validStartNs: bigint;
  nonce: number;
  scheduled: boolean;
  chargedFeeTinybars: bigint;
  /**
   * The transaction's `SignatureMap` bytes, null when it has none, read when first asked (only schedules keep
   * signatures). A block's record carries them only for the transactions that need them (BlockRecord).
   */
  readonly signatureMap: Uint8Array | null;
};

const SUCCESS_STATUSES = new Set<number>([
  proto.ResponseCodeEnum.SUCCESS,
  proto.ResponseCodeEnum.FEE_SCHEDULE_FILE_PART_UPLOADED,
  proto.ResponseCodeEnum.SUCCESS_BUT_MISSING_EXPECTED_OPERATION,
]);

/**
 * Reads an item's record fields, and finds its transaction's body and the body's kind, without decoding either:
 * the record and the body are decoded whole when first read (most are never; see streams/record-fields.ts and
 * streams/transaction-body-bytes.ts). Transactions come in three generations: `signedTransactionBytes`
 * (current), `bodyBytes` with `sigMap` (2020–2021), and the deprecated embedded `body` (2019). Throws on
 * undecodable bytes; the caller names the file.
 */
export function decodeItem(item: RecordItem): DecodedItem {
  const fields = readRecordFields(item.recordBytes);
  if (fields === null) {
    // Not a record the field reader takes as the decoder would: decode it now, failing as the decoder fails.
    const record = proto.TransactionRecord.decode(item.recordBytes);
    const bodyBytes = item.bodyBytes ?? transactionBodyBytes(item.transactionBytes);
    return new Item(record, null, recordFieldsOf(record), bodyBytes, undefined, item.transactionBytes);
  }
  return new Item(
    undefined,
    item.recordBytes,
    fields,
    item.bodyBytes ?? transactionBodyBytes(item.transactionBytes),
    undefined,
    item.transactionBytes,
  );
}

/**
 * The transactions of a prepared block (streams/block-record-bytes.ts) as items, read as record file items are:
 * each record's common fields off the wire, the record decoded whole only when something reads a part they do not
 * hold (the reader thread encoded them; decoding them all again here cost more than applying most of them). A
 * record the field reader does not take is decoded now: when that fails, a `CorruptFileError` names block `name`.
 */
export function decodeSerializedRecords(name: string, serialized: SerializedRecords): DecodedItem[] {
  const { records, bodies, recordEnds, bodyEnds } = serialized;
  const signatureMaps = new Map(serialized.signatureMaps);
  const items = new Array<DecodedItem>(recordEnds.length);
  let recordStart = 0;
  let bodyStart = 0;
  for (let i = 0; i < recordEnds.length; i++) {
    const recordBytes = records.subarray(recordStart, recordEnds[i]!);
    const bodyBytes = bodies.subarray(bodyStart, bodyEnds[i]!);
    const sigMap = signatureMaps.get(i) ?? null;
    const fields = readRecordFields(recordBytes);
    if (fields === null) {
      let record: proto.TransactionRecord;
      try {
        record = proto.TransactionRecord.decode(recordBytes);
      } catch (cause) {
        throw new CorruptFileError(
          name,
          `a transaction result does not decode: ${(cause as Error).message}`,
          {
            cause,
          },
        );
      }
      items[i] = new Item(record, null, recordFieldsOf(record), bodyBytes, undefined, null, sigMap);
    } else {
      items[i] = new Item(undefined, recordBytes, fields, bodyBytes, undefined, null, sigMap);
    }
    recordStart = recordEnds[i]!;
    bodyStart = bodyEnds[i]!;
  }
  return items;
}

/**
 * A DecodedItem whose record and body are decoded when first read. A class, so that creating one per
 * transaction costs a plain allocation (an object literal with getters is built the slow way each time).
 */
class Item implements DecodedItem {
  readonly consensusNs: bigint;
  readonly typeId: number;
  readonly bodyCase: string | undefined;
  readonly bodyBytes: Uint8Array;
  readonly bodyFields: BodyFields;
  readonly recordFields: RecordFields;
  readonly status: number;
  readonly successful: boolean;
  readonly payerId: bigint;
  readonly validStartNs: bigint;
  readonly nonce: number;
  readonly scheduled: boolean;
  readonly chargedFeeTinybars: bigint;
  private decodedRecord: proto.TransactionRecord | undefined;
  /** The record's bytes while it is not decoded (null when it was decoded from the start). */
  private readonly recordBytes: Uint8Array | null;
  private decodedBody: proto.TransactionBody | undefined;
  /** The serialized `Transaction` (record files), where the signature map is found when asked. */
  private readonly transactionBytes: Uint8Array | null;
  /** The signature map once found (undefined: not looked for yet). */
  private sigMap: Uint8Array | null | undefined;

  constructor(
    record: proto.TransactionRecord | undefined,
    recordBytes: Uint8Array | null,
    fields: RecordFields,
    bodyBytes: Uint8Array,
    /** The body when the caller decoded it already (a block's transformer reads it first). */
    body: proto.TransactionBody | undefined,
    transactionBytes: Uint8Array | null,
    /** The signature map when the caller has it (a block's record); else found in `transactionBytes`. */
    sigMap?: Uint8Array | null,
  ) {
    this.transactionBytes = transactionBytes;
    this.sigMap = sigMap ?? undefined;
    this.decodedRecord = record;
    this.recordBytes = recordBytes;
    this.decodedBody = body;
    this.recordFields = fields;
    this.bodyBytes = bodyBytes;
    const bodyFields = readBodyFields(bodyBytes, isDataField);
    this.bodyFields = bodyFields;
    const bodyCase = bodyFields.dataField === null ? undefined : dataCaseOf(bodyFields.dataField);
    this.bodyCase = bodyCase;
    this.typeId = transactionTypeId(bodyCase);
    this.consensusNs = fields.consensusNs;
    this.status = fields.status;
    this.successful = SUCCESS_STATUSES.has(fields.status);
    this.chargedFeeTinybars = fields.transactionFee;
    const recordId = fields.transactionId;
    if (recordId !== null) {
      this.payerId = recordId.payerId ?? 0n;
      this.validStartNs = recordId.validStartNs;
      this.nonce = recordId.nonce;
      this.scheduled = recordId.scheduled;
    } else {
      // Records have carried their transaction id since the first streams; the body's stands in otherwise.
      const bodyId = this.body.transactionID;
      this.payerId = entityIdOf(bodyId?.accountID) ?? 0n;
      this.validStartNs = timestampToNs(bodyId?.transactionValidStart);
      this.nonce = bodyId?.nonce ?? 0;
      this.scheduled = bodyId?.scheduled ?? false;
    }
  }

  get record(): proto.TransactionRecord {
    if (this.decodedRecord === undefined) {
      try {
        this.decodedRecord = proto.TransactionRecord.decode(this.recordBytes ?? new Uint8Array());
      } catch (cause) {
        throw new DecodeError(`transaction record does not decode: ${(cause as Error).message}`, { cause });
      }
    }
    return this.decodedRecord;
  }

  get signatureMap(): Uint8Array | null {
    if (this.sigMap === undefined) {
      try {
        this.sigMap = this.transactionBytes === null ? null : signatureMapBytes(this.transactionBytes);
      } catch (cause) {
        throw new DecodeError(`transaction does not decode: ${(cause as Error).message}`, { cause });
      }
    }
    return this.sigMap;
  }

  get body(): proto.TransactionBody {
    if (this.decodedBody === undefined) {
      try {
        this.decodedBody = proto.TransactionBody.decode(this.bodyBytes);
      } catch (cause) {
        throw new DecodeError(`transaction body does not decode: ${(cause as Error).message}`, { cause });
      }
    }
    return this.decodedBody;
  }
}

/** An item whose transaction or record bytes do not decode (the caller turns it into a CorruptFileError). */
export class DecodeError extends Error {}

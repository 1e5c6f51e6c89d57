/**
 * Finds a transaction's `TransactionBody` bytes, and the body's kind, on the wire, without decoding either:
 * decoding a body costs as much as decoding its record, and most bodies are never read (an hbar transfer or a
 * consensus message changes nothing a body alone says). Ingestion decodes a body when something reads it.
 */
import { proto } from "./proto.ts";
import { WIRE_LENGTH_DELIMITED, WireReader } from "./protobuf-wire.ts";

/** `Transaction` fields: 1 body (deprecated, 2019), 4 bodyBytes (2020–2021), 5 signedTransactionBytes. */
const TX_BODY = 1;
const TX_BODY_BYTES = 4;
const TX_SIGNED_TRANSACTION_BYTES = 5;
/** `SignedTransaction` field 1: bodyBytes. */
const SIGNED_BODY_BYTES = 1;

/**
 * The bytes of the `TransactionBody` a serialized `Transaction` carries, in the order of preference the
 * generations imply: signed transaction bytes, then body bytes, then the embedded body (whose encoding is a
 * TransactionBody's). Throws on malformed bytes, or when there is no body at all.
 */
export function transactionBodyBytes(transactionBytes: Uint8Array): Uint8Array {
  const signed = lastField(transactionBytes, TX_SIGNED_TRANSACTION_BYTES, "Transaction");
  if (signed !== null && signed.length > 0)
    return lastField(signed, SIGNED_BODY_BYTES, "SignedTransaction") ?? new Uint8Array();
  const bodyBytes = lastField(transactionBytes, TX_BODY_BYTES, "Transaction");
  if (bodyBytes !== null && bodyBytes.length > 0) return bodyBytes;
  const body = lastField(transactionBytes, TX_BODY, "Transaction");
  if (body !== null) return body;
  throw new Error("transaction has neither signed transaction bytes, body bytes nor a body");
}

/**
 * The field number of the `TransactionBody.data` oneof member the body holds (the last one, as protobuf
 * decoders keep), or null when it holds none. `isDataField` tells oneof members from the body's other fields.
 */
export function bodyDataField(bodyBytes: Uint8Array, isDataField: (field: number) => boolean): number | null {
  const reader = new WireReader("transaction", bodyBytes, "TransactionBody");
  const end = bodyBytes.length;
  let found: number | null = null;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if ((tag & 7) === WIRE_LENGTH_DELIMITED && isDataField(field)) found = field;
    reader.skip(tag & 7, end);
  }
  return found;
}

/** The last occurrence of a length-delimited field (protobuf keeps the last), as a view; null when absent. */
export function lastField(bytes: Uint8Array, field: number, context: string): Uint8Array | null {
  const reader = new WireReader("transaction", bytes, context);
  const end = bytes.length;
  let found: Uint8Array | null = null;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    if (tag >>> 3 === field && (tag & 7) === WIRE_LENGTH_DELIMITED) found = reader.lengthDelimited(end);
    else reader.skip(tag & 7, end);
  }
  return found;
}

/**
 * `TransactionBody.data` members by field number, learnt from the generated decoder itself: a body holding only
 * an empty field n decodes with `data` set to n's member name, or not at all for the body's other fields.
 */
const DATA_CASES: ReadonlyMap<number, string> = (() => {
  const cases = new Map<number, string>();
  for (let field = 1; field < 256; field++) {
    const tag = (field << 3) | 2;
    const bytes = tag < 0x80 ? Uint8Array.of(tag, 0) : Uint8Array.of((tag & 0x7f) | 0x80, tag >>> 7, 0);
    try {
      const data = proto.TransactionBody.decode(bytes).data;
      if (data) cases.set(field, data);
    } catch {
      // not a length-delimited field of TransactionBody
    }
  }
  return cases;
})();

/** Whether `field` is a member of `TransactionBody.data`. */
export const isDataField = (field: number) => DATA_CASES.has(field);

/** The `TransactionBody.data` member name of a field number (`14` → `"cryptoTransfer"`); undefined for others. */
export const dataCaseOf = (field: number): string | undefined => DATA_CASES.get(field);

/**
 * The `TransactionBody.data` member a body holds (`"tokenMint"`…), as the generated decoder would name it, read
 * off the wire without decoding the body; undefined when it holds none. Throws on malformed bytes.
 */
export function bodyCaseOf(bodyBytes: Uint8Array): string | undefined {
  const field = bodyDataField(bodyBytes, isDataField);
  return field === null ? undefined : DATA_CASES.get(field);
}

/**
 * The signature map of a transaction, read off the wire: where it lies in a serialized `Transaction`, and its
 * pairs as the mirror node keeps them for schedules (`EntityRecordItemListener.insertTransactionSignatures`).
 */
import { WIRE_LENGTH_DELIMITED, WireReader } from "./protobuf-wire.ts";
import { lastField } from "./transaction-body-bytes.ts";

/** `Transaction` fields: 3 sigMap (deprecated, with bodyBytes), 5 signedTransactionBytes. */
const TX_SIG_MAP = 3;
const TX_SIGNED_TRANSACTION_BYTES = 5;
/** `SignedTransaction` field 2: sigMap. */
const SIGNED_SIG_MAP = 2;
/** `SignatureMap` field 1: sigPair (repeated). */
const MAP_SIG_PAIR = 1;
/** `SignaturePair` field 1: pubKeyPrefix; fields 2 to 6 are the known members of the `signature` oneof. */
const PAIR_PREFIX = 1;
const FIRST_KNOWN_SIGNATURE = 2;
const LAST_KNOWN_SIGNATURE = 6;

/** One signature pair: its public key prefix, its signature bytes and the field number that held them. */
export type SignaturePairFacts = { publicKeyPrefix: Uint8Array; signature: Uint8Array; type: number };

/**
 * The `SignatureMap` bytes of a serialized `Transaction`: the signed transaction's (current), else the
 * deprecated `sigMap` beside `bodyBytes`; null when there is none. Throws on malformed bytes.
 */
export function signatureMapBytes(transactionBytes: Uint8Array): Uint8Array | null {
  const signed = lastField(transactionBytes, TX_SIGNED_TRANSACTION_BYTES, "Transaction");
  if (signed !== null && signed.length > 0) return lastField(signed, SIGNED_SIG_MAP, "SignedTransaction");
  return lastField(transactionBytes, TX_SIG_MAP, "Transaction");
}

/**
 * The pairs of a `SignatureMap` as the mirror node stores them: the signature of the oneof member the pair holds
 * (the last one on the wire, as protobuf reads a oneof); for a member newer than the known ones, the lowest
 * numbered unknown field that occurs exactly once length-delimited, its number as the type (a pair with none is
 * skipped); a public key prefix seen before in the same map is skipped, the first occurrence kept.
 */
export function readSignaturePairs(sigMap: Uint8Array): SignaturePairFacts[] {
  const out: SignaturePairFacts[] = [];
  const seen = new Set<string>();
  const reader = new WireReader("transaction", sigMap, "SignatureMap");
  while (reader.pos < sigMap.length) {
    const tag = reader.tag(sigMap.length);
    if (tag >>> 3 !== MAP_SIG_PAIR || (tag & 7) !== WIRE_LENGTH_DELIMITED) {
      reader.skip(tag & 7, sigMap.length);
      continue;
    }
    const pair = readPair(reader.lengthDelimited(sigMap.length));
    if (pair === null) continue;
    const key = Buffer.from(pair.publicKeyPrefix).toString("latin1");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(pair);
  }
  return out;
}

function readPair(bytes: Uint8Array): SignaturePairFacts | null {
  const reader = new WireReader("transaction", bytes, "SignaturePair");
  let prefix: Uint8Array = new Uint8Array();
  let known: { type: number; signature: Uint8Array } | null = null;
  /** Unknown length-delimited fields: their value, or null once one occurs twice. */
  const unknown = new Map<number, Uint8Array | null>();
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if ((tag & 7) !== WIRE_LENGTH_DELIMITED) {
      reader.skip(tag & 7, bytes.length);
      continue;
    }
    const value = reader.lengthDelimited(bytes.length);
    if (field === PAIR_PREFIX) prefix = value;
    else if (field >= FIRST_KNOWN_SIGNATURE && field <= LAST_KNOWN_SIGNATURE)
      known = { type: field, signature: value };
    else unknown.set(field, unknown.has(field) ? null : value);
  }
  if (known !== null) return { publicKeyPrefix: prefix, ...known };
  const fields = [...unknown.keys()].sort((a, b) => a - b);
  for (const field of fields) {
    const value = unknown.get(field);
    if (value != null) return { publicKeyPrefix: prefix, signature: value, type: field };
  }
  return null;
}

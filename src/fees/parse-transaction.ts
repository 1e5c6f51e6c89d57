import { proto } from "../streams/proto.ts";
import { FeeEstimateError, NO_BODY_BYTES, UNABLE_TO_PARSE } from "./errors.ts";

/** What the estimator needs from a POSTed `proto.Transaction`. */
export type ParsedTransaction = {
  body: proto.TransactionBody;
  /** Signature pairs in the sigMap that goes with the body: counted, never verified. */
  signatures: bigint;
  /** The serialized size of the outer `Transaction`: the node's PROCESSING_BYTES count. */
  bytes: bigint;
};

/**
 * Reads a `Transaction` as the mirror node does (fees.md §2): `signedTransactionBytes` wins over the legacy
 * `bodyBytes` + `sigMap`; the deprecated `body`/`sigs` fields are ignored. Any decode failure (protobufjs throws
 * plain Errors and RangeErrors on garbage) becomes `Unable to parse transaction`.
 */
export function parseTransaction(bytes: Uint8Array): ParsedTransaction {
  const tx = decode(() => proto.Transaction.decode(bytes));
  if (tx.signedTransactionBytes != null && tx.signedTransactionBytes.length > 0) {
    const signedBytes = tx.signedTransactionBytes;
    const signed = decode(() => proto.SignedTransaction.decode(signedBytes));
    const body = decode(() => proto.TransactionBody.decode(signed.bodyBytes ?? new Uint8Array()));
    return { body, signatures: BigInt(signed.sigMap?.sigPair?.length ?? 0), bytes: measure(tx) };
  }
  if (tx.bodyBytes != null && tx.bodyBytes.length > 0) {
    const bodyBytes = tx.bodyBytes;
    const body = decode(() => proto.TransactionBody.decode(bodyBytes));
    return { body, signatures: BigInt(tx.sigMap?.sigPair?.length ?? 0), bytes: measure(tx) };
  }
  throw new FeeEstimateError(NO_BODY_BYTES);
}

function decode<T>(read: () => T): T {
  try {
    return read();
  } catch {
    throw new FeeEstimateError(UNABLE_TO_PARSE);
  }
}

/**
 * The Java library re-measures the parsed message, so unknown fields and explicitly encoded empty fields of the
 * outer message do not count; for ordinary input this is the body length. Summed field by field: re-encoding
 * would copy the (opaque, often kilobytes long) signed transaction bytes on every request.
 */
function measure(tx: proto.Transaction): bigint {
  let size = 0;
  const field = (length: number) => {
    size += 1 + varintSize(length) + length;
  };
  if (tx.body != null) field(proto.TransactionBody.encode(tx.body).finish().length);
  if (tx.sigs != null) field(proto.SignatureList.encode(tx.sigs).finish().length);
  if (tx.sigMap != null) field(proto.SignatureMap.encode(tx.sigMap).finish().length);
  if (tx.bodyBytes != null && tx.bodyBytes.length > 0) field(tx.bodyBytes.length);
  if (tx.signedTransactionBytes != null && tx.signedTransactionBytes.length > 0) {
    field(tx.signedTransactionBytes.length);
  }
  return BigInt(size);
}

function varintSize(value: number): number {
  let bytes = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) bytes++;
  return bytes;
}

import Long from "long";
import { proto } from "../../src/streams/proto.ts";

/** An ED25519 key whose 32 bytes are all `fill`. */
export function ed25519(fill = 1): proto.IKey {
  return { ed25519: new Uint8Array(32).fill(fill) };
}

/** Signature pairs as fees.md §8.2 writes them: prefix [i], 64 zero bytes of ED25519 signature. */
export function sigMap(signatures: number): proto.ISignatureMap | null {
  if (signatures === 0) return null;
  return {
    sigPair: Array.from({ length: signatures }, (_, i) => ({
      pubKeyPrefix: new Uint8Array([i]),
      ed25519: new Uint8Array(64),
    })),
  };
}

/** `Transaction{signedTransactionBytes: SignedTransaction{bodyBytes, sigMap}}` bytes. */
export function signedTransaction(body: proto.ITransactionBody, signatures = 1): Uint8Array {
  const signed = proto.SignedTransaction.encode({
    bodyBytes: proto.TransactionBody.encode(body).finish(),
    sigMap: sigMap(signatures),
  }).finish();
  return proto.Transaction.encode({ signedTransactionBytes: signed }).finish();
}

/** The legacy form: `Transaction{sigMap, bodyBytes}`. */
export function legacyTransaction(body: proto.ITransactionBody, signatures = 1): Uint8Array {
  return proto.Transaction.encode({
    sigMap: sigMap(signatures),
    bodyBytes: proto.TransactionBody.encode(body).finish(),
  }).finish();
}

export const account = (num: number): proto.IAccountID => ({ accountNum: Long.fromNumber(num) });
export const token = (num: number): proto.ITokenID => ({ tokenNum: Long.fromNumber(num) });

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

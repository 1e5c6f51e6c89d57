/**
 * Signature maps read off the wire as the mirror node keeps them for schedules: where the map lies in each
 * generation of `Transaction`, the type of each pair (the oneof member's field number, or for a member newer than
 * the known ones the lowest unknown field that occurs once), and a public key prefix repeated within one map
 * kept once, the first.
 */
import { describe, expect, it } from "vitest";
import { proto } from "../../src/streams/proto.ts";
import { WireWriter } from "../../src/streams/protobuf-wire.ts";
import { readSignaturePairs, signatureMapBytes } from "../../src/streams/signature-map.ts";

const bytes = (fill: number, length: number) => new Uint8Array(length).fill(fill);
const hex = (value: Uint8Array) => Buffer.from(value).toString("hex");

/** A `SignatureMap` whose pairs are given as raw `SignaturePair` bytes. */
function rawMap(pairs: Uint8Array[]): Uint8Array {
  const map = new WireWriter();
  for (const pair of pairs) map.bytesField(1, pair);
  return map.finish();
}

describe("readSignaturePairs", () => {
  it("reads each known member as its field number, in map order", () => {
    const map = proto.SignatureMap.encode({
      sigPair: [
        { pubKeyPrefix: bytes(1, 32), ed25519: bytes(0xab, 64) },
        { pubKeyPrefix: bytes(2, 33), ECDSASecp256k1: bytes(0xcd, 64) },
        { pubKeyPrefix: bytes(3, 4), contract: bytes(0xef, 3) },
        { pubKeyPrefix: bytes(4, 4), RSA_3072: bytes(0x11, 5) },
        { pubKeyPrefix: bytes(5, 4), ECDSA_384: bytes(0x22, 6) },
      ],
    }).finish();
    expect(readSignaturePairs(map).map((p) => [hex(p.publicKeyPrefix), p.type, p.signature.length])).toEqual([
      [hex(bytes(1, 32)), 3, 64],
      [hex(bytes(2, 33)), 6, 64],
      [hex(bytes(3, 4)), 2, 3],
      [hex(bytes(4, 4)), 4, 5],
      [hex(bytes(5, 4)), 5, 6],
    ]);
  });

  it("keeps the first of pairs that repeat a prefix, the empty prefix included", () => {
    const map = proto.SignatureMap.encode({
      sigPair: [
        { pubKeyPrefix: bytes(1, 2), ed25519: bytes(0xa1, 64) },
        { pubKeyPrefix: new Uint8Array(), ed25519: bytes(0xa2, 64) },
        { pubKeyPrefix: bytes(1, 2), ECDSASecp256k1: bytes(0xa3, 64) },
        { pubKeyPrefix: new Uint8Array(), ed25519: bytes(0xa4, 64) },
        { pubKeyPrefix: bytes(1, 3), ed25519: bytes(0xa5, 64) },
      ],
    }).finish();
    expect(readSignaturePairs(map).map((p) => [hex(p.publicKeyPrefix), p.signature[0]])).toEqual([
      ["0101", 0xa1],
      ["", 0xa2],
      ["010101", 0xa5],
    ]);
  });

  it("takes the last known member when a pair holds two, as protobuf reads a oneof", () => {
    const pair = new WireWriter()
      .bytesField(1, bytes(7, 2))
      .bytesField(3, bytes(1, 4))
      .bytesField(6, bytes(2, 4));
    expect(readSignaturePairs(rawMap([pair.finish()]))).toEqual([
      { publicKeyPrefix: bytes(7, 2), signature: bytes(2, 4), type: 6 },
    ]);
  });

  it("reads a newer member from the lowest unknown field that occurs once, and skips a pair with none", () => {
    const newer = new WireWriter()
      .bytesField(1, bytes(9, 2))
      .bytesField(12, bytes(3, 4))
      .bytesField(8, bytes(4, 4))
      .bytesField(8, bytes(5, 4))
      .bytesField(10, bytes(6, 4))
      .varintField(7, 1);
    const none = new WireWriter().bytesField(1, bytes(8, 2)).varintField(9, 5);
    expect(readSignaturePairs(rawMap([newer.finish(), none.finish()]))).toEqual([
      // Field 8 occurs twice, so field 10 is the lowest that occurs once.
      { publicKeyPrefix: bytes(9, 2), signature: bytes(6, 4), type: 10 },
    ]);
  });
});

describe("signatureMapBytes", () => {
  const sigMap = { sigPair: [{ pubKeyPrefix: bytes(1, 32), ed25519: bytes(0xab, 64) }] };
  const encodedMap = hex(proto.SignatureMap.encode(sigMap).finish());
  const bodyBytes = proto.TransactionBody.encode({ memo: "x" }).finish();

  it("finds the map of a signed transaction, of a 2020 transaction, and none in a 2019 one", () => {
    const signed = proto.SignedTransaction.encode({ bodyBytes, sigMap }).finish();
    const current = proto.Transaction.encode({ signedTransactionBytes: signed }).finish();
    expect(hex(signatureMapBytes(current)!)).toBe(encodedMap);
    const legacy = proto.Transaction.encode({ bodyBytes, sigMap }).finish();
    expect(hex(signatureMapBytes(legacy)!)).toBe(encodedMap);
    const unsigned = proto.Transaction.encode({
      signedTransactionBytes: proto.SignedTransaction.encode({ bodyBytes }).finish(),
    }).finish();
    expect(signatureMapBytes(unsigned)).toBeNull();
  });
});

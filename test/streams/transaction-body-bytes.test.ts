import Long from "long";
import { describe, expect, it } from "vitest";
import { proto } from "../../src/streams/proto.ts";
import { bodyDataField, transactionBodyBytes } from "../../src/streams/transaction-body-bytes.ts";

const body = proto.TransactionBody.create({
  transactionFee: Long.fromNumber(100_000),
  memo: "lazy",
  consensusSubmitMessage: { topicID: { topicNum: Long.fromNumber(7) }, message: Uint8Array.of(1, 2, 3) },
});
const bodyBytes = proto.TransactionBody.encode(body).finish();
const isData = (field: number) => field >= 7;

describe("a transaction's body bytes, found without decoding", () => {
  it("reads signed transaction bytes (current), body bytes (2020–2021) and an embedded body (2019) alike", () => {
    const signed = proto.SignedTransaction.encode({ bodyBytes, sigMap: { sigPair: [] } }).finish();
    const generations = [
      proto.Transaction.encode({ signedTransactionBytes: signed }).finish(),
      proto.Transaction.encode({ bodyBytes, sigMap: { sigPair: [] } }).finish(),
      proto.Transaction.encode({ body }).finish(),
    ];
    for (const transaction of generations) {
      const found = transactionBodyBytes(transaction);
      expect(Buffer.from(proto.TransactionBody.encode(proto.TransactionBody.decode(found)).finish())).toEqual(
        Buffer.from(bodyBytes),
      );
      expect(bodyDataField(found, isData)).toBe(27);
    }
  });

  it("refuses a transaction with no body, and malformed bytes", () => {
    expect(() => transactionBodyBytes(proto.Transaction.encode({}).finish())).toThrow(/neither/);
    expect(() => transactionBodyBytes(Uint8Array.of(0x2a, 0x05, 0x01))).toThrow(/undecodable protobuf/);
  });

  it("finds no data field in a body that has none", () => {
    const bare = proto.TransactionBody.encode({ memo: "only a memo" }).finish();
    expect(bodyDataField(bare, isData)).toBeNull();
  });
});

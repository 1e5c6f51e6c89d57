import Long from "long";
import { describe, expect, it } from "vitest";
import { CorruptFileError } from "../../src/errors.ts";
import { proto } from "../../src/streams/proto.ts";
import { readSubmitMessage } from "../../src/streams/submit-message-body.ts";

const encode = (body: proto.ITransactionBody) => proto.TransactionBody.encode(body).finish();

describe("readSubmitMessage", () => {
  it("reads the topic, the message and the chunk info as protobuf decodes them", () => {
    const initial: proto.ITransactionID = {
      accountID: { accountNum: Long.fromNumber(1002) },
      transactionValidStart: { seconds: Long.fromNumber(1_700_000_000), nanos: 7 },
      nonce: 1,
      scheduled: true,
    };
    const bytes = encode({
      transactionID: { accountID: { accountNum: Long.fromNumber(5) } },
      memo: "memo",
      consensusSubmitMessage: {
        topicID: {
          shardNum: Long.fromNumber(1),
          realmNum: Long.fromNumber(2),
          topicNum: Long.fromNumber(1005),
        },
        message: Buffer.from("hello"),
        chunkInfo: { initialTransactionID: initial, number: 2, total: 3 },
      },
    });
    const fields = readSubmitMessage(bytes)!;
    const decoded = proto.TransactionBody.decode(bytes).consensusSubmitMessage!;
    expect(fields.topic).toEqual({ shard: 1n, realm: 2n, num: 1005n });
    expect(Buffer.from(fields.message)).toEqual(Buffer.from(decoded.message!));
    expect(fields.chunk).toMatchObject({ number: 2, total: 3 });
    expect(proto.TransactionID.decode(fields.chunk!.initialTransactionId!)).toEqual(
      proto.TransactionID.decode(proto.TransactionID.encode(initial).finish()),
    );
  });

  it("reads a message sent whole, an empty one, and none", () => {
    const whole = readSubmitMessage(
      encode({ consensusSubmitMessage: { topicID: { topicNum: Long.fromNumber(7) } } }),
    );
    expect(whole).toEqual({
      topic: { shard: 0n, realm: 0n, num: 7n },
      message: new Uint8Array(),
      chunk: null,
    });
    expect(readSubmitMessage(encode({ consensusSubmitMessage: {} }))).toEqual({
      topic: null,
      message: new Uint8Array(),
      chunk: null,
    });
    expect(readSubmitMessage(encode({ cryptoTransfer: {} }))).toBeNull();
  });

  it("merges a repeated body as decoders do (the last scalar wins), and refuses truncated bytes", () => {
    const first = encode({
      consensusSubmitMessage: { topicID: { topicNum: Long.fromNumber(9) }, message: Buffer.from("one") },
    });
    const second = encode({ consensusSubmitMessage: { message: Buffer.from("two") } });
    const both = Buffer.concat([first, second]);
    const merged = proto.TransactionBody.decode(both).consensusSubmitMessage!;
    const fields = readSubmitMessage(both)!;
    expect(Buffer.from(fields.message).toString()).toBe(Buffer.from(merged.message!).toString());
    expect(fields.topic).toEqual({ shard: 0n, realm: 0n, num: 9n });
    expect(() => readSubmitMessage(second.subarray(0, second.length - 1))).toThrow(CorruptFileError);
  });
});

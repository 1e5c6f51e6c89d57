/**
 * The scenario simulator's ConsensusSubmitMessage: receipts with sequence numbers and version-3 running hashes
 * (checked against the HAPI formula), submit keys signing, chunks as an SDK and a hand-written scenario set
 * them, and the statuses a node gives where it refuses a message.
 */
import { describe, expect, it } from "vitest";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import { runningHashV3 } from "../helpers/topic-running-hash.ts";
import { simulate } from "./scenario-helpers.ts";

const SETUP = `
  - cryptoCreate: { name: alice, balance: "100 hbar" }
  - cryptoCreate: { name: bob, balance: "100 hbar" }
  - consensusCreateTopic: { topic: T, keys: { admin: alice, submit: bob }, label: create }
`;

describe("consensusSubmitMessage", () => {
  it("numbers messages from 1 and chains the running hash as a node does, signed by the submit key", () => {
    const sim = simulate(`${SETUP}
  - consensusSubmitMessage: { topic: T, message: "one", payer: alice, label: m1 }
  - consensusSubmitMessage: { topic: T, message: "hex:00ff", payer: bob, label: m2 }
`);
    const topic = BigInt(sim.step("create").summary.entityId!.split(".")[2]!);
    let previous: Buffer = Buffer.alloc(48);
    for (const [label, payer, bytes] of [
      ["m1", sim.num("alice"), Buffer.from("one")],
      ["m2", sim.num("bob"), Buffer.from([0, 255])],
    ] as const) {
      const { item, summary } = sim.step(label);
      const receipt = item.record.receipt!;
      expect(receipt.status).toBe(proto.ResponseCodeEnum.SUCCESS);
      expect(Buffer.from(item.body.consensusSubmitMessage!.message!)).toEqual(bytes);
      const expected = runningHashV3({
        previous,
        payer: [0n, 0n, payer],
        topic: [0n, 0n, topic],
        consensusNs: item.consensusNs,
        sequenceNumber: toBigInt(receipt.topicSequenceNumber),
        message: bytes,
      });
      expect(Buffer.from(receipt.topicRunningHash!)).toEqual(expected);
      expect(toBigInt(receipt.topicRunningHashVersion)).toBe(3n);
      expect(summary.message).toEqual({
        sequenceNumber: label === "m1" ? "1" : "2",
        runningHash: expected.toString("base64"),
      });
      // The payer's and the submit key's signatures.
      expect(item.signed.sigMap!.sigPair!.length).toBe(payer === sim.num("bob") ? 1 : 2);
      previous = expected;
    }
  });

  it("splits a long message into chunks as an SDK does: one transaction each, naming the first", () => {
    const sim = simulate(`${SETUP}
  - consensusSubmitMessage: { topic: T, payer: alice, message: "abcdefghij", chunkSize: 4, label: long }
`);
    const chunks = ["long", "long#2", "long#3"].map((label) => sim.step(label));
    const first = chunks[0]!.item.body.transactionID!;
    chunks.forEach(({ item }, i) => {
      const body = item.body.consensusSubmitMessage!;
      expect(Buffer.from(body.message!).toString()).toBe(["abcd", "efgh", "ij"][i]);
      expect(body.chunkInfo!.number).toBe(i + 1);
      expect(body.chunkInfo!.total).toBe(3);
      expect(proto.TransactionID.encode(body.chunkInfo!.initialTransactionID!).finish()).toEqual(
        proto.TransactionID.encode(first).finish(),
      );
      // Valid starts one nanosecond apart, as the SDK gives its chunks.
      const start = item.body.transactionID!.transactionValidStart!;
      expect(start.nanos).toBe((first.transactionValidStart!.nanos ?? 0) + i);
      expect(toBigInt(item.record.receipt!.topicSequenceNumber)).toBe(BigInt(i + 1));
    });
  });

  it("refuses what a node refuses", () => {
    const refused = (steps: string) => () => simulate(`${SETUP}${steps}`);
    expect(refused(`  - consensusSubmitMessage: { topic: T, message: "" }\n`)).toThrow(
      /INVALID_TOPIC_MESSAGE/,
    );
    expect(refused(`  - consensusSubmitMessage: { topic: T, message: "${"x".repeat(1025)}" }\n`)).toThrow(
      /MESSAGE_SIZE_TOO_LARGE/,
    );
    expect(
      refused(`  - consensusSubmitMessage: { topic: T, message: x, chunkInfo: { number: 3, total: 2 } }\n`),
    ).toThrow(/INVALID_CHUNK_NUMBER/);
    expect(
      refused(`  - consensusSubmitMessage: { topic: T, message: x, payer: alice, chunkInfo: { number: 1, total: 2 }, label: a }
  - consensusSubmitMessage: { topic: T, message: y, payer: bob, chunkInfo: { number: 2, total: 2, initialTransaction: a } }
`),
    ).toThrow(/INVALID_CHUNK_TRANSACTION_ID/);
    expect(
      refused(`  - consensusDeleteTopic: { topic: T, payer: alice }
  - consensusSubmitMessage: { topic: T, message: x }
`),
    ).toThrow(/INVALID_TOPIC_ID/);
    expect(() =>
      simulate(`${SETUP}
  - consensusCreateTopic: { topic: F, customFees: [{ fixed: { amount: 5, collector: alice } }] }
  - consensusSubmitMessage: { topic: F, message: x }
`),
    ).toThrow(/custom fees, which are not simulated/);
  });

  it("writes no message and keeps the chain where a declared failure leaves it", () => {
    const sim = simulate(`${SETUP}
  - consensusSubmitMessage: { topic: T, message: one, fail: INVALID_SIGNATURE, label: failed }
  - consensusSubmitMessage: { topic: T, message: two, label: next }
`);
    const failed = sim.step("failed").item.record.receipt!;
    expect(failed.status).toBe(proto.ResponseCodeEnum.INVALID_SIGNATURE);
    expect(toBigInt(failed.topicSequenceNumber)).toBe(0n);
    expect(toBigInt(sim.step("next").item.record.receipt!.topicSequenceNumber)).toBe(1n);
  });
});

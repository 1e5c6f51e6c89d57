/**
 * What the topics scenario cannot produce: a chunk that names no initial transaction (nodes refuse those
 * today; early HCS records have them) and a running hash version other than 3, rendered as upstream's view does.
 */
import { describe, expect, it } from "vitest";
import { topicMessageJson } from "../../src/api/views/topics.ts";
import type { TopicMessageRecord } from "../../src/store/topics.ts";

const record: TopicMessageRecord = {
  consensusNs: 1_234_567_890_000_000_002n,
  topicId: 7n,
  sequenceNumber: 2n,
  payerId: 10n,
  runningHashVersion: 2n,
  runningHashBase64: Buffer.from("running_hash").toString("base64"),
  messageBase64: Buffer.from("message").toString("base64"),
  chunkNum: 2n,
  chunkTotal: 3n,
  initialTransactionId: null,
  validStartNs: 1_234_567_890_000_000_000n,
};

describe("a topic message", () => {
  it("names its own payer and valid start, nonce and scheduled null, for a chunk without an initial id", () => {
    expect(JSON.parse(topicMessageJson(record))).toEqual({
      chunk_info: {
        initial_transaction_id: {
          account_id: "0.0.10",
          nonce: null,
          scheduled: null,
          transaction_valid_start: "1234567890.000000000",
        },
        number: 2,
        total: 3,
      },
      consensus_timestamp: "1234567890.000000002",
      message: "bWVzc2FnZQ==",
      payer_account_id: "0.0.10",
      running_hash: "cnVubmluZ19oYXNo",
      running_hash_version: 2,
      sequence_number: 2,
      topic_id: "0.0.7",
    });
  });

  it("shows a message sent whole with null chunk info, and its bytes as UTF-8 on request", () => {
    const whole = { ...record, chunkNum: null, chunkTotal: null, validStartNs: null };
    const body = JSON.parse(topicMessageJson(whole, true)) as Record<string, unknown>;
    expect(body.chunk_info).toBeNull();
    expect(body.message).toBe("message");
  });
});

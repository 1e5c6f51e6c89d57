import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { type Client, Timestamp, type TopicMessage, TopicMessageQuery } from "@hiero-ledger/sdk";
import Long from "long";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyScenarioBlocks, expectedLedger } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";
import { rawCall, SUBSCRIBE_TOPIC, sdkClient, topicQuery } from "./grpc-client.ts";

/**
 * `subscribeTopic` through the official SDK's `TopicMessageQuery` (and a raw grpc-js client for exact status
 * texts), against the real service replaying the `topics` scenario: the first part of the stream is indexed
 * before the subscriptions start, the rest arrives while they are open. REST's answers for the same topic are
 * the oracle.
 */
const SCENARIO = "topics";
const ledger = expectedLedger(SCENARIO);
const NEWS = "0.0.1005";
const ALICE = "0.0.1001";
/**
 * Record files indexed before any subscription (the first three chunks of the story: its last one comes later);
 * then those copied in during the first live test, then the rest, during the second.
 */
const FIRST_PART = 5;
const SECOND_PART = 8;

type RestMessage = {
  consensus_timestamp: string;
  sequence_number: number;
  message: string;
  running_hash: string;
  chunk_info: { number: number; total: number; initial_transaction_id: unknown } | null;
};

let service: TestService;
let dir: string;
let removeDir: () => void;
let client: Client;
let grpcPort: number;

beforeAll(async () => {
  const temp = tempDir();
  removeDir = temp.remove;
  dir = join(temp.dir, "record0.0.3");
  mkdirSync(dir);
  copyScenarioBlocks(SCENARIO, ledger, dir, 0, FIRST_PART);
  service = await startTestService({ recordsDir: dir, grpcPort: 0 });
  await service.ingest.settled;
  grpcPort = service.grpcPort!;
  client = sdkClient(grpcPort);
});

afterAll(async () => {
  client?.close();
  await service?.stop();
  removeDir?.();
});

/**
 * Every message of a topic the REST API lists, in consensus order. `limit` only varies the URL: a list answer may
 * be cached for a second, so a read after new files asks with another one.
 */
async function restMessages(topic: string, limit = 100): Promise<RestMessage[]> {
  const response = await service.get(`/api/v1/topics/${topic}/messages?limit=${limit}&order=asc`);
  expect(response.status).toBe(200);
  return (response.body as { messages: RestMessage[] }).messages;
}

const timestampOf = (text: string) => {
  const [seconds, nanos] = text.split(".") as [string, string];
  return new Timestamp(Long.fromString(seconds), Number(nanos));
};
const textOf = (m: TopicMessage) => Buffer.from(m.contents).toString("base64");
const timeText = (t: Timestamp) => `${t.seconds.toString()}.${String(t.nanos.toNumber()).padStart(9, "0")}`;

/** What an SDK listener should receive for these REST messages: chunks joined once all of a group arrived. */
function assembled(
  messages: readonly RestMessage[],
): Array<{ contents: string; sequence: number; time: string }> {
  const out: Array<{ contents: string; sequence: number; time: string }> = [];
  const groups = new Map<string, RestMessage[]>();
  for (const m of messages) {
    if (m.chunk_info === null || m.chunk_info.total === 1) {
      out.push({ contents: m.message, sequence: m.sequence_number, time: m.consensus_timestamp });
      continue;
    }
    const key = JSON.stringify(m.chunk_info.initial_transaction_id);
    const group = [...(groups.get(key) ?? []), m];
    groups.set(key, group);
    if (group.length === m.chunk_info.total) {
      const parts = [...group].sort((a, b) => a.chunk_info!.number - b.chunk_info!.number);
      const contents = Buffer.concat(parts.map((p) => Buffer.from(p.message, "base64"))).toString("base64");
      out.push({ contents, sequence: m.sequence_number, time: m.consensus_timestamp });
    }
  }
  return out;
}

/** Subscribes and resolves once the completion handler runs (or rejects on the error handler). */
function collect(query: TopicMessageQuery): Promise<TopicMessage[]> {
  return new Promise((resolve, reject) => {
    const received: TopicMessage[] = [];
    query
      .setMaxAttempts(0)
      .setCompletionHandler(() => resolve(received))
      .subscribe(
        client,
        (_message, error) => reject(error),
        (message) => received.push(message),
      );
  });
}

/** Waits (up to 30 s, polling) until `done` holds. */
async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A counter's value on /metrics. */
async function metric(name: string): Promise<number> {
  const text = (await service.get("/metrics")).text;
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1] ?? Number.NaN);
}

const view = (m: TopicMessage) => ({
  contents: textOf(m),
  sequence: m.sequenceNumber.toNumber(),
  time: timeText(m.consensusTimestamp),
});

describe("TopicMessageQuery (history)", () => {
  it("replays a closed window of history, chunks assembled, then completes", async () => {
    const rest = await restMessages(NEWS);
    expect(rest.some((m) => m.chunk_info !== null && m.chunk_info.total > 1)).toBe(true);
    const last = rest.at(-1)!;
    const end = timestampOf(last.consensus_timestamp).plusNanos(1);
    const received = await collect(new TopicMessageQuery().setTopicId(NEWS).setStartTime(0).setEndTime(end));
    // The story's chunks 1-3 are sent, but the SDK delivers it only once all its chunks have arrived.
    expect(received.map(view)).toEqual(assembled(rest));
    expect(received.some((m) => m.chunks.length > 1)).toBe(false);
  });

  it("stops at the limit, counting chunks as messages", async () => {
    const rest = await restMessages(NEWS);
    const received = await collect(new TopicMessageQuery().setTopicId(NEWS).setStartTime(0).setLimit(3));
    expect(received.map(view)).toEqual(assembled(rest.slice(0, 3)));
  });

  it("starts at the start time (inclusive) and ends before the end time (exclusive)", async () => {
    const rest = await restMessages(NEWS);
    const [, second, third, fourth] = rest as [RestMessage, RestMessage, RestMessage, RestMessage];
    const received = await collect(
      new TopicMessageQuery()
        .setTopicId(NEWS)
        .setStartTime(timestampOf(second.consensus_timestamp))
        .setEndTime(timestampOf(fourth.consensus_timestamp)),
    );
    expect(received.map(view)).toEqual(assembled([second, third]));
  });

  it("refuses what upstream refuses, with its status and description", async () => {
    const now = BigInt(Date.now()) / 1000n;
    const cases: Array<[object, number, string]> = [
      [{}, GrpcStatus.INVALID_ARGUMENT, "subscribeTopic.filter.topicId: must not be null"],
      [{ topicID: { topicNum: -1 } }, GrpcStatus.INVALID_ARGUMENT, "Invalid entity ID: 0.0.-1"],
      [
        { topicID: { shardNum: 1024, topicNum: 1005 } },
        GrpcStatus.INVALID_ARGUMENT,
        "Invalid entity ID: 1024.0.1005",
      ],
      [
        { limit: Long.fromString("18446744073709551615", true) },
        GrpcStatus.INVALID_ARGUMENT,
        "subscribeTopic.filter.limit: must be greater than or equal to 0, subscribeTopic.filter.topicId: must not be null",
      ],
      [
        {
          topicID: { topicNum: 1005 },
          consensusStartTime: { seconds: 1700000004 },
          consensusEndTime: { seconds: 1700000004 },
        },
        GrpcStatus.INVALID_ARGUMENT,
        "subscribeTopic.filter.validEndTime: End time must be after start time",
      ],
      [
        { topicID: { topicNum: 1005 }, consensusStartTime: { seconds: Number(now) + 3600 } },
        GrpcStatus.INVALID_ARGUMENT,
        "subscribeTopic.filter.validStartTime: Start time must be before the current time",
      ],
      [
        { topicID: { topicNum: 1005 }, consensusStartTime: { seconds: -1 } },
        GrpcStatus.INVALID_ARGUMENT,
        "subscribeTopic.filter.startTime: must be greater than or equal to 0",
      ],
      [
        { topicID: { topicNum: 1005 }, consensusEndTime: { seconds: 1700000000 } },
        GrpcStatus.INVALID_ARGUMENT,
        "subscribeTopic.filter.validEndTime: End time must be after start time",
      ],
      [{ topicID: { topicNum: 9999 } }, GrpcStatus.NOT_FOUND, "0.0.9999 does not exist"],
      [{ topicID: { topicNum: 1001 } }, GrpcStatus.INVALID_ARGUMENT, "Not a valid topic"],
      [{ topicID: {} }, GrpcStatus.NOT_FOUND, "0.0.0 does not exist"],
    ];
    for (const [query, code, details] of cases) {
      const result = await rawCall(grpcPort, SUBSCRIBE_TOPIC, topicQuery(query));
      expect({ query, code: result.code, details: result.details }).toEqual({ query, code, details });
      expect(result.messages).toEqual([]);
    }
  });

  it("reaches the SDK's error handler as `<code> <NAME>: <description>`", async () => {
    const error = await collect(new TopicMessageQuery().setTopicId("0.0.9999").setStartTime(0)).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe("5 NOT_FOUND: 0.0.9999 does not exist");
  });
});

describe("TopicMessageQuery (live)", () => {
  it("sends history, then each message committed while it is open, once and in order", async () => {
    const before = await restMessages(NEWS);
    const received: TopicMessage[] = [];
    const errors: Error[] = [];
    let notify: () => void = () => {};
    const handle = new TopicMessageQuery()
      .setTopicId(NEWS)
      .setStartTime(0)
      .setMaxAttempts(0)
      .subscribe(
        client,
        (_message, error) => errors.push(error),
        (message) => {
          received.push(message);
          notify();
        },
      );
    const until = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`only ${received.length} of ${count}`)), 30_000);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(deadline);
            resolve();
          }
        };
        notify = check;
        check();
      });
    try {
      await until(assembled(before).length);
      // The rest of the stream arrives while the subscription is open.
      copyScenarioBlocks(SCENARIO, ledger, dir, FIRST_PART, SECOND_PART);
      await waitForBlock(service, BigInt(ledger.blocks[SECOND_PART - 1]!.number));
      const all = await restMessages(NEWS, 99);
      expect(all.length).toBeGreaterThan(before.length);
      await until(assembled(all).length);
      // Nothing more than that arrives (no duplicate after the hand-off).
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received.map(view)).toEqual(assembled(all));
      expect(errors).toEqual([]);
      // A chunk group across the hand-off: three chunks from history, the last one live.
      const story = received.find((m) => m.chunks.length > 1);
      expect(story?.chunks.length).toBe(4);
      expect(Buffer.from(story!.contents).toString()).toMatch(/^A long story that does not fit/);
      expect(story!.initialTransactionId?.accountId?.toString()).toBe(ALICE);
    } finally {
      handle.unsubscribe();
    }
  });

  it("serves many live subscriptions of a topic with one read per commit, and ends one at its end time", async () => {
    const before = await restMessages(NEWS, 98);
    const subscribers = 4;
    const received: TopicMessage[][] = Array.from({ length: subscribers }, () => []);
    const handles = received.map((list) =>
      new TopicMessageQuery()
        .setTopicId(NEWS)
        .setStartTime(0)
        .setMaxAttempts(0)
        .subscribe(client, null, (message) => list.push(message)),
    );
    // A fifth call (a connection takes five at once; SDK clients of one address share one) with an end time in
    // the next files: being before the call (replayed data), it ends after what the index holds (grpc.md §3.4
    // case 2), without waiting for those files.
    const endStep = ledger.steps.find((s) => s.consensusTimestamp.startsWith("1740992420.559"))!;
    const ended = collect(
      new TopicMessageQuery()
        .setTopicId(NEWS)
        .setStartTime(0)
        .setEndTime(timestampOf(endStep.consensusTimestamp)),
    );
    try {
      await waitFor(() => received.every((list) => list.length === assembled(before).length));
      const liveReads = await metric("mirrorlite_grpc_live_reads_total");
      const files = ledger.blocks.length - SECOND_PART;
      copyScenarioBlocks(SCENARIO, ledger, dir, SECOND_PART);
      await waitForBlock(service, BigInt(ledger.blocks.at(-1)!.number));
      const all = await restMessages(NEWS, 97);
      await waitFor(() => received.every((list) => list.length === assembled(all).length));
      for (const list of received) expect(list.map(view)).toEqual(assembled(all));
      // One read per commit that named the topic, whatever the number of subscribers.
      expect((await metric("mirrorlite_grpc_live_reads_total")) - liveReads).toBeLessThanOrEqual(files);
      expect((await ended).map(view)).toEqual(assembled(before));
    } finally {
      for (const handle of handles) handle.unsubscribe();
    }
  });

  it("counts open subscriptions and sent messages in /metrics and readiness", async () => {
    const metrics = await service.get("/metrics");
    expect(metrics.text).toMatch(/^mirrorlite_grpc_messages_sent_total [1-9]\d*$/m);
    expect(metrics.text).toMatch(/^mirrorlite_grpc_calls_ended_total\{status="NOT_FOUND"\} [1-9]\d*$/m);
    // The live tests above had messages fanned out to live subscriptions: their times are sampled.
    expect(metrics.text).toMatch(/^mirrorlite_grpc_live_fanout_ms\{quantile="0\.99"\} \d/m);
    const readiness = await service.get("/health/readiness");
    validateResponse({ path: "/health/readiness", status: readiness.status, body: readiness.body });
    expect((readiness.body as { grpc: unknown }).grpc).toEqual({
      state: "serving",
      port: grpcPort,
      subscribers: 0,
    });
  });
});

/**
 * The topic message routes on the `topics` scenario, ingested through the real watcher into a real SQLite file:
 * every message against what the simulator submitted (sequence numbers, running hashes recomputed from the HAPI
 * formula, payers, chunks), paging to the end both ways, filters, encodings, every error text in upstream's
 * order, and each answer against the OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import { shiftTimestamp, stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import type { TestResponse } from "../helpers/service.ts";
import { runningHashV3 } from "../helpers/topic-running-hash.ts";

const scenario = useScenario("topics");
const { ledger } = scenario;

type TransactionId = {
  account_id: string | null;
  nonce: number | null;
  scheduled: boolean | null;
  transaction_valid_start: string | null;
};
type Message = {
  chunk_info: { initial_transaction_id: TransactionId; number: number; total: number } | null;
  consensus_timestamp: string;
  message: string;
  payer_account_id: string;
  running_hash: string;
  running_hash_version: number;
  sequence_number: number;
  topic_id: string;
};
type MessagesBody = { messages: Message[]; links: { next: string | null } };

const NEWS = "0.0.1005";
const PRIVATE = "0.0.1006";

async function get(path: string): Promise<TestResponse> {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

async function page(path: string): Promise<MessagesBody> {
  const response = await get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  const body = response.body as MessagesBody;
  expect(response.headers.get("link")).toBe(
    body.links.next === null ? null : `<${body.links.next}>; rel="next"`,
  );
  expect(response.headers.get("cache-control")).toBe("public, max-age=1");
  return body;
}

/** Every page from `first` to the end. */
async function allPages(first: string): Promise<{ messages: Message[]; links: string[] }> {
  const messages: Message[] = [];
  const links: string[] = [];
  let path: string | null = first;
  for (let guard = 0; path !== null && guard < 100; guard++) {
    const body = await page(path);
    messages.push(...body.messages);
    path = body.links.next;
    if (path !== null) links.push(path);
  }
  return { messages, links };
}

async function errors(path: string): Promise<string[]> {
  const response = await get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(400);
  return (response.body as { _status: { messages: { message: string }[] } })._status.messages.map(
    (m) => m.message,
  );
}

/** The successful submits to a topic, in consensus order, as the simulator recorded them. */
function submitted(topicCreateLabel: string) {
  const topicId = ledger.steps.find((s) => s.label === topicCreateLabel)!.entityId!;
  const steps = ledger.steps.filter((s) => s.type === "consensusSubmitMessage" && s.status === "SUCCESS");
  return { topicId, steps };
}

const payerOf = (transactionId: string) => transactionId.split("-")[0]!;
const idParts = (id: string) => id.split(".").map(BigInt) as [bigint, bigint, bigint];
const nanosOf = (timestamp: string) => {
  const [seconds, nanos] = timestamp.split(".") as [string, string];
  return BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
};

describe("GET /api/v1/topics/{topicId}/messages", () => {
  it("lists every message of a topic once, in consensus order, as the simulator submitted them", async () => {
    const { topicId, steps } = submitted("news-create");
    const { messages, links } = await allPages(`/api/v1/topics/${topicId}/messages`);
    const news = messages.map((m) => m.consensus_timestamp);
    // 28 messages: a full first page of 25 links on, the second is the end.
    expect(messages).toHaveLength(28);
    expect(links).toEqual([`/api/v1/topics/${topicId}/messages?timestamp=gt:${news[24]}`]);
    const newsSteps = steps.filter((s) =>
      messages.some((m) => m.consensus_timestamp === s.consensusTimestamp),
    );
    expect(newsSteps).toHaveLength(28);
    let previous: Buffer = Buffer.alloc(48);
    for (const [i, message] of messages.entries()) {
      const step = newsSteps[i]!;
      expect(message.consensus_timestamp).toBe(step.consensusTimestamp);
      expect(message.sequence_number).toBe(i + 1);
      expect(String(message.sequence_number)).toBe(step.message!.sequenceNumber);
      expect(message.running_hash).toBe(step.message!.runningHash);
      expect(message.running_hash_version).toBe(3);
      expect(message.payer_account_id).toBe(payerOf(step.transactionId!));
      expect(message.topic_id).toBe(topicId);
      // The chain as a node computes it, from the answers alone.
      const hash = runningHashV3({
        previous,
        payer: idParts(message.payer_account_id),
        topic: idParts(topicId),
        consensusNs: nanosOf(message.consensus_timestamp),
        sequenceNumber: BigInt(message.sequence_number),
        message: Buffer.from(message.message, "base64"),
      });
      expect(hash.toString("base64")).toBe(message.running_hash);
      previous = hash;
    }
    expect(Buffer.from(messages[0]!.message, "base64").toString()).toBe("Hello, world");
    expect(messages[5]!.message).toBe("AA=="); // a single zero byte
  });

  it("keeps each topic's own numbering, and leaves out failed submissions", async () => {
    const body = await page(`/api/v1/topics/${PRIVATE}/messages`);
    expect(
      body.messages.map((m) => [m.sequence_number, Buffer.from(m.message, "base64").toString()]),
    ).toEqual([
      [1, "private one"],
      [2, "private two"],
      [3, "now open"],
    ]);
    expect(body.links.next).toBeNull();
    const all = (await allPages(`/api/v1/topics/${NEWS}/messages?limit=100`)).messages;
    const failed = ["news-empty", "private-forged", "private-late"].map((label) => stepTime(ledger, label));
    for (const time of failed) expect(all.some((m) => m.consensus_timestamp === time)).toBe(false);
  });

  it("pages to the end with a small limit, both ways, with upstream's links", async () => {
    const ascending = await allPages(`/api/v1/topics/${NEWS}/messages?limit=4`);
    expect(ascending.messages.map((m) => m.sequence_number)).toEqual(
      Array.from({ length: 28 }, (_, i) => i + 1),
    );
    // 28 is a multiple of 4: the last full page links to an empty one.
    expect(ascending.links).toHaveLength(7);
    expect(ascending.links[0]).toBe(
      `/api/v1/topics/${NEWS}/messages?limit=4&timestamp=gt:${ascending.messages[3]!.consensus_timestamp}`,
    );
    const descending = await allPages(`/api/v1/topics/${NEWS}/messages?order=desc&limit=5`);
    expect(descending.messages.map((m) => m.sequence_number)).toEqual(
      Array.from({ length: 28 }, (_, i) => 28 - i),
    );
    expect(descending.links[0]).toBe(
      `/api/v1/topics/${NEWS}/messages?order=desc&limit=5&timestamp=lt:${descending.messages[4]!.consensus_timestamp}`,
    );
    // A lower bound is kept while paging down; the link's range closes once it is empty.
    const bounded = await allPages(`/api/v1/topics/${NEWS}/messages?sequencenumber=gt:20&order=DESC&limit=4`);
    expect(bounded.messages.map((m) => m.sequence_number)).toEqual([28, 27, 26, 25, 24, 23, 22, 21]);
    expect(bounded.links[0]).toBe(
      `/api/v1/topics/${NEWS}/messages?sequencenumber=gt:20&order=desc&limit=4&timestamp=lt:${bounded.messages[3]!.consensus_timestamp}`,
    );
  });

  it("filters by sequence number and consensus time, every operator, ANDed", async () => {
    const sequences = async (query: string) =>
      (await page(`/api/v1/topics/${NEWS}/messages?limit=100&${query}`)).messages.map(
        (m) => m.sequence_number,
      );
    expect(await sequences("sequencenumber=3")).toEqual([3]);
    expect(await sequences("sequencenumber=eq:3&sequencenumber=eq:4")).toEqual([]);
    expect(await sequences("sequencenumber=gte:26")).toEqual([26, 27, 28]);
    expect(await sequences("sequencenumber=gt:25&sequencenumber=lt:28")).toEqual([26, 27]);
    expect(await sequences("sequencenumber=lte:3&sequencenumber=ne:2")).toEqual([1, 3]);
    expect(await sequences("sequencenumber=gt:28")).toEqual([]);
    expect(await sequences(`sequencenumber=${"9".repeat(19).replace(/^9/, "1")}`)).toEqual([]);
    const t7 = stepTime(ledger, "story");
    const t13 = stepTime(ledger, "manual-2");
    expect(await sequences(`timestamp=${t7}`)).toEqual([7]);
    expect(await sequences(`timestamp=gte:${t7}&timestamp=lte:${t13}&timestamp=ne:${t13}`)).toEqual([
      7, 8, 9, 10, 11, 12,
    ]);
    expect(await sequences(`timestamp=gt:${t7}&sequencenumber=lte:9`)).toEqual([8, 9]);
    expect(await sequences(`timestamp=lt:${t7}&sequencenumber=gte:7`)).toEqual([]);
    // Whole seconds and a short fraction (padded on the right) are instants too.
    const second = t13.split(".")[0]!;
    expect(await sequences(`timestamp=gte:${second}&timestamp=lt:${Number(second) + 1}.3`)).toEqual([12, 13]);
    expect(await sequences("timestamp=gt:9999999999.999999999")).toEqual([]);
    expect(await sequences("timestamp=lt:9999999999")).toHaveLength(28);
  });

  it("shows messages as UTF-8 text on request, invalid bytes as U+FFFD", async () => {
    const at = stepTime(ledger, "news-unicode");
    const notUtf8 = stepTime(ledger, "news-not-utf8");
    const text = async (query: string, time: string) =>
      (await page(`/api/v1/topics/${NEWS}/messages?timestamp=${time}&${query}`)).messages[0]!.message;
    expect(await text("encoding=utf-8", at)).toBe("Ünïcödé ✓ ℏ 😀");
    expect(await text("encoding=UTF8", at)).toBe("Ünïcödé ✓ ℏ 😀");
    expect(await text("ENCODING=Utf-8", notUtf8)).toBe("\uFFFD(\uFFFDa\uFFFD");
    expect(await text("encoding=base64", notUtf8)).toBe(
      Buffer.from("c328ff61e282", "hex").toString("base64"),
    );
    // Upstream renders from the raw value: an operator validates but leaves the messages in base64.
    expect(await text("encoding=eq:utf-8", at)).toBe(Buffer.from("Ünïcödé ✓ ℏ 😀").toString("base64"));
    expect(await text("encoding=base64&encoding=utf-8", at)).toBe("Ünïcödé ✓ ℏ 😀");
  });

  it("shows chunks with the first chunk's transaction id, as an SDK and a hand-written chunk set them", async () => {
    const chunks = (await page(`/api/v1/topics/${NEWS}/messages?sequencenumber=gte:7&sequencenumber=lte:13`))
      .messages;
    const story = ledger.steps.find((s) => s.label === "story")!;
    const [payer, seconds, nanos] = story.transactionId!.split("-") as [string, string, string];
    const storyStart = `${seconds}.${nanos.padStart(9, "0")}`;
    expect(chunks.slice(0, 4).map((m) => m.chunk_info)).toEqual(
      [1, 2, 3, 4].map((number) => ({
        initial_transaction_id: {
          account_id: payer,
          nonce: 0,
          scheduled: false,
          transaction_valid_start: storyStart,
        },
        number,
        total: 4,
      })),
    );
    const whole = Buffer.concat(chunks.slice(0, 4).map((m) => Buffer.from(m.message, "base64"))).toString();
    expect(whole).toMatch(/^A long story that does not fit one chunk of forty bytes/);
    expect(chunks[4]!.chunk_info).toBeNull();
    const manual = ledger.steps.find((s) => s.label === "manual-1")!;
    const [manualPayer, manualSeconds, manualNanos] = manual.transactionId!.split("-") as [
      string,
      string,
      string,
    ];
    expect(chunks[6]!.chunk_info).toEqual({
      initial_transaction_id: {
        account_id: manualPayer,
        nonce: 1,
        scheduled: true,
        transaction_valid_start: `${manualSeconds}.${manualNanos.padStart(9, "0")}`,
      },
      number: 2,
      total: 2,
    });
  });

  it("reads the topic in every spelling: shard.realm.num, realm.num, and a bare number as the packed id", async () => {
    const expected = (await page(`/api/v1/topics/${NEWS}/messages?limit=2`)).messages;
    for (const spelling of ["1005", "0.1005", "0.0.1005"]) {
      const body = await page(`/api/v1/topics/${spelling}/messages?limit=2`);
      expect(body.messages).toEqual(expected);
      // The link keeps the path as sent.
      expect(body.links.next).toBe(
        `/api/v1/topics/${spelling}/messages?limit=2&timestamp=gt:${expected[1]!.consensus_timestamp}`,
      );
    }
    // Unknown topics, and bare numbers that pack other shards and realms, have no messages.
    for (const spelling of ["0.0.999", "274877907949", "-1", "1.0.1005"]) {
      expect((await page(`/api/v1/topics/${spelling}/messages`)).messages).toEqual([]);
    }
  });

  it("answers bad requests with upstream's messages, in upstream's order", async () => {
    expect(await errors("/api/v1/topics/abc/messages?limit=0&foo=1")).toEqual([
      "Invalid parameter: topic.id",
    ]);
    for (const bad of [
      "0x0000000000000000000000000000000000000001",
      "0.0.0.1",
      "1.2.3.4",
      "00000000000000000001",
    ]) {
      expect(await errors(`/api/v1/topics/${bad}/messages`)).toEqual(["Invalid parameter: topic.id"]);
    }
    expect(
      await errors(
        `/api/v1/topics/${NEWS}/messages?sequencenumber=0&timestamp=abc&limit=0&order=up&encoding=hex&foo=1&sequencenumber=ne:x`,
      ),
    ).toEqual([
      "Invalid parameter: sequencenumber",
      "Invalid parameter: sequencenumber",
      "Invalid parameter: timestamp",
      "Invalid parameter: limit",
      "Invalid parameter: order",
      "Invalid parameter: encoding",
      "Unknown query parameter: foo",
    ]);
    expect(await errors(`/api/v1/topics/${NEWS}/messages?timestamp=`)).toEqual([
      "Invalid parameter: timestamp",
    ]);
    expect(await errors(`/api/v1/topics/${NEWS}/messages?sequencenumber=9223372036854775808`)).toEqual([
      "Invalid parameter: sequencenumber",
    ]);
    // An ID that passes the syntax but names none is found last, after the query.
    expect(await errors("/api/v1/topics/0.0.274877906944/messages?limit=0")).toEqual([
      "Invalid parameter: limit",
    ]);
    expect(await errors("/api/v1/topics/0.0.274877906944/messages")).toEqual([
      'Invalid entity ID "0.0.274877906944"',
    ]);
    expect(await errors("/api/v1/topics/9999999999999999999/messages")).toEqual([
      'Invalid entity ID "9999999999999999999"',
    ]);
    const tooMany = Array.from({ length: 101 }, () => "timestamp=gt:1").join("&");
    expect(await errors(`/api/v1/topics/${NEWS}/messages?${tooMany}`)).toEqual([
      "Array limit exceeded. Only 100 elements allowed in an array.",
    ]);
  });
});

describe("GET /api/v1/topics/{topicId}/messages/{sequenceNumber}", () => {
  it("finds one message of a topic by its sequence number, kept 600 s by clients", async () => {
    const list = (await page(`/api/v1/topics/${NEWS}/messages?sequencenumber=13`)).messages;
    for (const spelling of [NEWS, "1005", "0.1005"]) {
      const response = await get(`/api/v1/topics/${spelling}/messages/13`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(list[0]);
      expect(response.headers.get("cache-control")).toBe("public, max-age=600");
    }
    const privateTwo = (await get(`/api/v1/topics/${PRIVATE}/messages/2`)).body as Message;
    expect(Buffer.from(privateTwo.message, "base64").toString()).toBe("private two");
    // The message stays base64 here: this route takes no encoding.
    expect((await get(`/api/v1/topics/${NEWS}/messages/3`)).body).toMatchObject({
      message: Buffer.from("Ünïcödé ✓ ℏ 😀").toString("base64"),
    });
  });

  it("answers 404 for a number or topic without a message", async () => {
    for (const path of [`/api/v1/topics/${NEWS}/messages/29`, "/api/v1/topics/0.0.999/messages/1"]) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ _status: { messages: [{ message: "Not found" }] } });
    }
  });

  it("reports query parameters first, then the topic and the number together", async () => {
    expect(await errors(`/api/v1/topics/abc/messages/0?foo=1&Bar=2&foo=3`)).toEqual([
      "Unknown query parameter: foo",
      "Unknown query parameter: bar",
    ]);
    expect(await errors("/api/v1/topics/abc/messages/0")).toEqual([
      "Invalid parameter: topic.id",
      "Invalid parameter: sequencenumber",
    ]);
    expect(await errors(`/api/v1/topics/${NEWS}/messages/9223372036854775808`)).toEqual([
      "Invalid parameter: sequencenumber",
    ]);
    expect(await errors(`/api/v1/topics/${NEWS}/messages/-1`)).toEqual(["Invalid parameter: sequencenumber"]);
    expect(await errors("/api/v1/topics/0.0.274877906944/messages/1")).toEqual([
      'Invalid entity ID "0.0.274877906944"',
    ]);
  });
});

describe("GET /api/v1/topics/messages/{consensusTimestamp}", () => {
  it("finds the message of a successful submission by its consensus time", async () => {
    const time = stepTime(ledger, "manual-2");
    const response = await get(`/api/v1/topics/messages/${time}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=600");
    expect(response.body).toEqual((await get(`/api/v1/topics/${NEWS}/messages/13`)).body);
  });

  it("answers 404 for any other transaction or instant", async () => {
    const labels = ["news-empty", "private-forged", "private-late", "news-create", "fees-memo"];
    const times = [
      ...labels.map((label) => stepTime(ledger, label)),
      shiftTimestamp(stepTime(ledger, "news-1"), 1n),
    ];
    for (const time of [...times, "9999999999.999999999", "0"]) {
      const response = await get(`/api/v1/topics/messages/${time}`);
      expect(response.status, time).toBe(404);
      expect(response.body).toEqual({ _status: { messages: [{ message: "Not found" }] } });
    }
  });

  it("reports query parameters first, then the timestamp", async () => {
    expect(await errors("/api/v1/topics/messages/abc?limit=1")).toEqual(["Unknown query parameter: limit"]);
    for (const bad of ["abc", "1.", "1.1234567890", "12345678901", "-1"]) {
      expect(await errors(`/api/v1/topics/messages/${bad}`)).toEqual([
        "Invalid parameter: consensus_timestamp",
      ]);
    }
  });

  it("routes /topics/messages/messages as the message list of a topic spelled `messages`", async () => {
    expect(await errors("/api/v1/topics/messages/messages")).toEqual(["Invalid parameter: topic.id"]);
    expect(await errors("/api/v1/topics/messages/messages/1")).toEqual(["Invalid parameter: topic.id"]);
  });
});

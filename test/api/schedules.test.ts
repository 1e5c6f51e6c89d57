/**
 * `GET /api/v1/schedules` and `GET /api/v1/schedules/{scheduleId}` on the `schedules` scenario, replayed from its
 * record files through the real service: every field of each schedule as the stream made it (created, signed,
 * executed at creation, by a later signature or failing, deleted, pending with wait_for_expiry), the signatures
 * kept and the ones refused transactions did not add, filters, order, paging links, error messages and
 * `Cache-Control`. Every body is validated against the OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import { isSettled } from "../../src/api/routes/schedules.ts";
import { postgresBase64 } from "../../src/api/views/schedules.ts";
import { proto } from "../../src/streams/proto.ts";
import { type ExpectedLedger, stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import type { TestResponse } from "../helpers/service.ts";

const scenario = useScenario("schedules");
const { ledger } = scenario;

type Signature = { consensus_timestamp: string; public_key_prefix: string; signature: string; type: string };
type Schedule = {
  admin_key: { _type: string; key: string } | null;
  deleted: boolean;
  consensus_timestamp: string;
  creator_account_id: string;
  executed_timestamp: string | null;
  expiration_time: string | null;
  memo: string;
  payer_account_id: string;
  schedule_id: string;
  signatures: Signature[];
  transaction_body: string;
  wait_for_expiry: boolean;
};
type SchedulesPage = { schedules: Schedule[]; links: { next: string | null } };

const id = (name: string) => ledger.accounts[name]!.id;
/** An account's raw public key, hex: its protobuf key without the `1220` (ED25519) or `3a21` (ECDSA) prefix. */
const publicKeyHex = (name: string) => ledger.accounts[name]!.key!.slice(4);
const base64OfHex = (hex: string) => Buffer.from(hex, "hex").toString("base64");

/** The consensus time of the scheduled execution a step triggered. */
function executedAt(label: string): string {
  const step = ledger.steps.find((s) => s.label === label) as
    | (ExpectedLedger["steps"][number] & { scheduled?: { consensusTimestamp: string } })
    | undefined;
  const time = step?.scheduled?.consensusTimestamp;
  if (time === undefined) throw new Error(`step ${label} executed no schedule`);
  return time;
}

/** The schedule id a labelled ScheduleCreate made. */
function scheduleOf(label: string): string {
  const entity = ledger.steps.find((s) => s.label === label)?.entityId;
  if (entity === undefined) throw new Error(`step ${label} created nothing`);
  return entity;
}

/** The child ScheduleCreate the Ethereum transaction made: its schedule and consensus time. */
function evmChild(): { entityId: string; consensusTimestamp: string } {
  const step = ledger.steps.find((s) => s.label === "evm-create") as
    | { children?: Array<{ entityId?: string; consensusTimestamp: string }> }
    | undefined;
  const child = step?.children?.[0];
  if (child?.entityId === undefined) throw new Error("evm-create created no schedule");
  return { entityId: child.entityId, consensusTimestamp: child.consensusTimestamp };
}

const evmSchedule = () => evmChild().entityId;

async function get(path: string): Promise<TestResponse> {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

async function list(path: string): Promise<SchedulesPage> {
  const response = await get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  expect(response.headers.get("cache-control")).toBe("public, max-age=10");
  return response.body as SchedulesPage;
}

async function one(path: string): Promise<{ body: Schedule; cacheControl: string | null }> {
  const response = await get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return { body: response.body as Schedule, cacheControl: response.headers.get("cache-control") };
}

async function errors(path: string, status = 400): Promise<string[]> {
  const response = await get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  return (response.body as { _status: { messages: Array<{ message: string }> } })._status.messages.map(
    (m) => m.message,
  );
}

/** The hbar transfer a `transaction_body` schedules, as account → amount. */
function scheduledTransfer(body: string): Record<string, string> {
  const decoded = proto.SchedulableTransactionBody.decode(Buffer.from(body, "base64"));
  return Object.fromEntries(
    (decoded.cryptoTransfer?.transfers?.accountAmounts ?? []).map((aa) => [
      `0.0.${aa.accountID?.accountNum?.toString()}`,
      aa.amount?.toString() ?? "0",
    ]),
  );
}

/** A 64-byte signature as upstream's database renders it: 76 characters, a line feed, 12 more. */
function expectPostgresSignature(text: string): void {
  expect(text).toMatch(/^[A-Za-z0-9+/]{76}\n[A-Za-z0-9+/]{10}==$/);
  expect(Buffer.from(text.replace("\n", ""), "base64")).toHaveLength(64);
}

describe("GET /api/v1/schedules/{scheduleId}", () => {
  it("shows a schedule executed by a later ScheduleSign, with every signature it collected", async () => {
    const scheduleId = scheduleOf("pay-create");
    const { body, cacheControl } = await one(`/api/v1/schedules/${scheduleId}`);
    expect(Object.keys(body)).toEqual([
      "admin_key",
      "deleted",
      "consensus_timestamp",
      "creator_account_id",
      "executed_timestamp",
      "expiration_time",
      "memo",
      "payer_account_id",
      "schedule_id",
      "signatures",
      "transaction_body",
      "wait_for_expiry",
    ]);
    expect(body).toMatchObject({
      admin_key: { _type: "ED25519", key: publicKeyHex("alice") },
      deleted: false,
      consensus_timestamp: stepTime(ledger, "pay-create"),
      creator_account_id: id("alice"),
      executed_timestamp: executedAt("pay-sign"),
      expiration_time: null,
      memo: "pay carol",
      payer_account_id: id("alice"),
      schedule_id: scheduleId,
      wait_for_expiry: false,
    });
    expect(scheduledTransfer(body.transaction_body)).toEqual({
      [id("alice")]: "-2000000000",
      [id("carol")]: "2000000000",
    });
    // The create's pair (alice pays and is the admin key: one pair), then the sign's three in signature-map
    // order: the payer bob, an ED25519 key and an ECDSA key. The sign refused after execution added none.
    const signs = stepTime(ledger, "pay-sign");
    expect(body.signatures.map((s) => [s.consensus_timestamp, s.type])).toEqual([
      [stepTime(ledger, "pay-create"), "ED25519"],
      [signs, "ED25519"],
      [signs, "ED25519"],
      [signs, "ECDSA_SECP256K1"],
    ]);
    expect(body.signatures[0]!.public_key_prefix).toBe(base64OfHex(publicKeyHex("alice")));
    expect(body.signatures[1]!.public_key_prefix).toBe(base64OfHex(publicKeyHex("bob")));
    expect(Buffer.from(body.signatures[2]!.public_key_prefix, "base64")).toHaveLength(32);
    expect(Buffer.from(body.signatures[3]!.public_key_prefix, "base64")).toHaveLength(33);
    for (const signature of body.signatures) expectPostgresSignature(signature.signature);
    expect(cacheControl).toBe("public, max-age=3600");
  });

  it("shows a schedule executed at creation, paid by another account, with its expiration time", async () => {
    const { body } = await one(`/api/v1/schedules/${scheduleOf("now-create")}`);
    expect(body).toMatchObject({
      admin_key: null,
      creator_account_id: id("alice"),
      payer_account_id: id("bob"),
      executed_timestamp: executedAt("now-create"),
      expiration_time: "1719838800.000000000",
      memo: "",
      signatures: [{ consensus_timestamp: stepTime(ledger, "now-create"), type: "ED25519" }],
    });
  });

  it("keeps the execution time of a scheduled transaction that failed", async () => {
    const { body } = await one(`/api/v1/schedules/${scheduleOf("broke-create")}`);
    expect(body.executed_timestamp).toBe(executedAt("broke-sign"));
    expect(body.creator_account_id).toBe(id("dave"));
    expect(body.signatures.map((s) => s.consensus_timestamp)).toEqual([
      stepTime(ledger, "broke-create"),
      stepTime(ledger, "broke-sign"),
    ]);
  });

  it("shows a pending schedule that waits for its expiry (a failed delete changes nothing)", async () => {
    const { body } = await one(`/api/v1/schedules/${scheduleOf("later-create")}`);
    expect(body).toMatchObject({
      admin_key: null,
      deleted: false,
      creator_account_id: id("carol"),
      executed_timestamp: null,
      expiration_time: "1719921600.000000000",
      memo: "waits for expiry",
      wait_for_expiry: true,
    });
    expect(body.signatures).toHaveLength(1);
    expect(body.signatures[0]).toMatchObject({
      type: "ECDSA_SECP256K1",
      public_key_prefix: base64OfHex(publicKeyHex("carol")),
    });
  });

  it("shows a deleted schedule; the delete's and a later refused sign's signatures are not kept", async () => {
    const { body, cacheControl } = await one(`/api/v1/schedules/${scheduleOf("gone-create")}`);
    expect(body).toMatchObject({
      admin_key: { _type: "ECDSA_SECP256K1", key: publicKeyHex("carol") },
      deleted: true,
      executed_timestamp: null,
      memo: "to be deleted",
    });
    expect(body.signatures.map((s) => [s.consensus_timestamp, s.type])).toEqual([
      [stepTime(ledger, "gone-create"), "ED25519"],
      [stepTime(ledger, "gone-create"), "ECDSA_SECP256K1"],
      [stepTime(ledger, "gone-sign"), "ED25519"],
    ]);
    expect(cacheControl).toBe("public, max-age=3600");
  });

  it("keeps one row per transaction when the same key signs twice", async () => {
    const { body } = await one(`/api/v1/schedules/${scheduleOf("twice-create")}`);
    const alice = base64OfHex(publicKeyHex("alice"));
    expect(body.signatures.map((s) => [s.consensus_timestamp, s.public_key_prefix])).toEqual([
      [stepTime(ledger, "twice-create"), base64OfHex(publicKeyHex("bob"))],
      [stepTime(ledger, "twice-sign-1"), alice],
      [stepTime(ledger, "twice-sign-2"), alice],
    ]);
    expect(body.executed_timestamp).toBe(executedAt("twice-sign-2"));
  });

  it("credits a schedule an Ethereum transaction created to the Ethereum sender, not the relayer", async () => {
    const { body } = await one(`/api/v1/schedules/${evmSchedule()}`);
    expect(body).toMatchObject({
      admin_key: null,
      consensus_timestamp: evmChild().consensusTimestamp,
      creator_account_id: id("ivan"),
      payer_account_id: id("ivan"),
      executed_timestamp: null,
      memo: "from the EVM",
    });
    // The child carries no signature map: only the later sign's signature is kept.
    expect(body.signatures.map((s) => [s.consensus_timestamp, s.public_key_prefix])).toEqual([
      [stepTime(ledger, "evm-sign"), base64OfHex(publicKeyHex("bob"))],
    ]);
  });

  it("reads every spelling of the ID, and answers 404 for other entities and unknown IDs", async () => {
    const scheduleId = scheduleOf("pay-create");
    const num = scheduleId.split(".")[2]!;
    const { body } = await one(`/api/v1/schedules/${scheduleId}`);
    for (const spelling of [num, `0.${num}`, `0x${num}`]) {
      expect((await one(`/api/v1/schedules/${spelling}`)).body).toEqual(body);
    }
    expect(await errors(`/api/v1/schedules/${id("alice")}`, 404)).toEqual(["Not found"]);
    expect(await errors("/api/v1/schedules/0.0.99999", 404)).toEqual(["Not found"]);
  });

  it("refuses any query parameter first, then a bad path", async () => {
    expect(await errors(`/api/v1/schedules/${scheduleOf("pay-create")}?account.id=3333`)).toEqual([
      "Unknown query parameter: account.id",
    ]);
    expect(await errors("/api/v1/schedules/0.7.8.9?limit=1&foo=2")).toEqual([
      "Unknown query parameter: limit",
      "Unknown query parameter: foo",
    ]);
    for (const bad of [
      "0.7.8.9",
      "x",
      "-1",
      "1234567890123",
      "0.0.274877906944",
      "0x000000000000000000000000000000000000046F",
    ]) {
      expect(await errors(`/api/v1/schedules/${bad}`), bad).toEqual(["Invalid parameter: scheduleid"]);
    }
  });
});

describe("GET /api/v1/schedules", () => {
  const all = [
    ...["pay-create", "now-create", "broke-create", "later-create", "gone-create", "twice-create"].map(
      scheduleOf,
    ),
    evmSchedule(),
  ];

  it("lists every schedule (the failed ScheduleCreate made none) in ascending order by default", async () => {
    const page = await list("/api/v1/schedules");
    expect(page.schedules.map((s) => s.schedule_id)).toEqual(all);
    expect(page.links.next).toBeNull();
    // Each element is the schedule's own answer.
    for (const schedule of page.schedules) {
      expect((await one(`/api/v1/schedules/${schedule.schedule_id}`)).body).toEqual(schedule);
    }
    const desc = await list("/api/v1/schedules?order=DESC");
    expect(desc.schedules.map((s) => s.schedule_id)).toEqual([...all].reverse());
  });

  it("pages on schedule.id, keeping the limit as sent", async () => {
    const first = await list("/api/v1/schedules?limit=2");
    expect(first.schedules.map((s) => s.schedule_id)).toEqual(all.slice(0, 2));
    expect(first.links.next).toBe(`/api/v1/schedules?limit=2&schedule.id=gt:${all[1]}`);
    const second = await list(first.links.next!);
    expect(second.schedules.map((s) => s.schedule_id)).toEqual(all.slice(2, 4));
    const response = await get(`/api/v1/schedules?order=desc&limit=4`);
    const body = response.body as SchedulesPage;
    expect(body.links.next).toBe(
      `/api/v1/schedules?order=desc&limit=4&schedule.id=lt:${all[all.length - 4]}`,
    );
    expect(response.headers.get("link")).toBe(`<${body.links.next}>; rel="next"`);
    // A full page whose next range would be empty links nowhere.
    const bounded = await list(`/api/v1/schedules?schedule.id=lte:${all[2]}&limit=3`);
    expect(bounded.schedules).toHaveLength(3);
    expect(bounded.links.next).toBeNull();
  });

  it("filters on the creator, not on the payer, every value ANDed", async () => {
    const byAlice = await list(`/api/v1/schedules?account.id=${id("alice")}`);
    // NOW is paid by bob but created by alice.
    expect(byAlice.schedules.map((s) => s.schedule_id)).toEqual([
      scheduleOf("pay-create"),
      scheduleOf("now-create"),
    ]);
    const byBob = await list(`/api/v1/schedules?account.id=${id("bob").split(".")[2]}`);
    expect(byBob.schedules.map((s) => s.schedule_id)).toEqual([
      scheduleOf("gone-create"),
      scheduleOf("twice-create"),
    ]);
    expect(
      (await list(`/api/v1/schedules?account.id=${id("alice")}&account.id=${id("bob")}`)).schedules,
    ).toEqual([]);
    const notAlice = await list(`/api/v1/schedules?account.id=ne:${id("alice")}&order=desc`);
    expect(notAlice.schedules.map((s) => s.schedule_id)).toEqual(all.slice(2).reverse());
    const range = await list(`/api/v1/schedules?account.id=gte:${id("bob")}&account.id=lt:${id("dave")}`);
    expect(range.schedules.map((s) => s.creator_account_id)).toEqual([id("carol"), id("bob"), id("bob")]);
    // A long-zero EVM address names the account; another EVM address names none.
    const evm = `0x${"0".repeat(24)}${BigInt(id("alice").split(".")[2]!).toString(16).padStart(16, "0")}`;
    expect((await list(`/api/v1/schedules?account.id=${evm}`)).schedules).toEqual(byAlice.schedules);
    const opaque = "0x06bd279138d5918402fc8ad500526cb2ee0eb985";
    expect((await list(`/api/v1/schedules?account.id=${opaque}`)).schedules).toEqual([]);
  });

  it("filters on the schedule ID in any spelling and with every operator", async () => {
    const [, second, third, fourth, fifth] = all;
    const num = (entity: string) => entity.split(".")[2]!;
    for (const spelling of [second!, num(second!), `0.${num(second!)}`]) {
      const page = await list(`/api/v1/schedules?schedule.id=${spelling}`);
      expect(page.schedules.map((s) => s.schedule_id)).toEqual([second]);
    }
    const range = await list(`/api/v1/schedules?schedule.id=gt:${third}&schedule.id=lte:${fifth}`);
    expect(range.schedules.map((s) => s.schedule_id)).toEqual([fourth, fifth]);
    const skip = await list(`/api/v1/schedules?schedule.id=ne:${second}&schedule.id=lt:${fourth}`);
    expect(skip.schedules.map((s) => s.schedule_id)).toEqual([all[0], third]);
    const both = await list(`/api/v1/schedules?schedule.id=${second}&schedule.id=${third}`);
    expect(both).toEqual({ schedules: [], links: { next: null } });
    const unknown = await list("/api/v1/schedules?schedule.id=0.0.99999");
    expect(unknown).toEqual({ schedules: [], links: { next: null } });
  });

  it("reports invalid values in query order, then unknown parameters", async () => {
    expect(
      await errors(
        "/api/v1/schedules?account.id=-92233720368547758080&schedule.id=x.y.z&order=d&limit=-1&timestamp=1234",
      ),
    ).toEqual([
      "Invalid parameter: account.id",
      "Invalid parameter: schedule.id",
      "Invalid parameter: order",
      "Invalid parameter: limit",
      "Unknown query parameter: timestamp",
    ]);
    expect(await errors("/api/v1/schedules?crypto=true")).toEqual(["Unknown query parameter: crypto"]);
  });
});

describe("a schedule's Cache-Control (upstream getScheduleCacheControlHeader)", () => {
  const second = 1_000_000_000n;
  const pending = {
    id: 1n,
    createdNs: 1000n * second,
    creatorId: 2n,
    payerId: 2n,
    expirationNs: null,
    waitForExpiry: false,
    memo: "",
    adminKey: null,
    deleted: false,
    executedNs: null,
    transactionBody: Buffer.alloc(0),
    signatures: [],
  };

  it("settles when executed or deleted, whatever the time", () => {
    expect(isSettled({ ...pending, executedNs: 1001n * second }, 0n)).toBe(true);
    expect(isSettled({ ...pending, deleted: true }, 0n)).toBe(true);
  });

  it("settles 31 minutes after creation without an expiration time, a minute after one with it", () => {
    const implicit = pending.createdNs + 31n * 60n * second;
    expect(isSettled(pending, implicit - 1n)).toBe(false);
    expect(isSettled(pending, implicit)).toBe(true);
    const expiring = { ...pending, expirationNs: 5000n * second };
    expect(isSettled(expiring, implicit)).toBe(false);
    expect(isSettled(expiring, 5060n * second - 1n)).toBe(false);
    expect(isSettled(expiring, 5060n * second)).toBe(true);
  });
});

describe("postgresBase64", () => {
  it("breaks lines after every 76 characters, as PostgreSQL's encode does", () => {
    expect(postgresBase64(Buffer.alloc(64, 0xab))).toBe(`${"q6ur".repeat(19)}\n${"q6ur".repeat(2)}qw==`);
    expect(postgresBase64(Buffer.alloc(57, 1))).toHaveLength(76);
    expect(postgresBase64(Buffer.alloc(58, 1))).toMatch(/^[A-Za-z0-9+/]{76}\n[A-Za-z0-9+/]{2}==$/);
    expect(
      postgresBase64(Buffer.alloc(114, 1))
        .split("\n")
        .map((line) => line.length),
    ).toEqual([76, 76]);
    expect(postgresBase64(Buffer.alloc(0))).toBe("");
  });
});

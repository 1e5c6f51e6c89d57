/**
 * The contracts routes on the `contracts` scenario (an ERC-20, a reverter, a logger of 0-4 topics, a factory, an
 * EthereumTransaction of each type, an update and a delete): logs with their filters, pair bounds and links,
 * Ethereum result fields in tinybars and weibars, results by sender and block, state as of an instant, contract
 * versions, and every body against the OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import { stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

const scenario = useScenario("contracts");
const { ledger } = scenario;

async function get(path: string, status = 200): Promise<Record<string, unknown>> {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  return response.body as Record<string, unknown>;
}

type Log = { contract_id: string; index: number; timestamp: string; topics: string[]; data: string };
type Result = Record<string, unknown> & { timestamp: string };

const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const word = (hex: string) => `0x${hex.replace(/^0x/, "").padStart(64, "0")}`;
const at = (label: string) => stepTime(ledger, label);

async function logs(path: string): Promise<Log[]> {
  return (await get(path)).logs as Log[];
}

/** Every page of a list, following links.next. */
async function allPages(first: string, key: string): Promise<unknown[]> {
  const out: unknown[] = [];
  let path: string | null = first;
  for (let guard = 0; path !== null && guard < 100; guard++) {
    const body = await get(path);
    out.push(...(body[key] as unknown[]));
    path = (body.links as { next: string | null }).next;
  }
  return out;
}

describe("logs", () => {
  it("lists the logger's five logs (0 to 4 topics) of one call by index", async () => {
    const t = at("logs-0-to-4");
    const found = await logs(`/api/v1/contracts/0.0.1006/results/logs?timestamp=${t}&order=asc`);
    expect(found.map((l) => [l.index, l.topics.length])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    expect(found[4]!.topics).toEqual([word("01"), word("02"), word("03"), word("04")]);
    expect(found[0]!.data).toBe(word("2a"));
  });

  it("pages every log exactly once in both orders, whatever the page size, on (timestamp, index)", async () => {
    const all = (await allPages("/api/v1/contracts/results/logs?limit=100&order=asc", "logs")) as Log[];
    const keys = all.map((l) => `${l.timestamp}/${l.index}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(all.length).toBeGreaterThanOrEqual(9);
    for (const limit of [1, 2, 3]) {
      const asc = (await allPages(
        `/api/v1/contracts/results/logs?limit=${limit}&order=asc`,
        "logs",
      )) as Log[];
      expect(asc.map((l) => `${l.timestamp}/${l.index}`)).toEqual(keys);
      const desc = (await allPages(`/api/v1/contracts/results/logs?limit=${limit}`, "logs")) as Log[];
      expect(desc.map((l) => `${l.timestamp}/${l.index}`)).toEqual([...keys].reverse());
    }
    const byLogger = (await allPages("/api/v1/contracts/0.0.1006/results/logs?limit=2", "logs")) as Log[];
    expect(byLogger.map((l) => `${l.timestamp}/${l.index}`)).toEqual(
      [...keys.filter((_, i) => all[i]!.contract_id === "0.0.1006")].reverse(),
    );
  });

  it("writes upstream's two-key links", async () => {
    const t = at("logs-0-to-4");
    const body = await get(`/api/v1/contracts/0.0.1006/results/logs?timestamp=${t}&limit=2&order=asc`);
    expect((body.links as { next: string }).next).toBe(
      `/api/v1/contracts/0.0.1006/results/logs?timestamp=${t}&limit=2&order=asc&index=gt:1`,
    );
    const next = await logs(
      `/api/v1/contracts/0.0.1006/results/logs?timestamp=${t}&limit=2&order=asc&index=gt:1`,
    );
    expect(next.map((l) => l.index)).toEqual([2, 3]);
    // gte:T with index=gt:I continues after log I of T.
    const after = await logs(
      `/api/v1/contracts/results/logs?timestamp=gte:${t}&index=gt:3&order=asc&limit=2`,
    );
    expect(after.map((l) => `${l.timestamp}/${l.index}`)).toEqual([`${t}/4`, expect.any(String)]);
    expect(after[1]!.timestamp > t).toBe(true);
    // timestamp=eq with index=eq is one log and never links on.
    const one = await get(`/api/v1/contracts/results/logs?timestamp=${t}&index=2&limit=1`);
    expect((one.logs as Log[]).map((l) => l.index)).toEqual([2]);
    expect(one.links).toEqual({ next: null });
  });

  it("filters by topics (without leading zeros, IN lists per position) within a range", async () => {
    const from = at("create-token");
    const to = at("eth-file");
    const transfers = await logs(
      `/api/v1/contracts/results/logs?topic0=${TRANSFER}&timestamp=gte:${from}&timestamp=lte:${to}&order=asc`,
    );
    expect(transfers.map((l) => l.timestamp)).toEqual([
      at("create-token"),
      at("transfer-1"),
      at("eth-legacy"),
    ]);
    const toBob = await logs(
      `/api/v1/contracts/results/logs?topic0=${TRANSFER}&topic2=0x3ea&timestamp=gte:${from}&timestamp=lte:${to}`,
    );
    expect(toBob.map((l) => l.timestamp)).toEqual([at("eth-legacy"), at("transfer-1")]);
    const topic1Is1 = await logs(
      `/api/v1/contracts/0.0.1006/results/logs?topic0=1&topic0=0x0000000000000000000000000000000000000000000000000000000000000002&timestamp=gte:${from}&timestamp=lte:${to}&order=asc`,
    );
    // topic0 of 0x01 (logs 1-4 of the logger call, and the eth-file log); nothing has topic0 0x02.
    expect(topic1Is1.map((l) => `${l.timestamp}/${l.index}`)).toEqual([
      `${at("logs-0-to-4")}/1`,
      `${at("logs-0-to-4")}/2`,
      `${at("logs-0-to-4")}/3`,
      `${at("logs-0-to-4")}/4`,
      `${at("eth-file")}/0`,
    ]);
  });

  it("finds a transaction's logs by its 32-byte hash", async () => {
    const results = (await get(`/api/v1/contracts/results?timestamp=${at("eth-legacy")}`))
      .results as Result[];
    const hash = results[0]!.hash as string;
    const found = await logs(`/api/v1/contracts/results/logs?transaction.hash=${hash}`);
    expect(found.map((l) => l.timestamp)).toEqual([at("eth-legacy")]);
    expect(
      await logs(`/api/v1/contracts/results/logs?transaction.hash=${hash}&timestamp=gt:${at("eth-legacy")}`),
    ).toEqual([]);
  });
});

describe("results", () => {
  it("shows an Ethereum transaction's fields, in tinybars and in weibars", async () => {
    const t = at("eth-1559");
    const tiny = await get(`/api/v1/contracts/0.0.1007/results/${t}`);
    expect(tiny).toMatchObject({
      type: 2,
      nonce: 2,
      amount: 100_000_000,
      status: "0x1",
      to: "0x00000000000000000000000000000000000003ef",
    });
    expect(tiny.chain_id).toMatch(/^0x[0-9a-f]+$/);
    expect(tiny.r).toMatch(/^0x[0-9a-f]{2,64}$/);
    expect(tiny.access_list).toBe("0x");
    const weiPath = `/api/v1/contracts/0.0.1007/results/${t}?hbar=false`;
    await get(weiPath);
    // Printed exactly (10^18 weibar), never through a double.
    expect((await scenario.service.get(weiPath)).text).toContain('"amount":1000000000000000000,');
    const legacy = await get(`/api/v1/contracts/0.0.1004/results/${at("eth-legacy")}`);
    expect(legacy.type).toBe(0);
    expect(typeof legacy.v === "number" || typeof legacy.v === "bigint").toBe(true);
    expect(legacy.from).toBe("0x00000000000000000000000000000000000003eb");
    // A failed Ethereum transaction shows its call data as failed_initcode.
    const failed = await get(`/api/v1/contracts/0.0.1005/results/${at("eth-7702")}`);
    expect(failed).toMatchObject({ type: 4, status: "0x0", result: "CONTRACT_REVERT_EXECUTED" });
    expect(failed.failed_initcode).toBe(failed.function_parameters);
  });

  it("shows call data offloaded to a file as the function parameters", async () => {
    const body = await get(`/api/v1/contracts/0.0.1006/results/${at("eth-file")}`);
    expect(body.function_parameters).toMatch(/^0xb9f90c90/);
  });

  it("lists by sender, by block and with child results", async () => {
    const byCarol = (await get("/api/v1/contracts/results?from=0.0.1003&order=asc")).results as Result[];
    expect(byCarol.map((r) => r.timestamp)).toEqual(
      ["eth-legacy", "eth-2930", "eth-1559", "eth-7702", "eth-file"].map(at),
    );
    const block = ledger.blocks.find((b) => b.from <= at("transfer-1") && at("transfer-1") <= b.to)!;
    const inBlock = (await get(`/api/v1/contracts/results?block.number=${block.number}&order=asc`))
      .results as Result[];
    expect(inBlock.every((r) => r.block_number === Number(block.number))).toBe(true);
    expect(inBlock.map((r) => r.timestamp)).toContain(at("transfer-1"));
    const top = (await get("/api/v1/contracts/0.0.1008/results")).results as Result[];
    const all = (await get("/api/v1/contracts/0.0.1008/results?internal=true")).results as Result[];
    expect(top).toEqual([]);
    expect(all.length).toBe(1);
  });

  it("answers a reverted call with its error message and status 0x0", async () => {
    const body = await get("/api/v1/contracts/results/0.0.1002-1754049597-606384782");
    expect(body).toMatchObject({
      status: "0x0",
      result: "CONTRACT_REVERT_EXECUTED",
      timestamp: at("transfer-reverted"),
    });
    expect(body.error_message).toMatch(/^0x08c379a0/);
  });
});

describe("contracts and state", () => {
  it("answers an updated contract's versions and a deleted one", async () => {
    const now = await get("/api/v1/contracts/0.0.1004");
    expect(now).toMatchObject({ memo: "renamed ERC-20", timestamp: { from: at("update-token"), to: null } });
    const before = await get(`/api/v1/contracts/0.0.1004?timestamp=lt:${at("update-token")}`);
    expect(before).toMatchObject({
      memo: "an ERC-20",
      timestamp: { from: at("create-token"), to: at("update-token") },
    });
    const deleted = await get("/api/v1/contracts/0.0.1005");
    expect(deleted).toMatchObject({ deleted: true, obtainer_id: "0.0.1002" });
    await get("/api/v1/contracts/0.0.1005/results/logs", 200);
  });

  it("answers storage now and as of an instant, and pages by slot", async () => {
    const now = (await get("/api/v1/contracts/0.0.1004/state")).state as Array<{
      slot: string;
      value: string;
    }>;
    expect(now.length).toBe(4);
    const past = (await get(`/api/v1/contracts/0.0.1004/state?timestamp=${at("transfer-1")}`))
      .state as Array<{
      slot: string;
      value: string;
      timestamp: string;
    }>;
    expect(past.length).toBe(3);
    expect(past.find((s) => s.value === word("26ac"))?.timestamp).toBe(at("transfer-1"));
    const paged = await allPages("/api/v1/contracts/0.0.1004/state?limit=1", "state");
    expect(paged).toEqual(now);
  });

  it("answers a call's actions from its sidecar", async () => {
    const body = await get("/api/v1/contracts/results/0.0.1001-1754049597-513806145/actions");
    const actions = body.actions as Array<{ index: number; call_depth: number; caller: string }>;
    expect(actions.length).toBeGreaterThan(0);
    expect(actions[0]).toMatchObject({ index: 0, call_depth: 0 });
  });
});

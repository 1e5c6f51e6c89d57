import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBalanceFile } from "../../src/streams/balance-file.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import {
  balancesAt,
  type HbarMove,
  readHbarMoves,
  type SupplyPoint,
  supplyAt,
  supplyPoints,
  TOTAL_SUPPLY,
  ts,
} from "../helpers/hbar-replay.ts";
import { validateResponse } from "../helpers/openapi.ts";
import {
  copyStream,
  FIXTURE_STREAMS,
  startTestService,
  type TestService,
  tempDir,
} from "../helpers/service.ts";

const SCENARIO = "network-supply";
const ledger = expectedLedger(SCENARIO);
const snapshots = ledger as unknown as {
  balanceSnapshots: Array<{ label: string; file: string; timestamp: string; offBy: Record<string, string> }>;
};
const snapshotNamed = (label: string) => {
  const found = snapshots.balanceSnapshots.find((s) => s.label === label);
  if (!found) throw new Error(`no snapshot ${label}`);
  return found;
};
const balanceDir = join(FIXTURE_STREAMS, SCENARIO, "balance0.0.3");
const nsOf = (timestamp: string) => BigInt(timestamp.replace(".", ""));

let service: TestService;
let moves: HbarMove[];
let points: SupplyPoint[];
let startNs: bigint;
let startBalances: Array<[bigint, bigint]>;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  const stream = copyStream(fixtureStream(SCENARIO));
  cleanups.push(stream.remove);
  const balances = tempDir();
  cleanups.push(balances.remove);
  cpSync(balanceDir, balances.dir, { recursive: true });
  service = await startTestService({ recordsDir: stream.dir, balancesDir: balances.dir });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");

  // The expected answers: the start file's balances, then the record files' own transfer lists.
  const start = snapshotNamed("start");
  const snapshot = parseBalanceFile(start.file, readFileSync(join(balanceDir, start.file)));
  startNs = snapshot.consensusNs;
  startBalances = snapshot.accounts.map((a) => [a.accountId, a.hbarTinybars]);
  moves = readHbarMoves(stream.dir);
  points = supplyPoints({ consensusNs: startNs, balances: startBalances }, moves);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type SupplyBody = { released_supply: string; timestamp: string; total_supply: string };

async function supply(query: string, status = 200): Promise<SupplyBody> {
  const path = `/api/v1/network/supply${query}`;
  const response = await service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  return response.body as SupplyBody;
}

async function expectError(query: string, status: number, message: string, detail: string) {
  const body = await supply(query, status);
  expect(body).toEqual({ _status: { messages: [{ message, detail }] } });
  // Upstream's 4xx answers keep the path's Cache-Control.
  const response = await service.get(`/api/v1/network/supply${query}`);
  expect(response.headers.get("cache-control")).toBe("public, max-age=60");
  expect(response.headers.get("content-type")).toBe("application/json");
}

describe("GET /api/v1/network/supply", () => {
  it("moves with the unreleased accounts in the scenario: 0.0.2, 0.0.749 and 0.0.750 all changed", () => {
    // A sanity check on the replay itself, so that the instants below exercise real changes.
    for (const num of [2n, 749n, 750n]) {
      expect(moves.some((move) => move.amounts.some(([n, amount]) => n === num && amount !== 0n))).toBe(true);
    }
    expect(points.length).toBeGreaterThanOrEqual(8);
    expect(new Set(points.map((p) => p.released)).size).toBeGreaterThanOrEqual(8);
  });

  it("answers the latest state without timestamp, with the latest change among the unreleased accounts", async () => {
    const last = points.at(-1)!;
    expect(await supply("")).toEqual({
      released_supply: last.released.toString(),
      timestamp: ts(last.consensusNs),
      total_supply: TOTAL_SUPPLY.toString(),
    });
  });

  it("sends upstream's headers for every spelling of the path (kept or computed), and 304 for a matching ETag", async () => {
    // A trailing slash is the same route (as Express routes it).
    for (const path of [
      "/api/v1/network/supply",
      "/api/v1/network/supply/",
      "/api/v1/network/supply?q=totalcoins",
    ]) {
      const response = await service.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=60");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("content-type")).toBe(
        path.includes("q=") ? "text/plain;charset=UTF-8" : "application/json;charset=UTF-8",
      );
      const etag = response.headers.get("etag")!;
      expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
      const again = await service.get(path, { "If-None-Match": etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      const head = await fetch(service.baseUrl + path, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("etag")).toBe(etag);
    }
    expect((await service.get("/api/v1/network/supply/")).body).toEqual(
      (await service.get("/api/v1/network/supply")).body,
    );
  });

  it("is exact at every transaction's instant, just before and just after it, against a replay of the transfers", async () => {
    const instants = new Set<bigint>([startNs - 1n, startNs, startNs + 1n]);
    for (const move of moves) for (const d of [-1n, 0n, 1n]) instants.add(move.consensusNs + d);
    for (const at of [...instants].sort()) {
      const expected = supplyAt(points, at);
      const query = `?timestamp=${ts(at)}`;
      if (expected === null) {
        await expectError(query, 404, "Not Found", "Network supply not found");
        continue;
      }
      const body = await supply(query);
      expect(body, query).toEqual({
        released_supply: expected.released.toString(),
        timestamp: ts(expected.consensusNs),
        total_supply: TOTAL_SUPPLY.toString(),
      });
    }
  });

  it("reads the bounds as upstream's Java service does: eq and lte are the instant, lt one ns earlier, gt alone is now", async () => {
    const change = points[3]!;
    const before = supplyAt(points, change.consensusNs - 1n)!;
    const at = ts(change.consensusNs);
    for (const query of [
      `?timestamp=${at}`,
      `?timestamp=eq:${at}`,
      `?timestamp=lte:${at}`,
      `?timestamp=LTE:${at}`,
    ]) {
      expect((await supply(query)).timestamp, query).toBe(at);
    }
    expect((await supply(`?timestamp=lt:${at}`)).timestamp).toBe(ts(before.consensusNs));
    expect((await supply(`?timestamp=gte:${ts(startNs)}&timestamp=lt:${at}`)).released_supply).toBe(
      before.released.toString(),
    );
    // Only a lower bound: the state now (upstream's snapshots would find nothing in year 2262).
    expect((await supply(`?timestamp=gt:${at}`)).timestamp).toBe(ts(points.at(-1)!.consensusNs));
    // The Java parser counts the fraction in nanoseconds: `.3` is 3 ns, before the starting snapshot's .300000000.
    const seconds = startNs / 1_000_000_000n;
    await expectError(`?timestamp=${seconds}.3`, 404, "Not Found", "Network supply not found");
    // A blank value is no filter; unknown parameters are ignored.
    expect((await supply("?timestamp=&foo=bar&limit=abc")).timestamp).toBe(ts(points.at(-1)!.consensusNs));
  });

  it("answers q=totalcoins and q=circulating as text/plain hbar with eight decimals", async () => {
    const last = points.at(-1)!;
    const hbar = (tinybars: bigint) =>
      `${tinybars / 100_000_000n}.${(tinybars % 100_000_000n).toString().padStart(8, "0")}`;
    for (const [query, text] of [
      ["?q=totalcoins", "50000000000.00000000"],
      ["?q=TotalCoins", "50000000000.00000000"],
      ["?q=circulating", hbar(last.released)],
      ["?q=CIRCULATING&q=totalcoins", hbar(last.released)],
      [`?q=circulating&timestamp=${ts(points[2]!.consensusNs)}`, hbar(points[2]!.released)],
    ] as const) {
      const path = `/api/v1/network/supply${query}`;
      const response = await service.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain;charset=UTF-8");
      expect(response.text, path).toBe(text);
      validateResponse({ path, status: 200, body: response.text, contentType: "text/plain" });
    }
    expect(hbar(points[2]!.released)).not.toBe(hbar(last.released));
  });

  it("refuses bad parameters with upstream's error texts", async () => {
    const at = ts(points[2]!.consensusNs);
    await expectError("?timestamp=abc", 400, "Bad Request", "Failed to convert 'timestamp'");
    await expectError(`?timestamp=ne:${at}`, 400, "Bad Request", "Failed to convert 'timestamp'");
    await expectError("?timestamp=1.1234567890", 400, "Bad Request", "Failed to convert 'timestamp'");
    await expectError(
      `?timestamp=lt:${at}&timestamp=gt:1&timestamp=lte:5`,
      400,
      "Bad Request",
      "timestamp size must be between 0 and 2",
    );
    await expectError(
      `?timestamp=gt:${at}&timestamp=lt:${at}`,
      400,
      "Bad Request",
      "Invalid range provided for timestamp",
    );
    await expectError("?q=everything", 400, "Bad Request", "Failed to convert 'q'");
    await expectError("?timestamp=lte:1", 404, "Not Found", "Network supply not found");
    await expectError("?timestamp=lte:1&q=totalcoins", 404, "Not Found", "Network supply not found");
  });

  it("answers other methods with 405", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const response = await fetch(`${service.baseUrl}/api/v1/network/supply`, { method });
      expect(response.status).toBe(405);
      const body = await response.json();
      expect(body).toEqual({
        _status: {
          messages: [
            { message: "Method Not Allowed", detail: `Request method '${method}' is not supported` },
          ],
        },
      });
      validateResponse({ path: "/api/v1/network/supply", status: 405, body });
    }
  });
});

describe("balance snapshots of the scenario", () => {
  it("start from the newest snapshot at or before the first record and compare the later ones", async () => {
    const response = await service.get("/health/readiness");
    expect(response.status).toBe(200);
    validateResponse({ path: "/health/readiness", status: 200, body: response.body });
    const { balances } = response.body as {
      balances: {
        start: { source: string; timestamp: string };
        snapshotsChecked: number;
        snapshotsDisagreeing: number;
        recentChecks: Array<{ file: string; accounts: number; differences: number; examples: string[] }>;
      };
    };
    const start = snapshotNamed("start");
    expect(balances.start).toEqual({ source: start.file, timestamp: start.timestamp });
    expect(balances.snapshotsChecked).toBe(2);
    expect(balances.snapshotsDisagreeing).toBe(1);
    const [agrees, disagrees] = balances.recentChecks;
    expect(agrees).toMatchObject({ file: snapshotNamed("agrees").file, differences: 0 });
    expect(agrees!.accounts).toBeGreaterThan(5);
    const wrong = snapshotNamed("disagrees");
    expect(disagrees).toMatchObject({ file: wrong.file, differences: Object.keys(wrong.offBy).length });
    // Each difference names the account, the file's balance and the indexed one (from the replay).
    const replayed = balancesAt(startBalances, moves, startNs, nsOf(wrong.timestamp));
    const expected = Object.entries(wrong.offBy).map(([id, off]) => {
      const indexed = replayed.get(BigInt(id.split(".")[2]!))!;
      return `${id}: hbar ${indexed + BigInt(off)} in the file, ${indexed} indexed`;
    });
    expect([...disagrees!.examples].sort()).toEqual(expected.sort());
  });

  it("the disagreeing snapshot changed nothing: the supply at its instant is the replay's", async () => {
    const at = nsOf(snapshotNamed("disagrees").timestamp);
    const expected = supplyAt(points, at)!;
    expect((await supply(`?timestamp=${ts(at)}`)).released_supply).toBe(expected.released.toString());
  });
});

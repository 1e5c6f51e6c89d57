/**
 * `GET /api/v1/network/exchangerate`, `/fees` and `/stake` on the `network` scenario: system files rebuilt from
 * updates and appends (an empty update skipped, unparsable versions falling back, bytes that never parse
 * answering 404), the current/next switch around expiry, stake fractions, and every error text.
 */
import { describe, expect, it } from "vitest";
import { shiftTimestamp, stepTime, useScenario } from "../helpers/fixtures.ts";
import { compileResponseValidator, validateResponse } from "../helpers/openapi.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import type { TestResponse } from "../helpers/service.ts";

const scenario = useScenario("network");
const { ledger } = scenario;

/** GET, checked against the OpenAPI document. */
async function get(path: string): Promise<TestResponse> {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

/** A conditional GET over plain node:http (fetch marks conditional requests `Cache-Control: no-cache`). */
async function conditionalGet(path: string, etag: string): Promise<{ status: number; body: string }> {
  const { status, body } = await rawRequest(`${scenario.service.baseUrl}${path}`, {
    headers: { "If-None-Match": etag },
  });
  return { status, body };
}

function detailOf(response: TestResponse): unknown {
  return (response.body as { _status: { messages: Array<{ detail?: string }> } })._status.messages.map(
    (m) => m.detail,
  );
}

const RATES_1 = {
  current_rate: { cent_equivalent: 360000, expiration_time: 1717203600, hbar_equivalent: 30000 },
  next_rate: { cent_equivalent: 372000, expiration_time: 1717207200, hbar_equivalent: 30000 },
};
const CURRENT_FEES = [
  { gas: 71, transaction_type: "ContractCall" }, // 852000 / 1000 * 30000 / 360000
  { gas: 89, transaction_type: "ContractCreate" }, // 1068000 / 1000 * 30000 / 360000
  { gas: 79, transaction_type: "EthereumTransaction" }, // 953000 / 1000 * 30000 / 360000
];
const NEXT_FEES = [
  { gas: 72, transaction_type: "ContractCall" }, // 900000 / 1000 * 30000 / 372000
  { gas: 88, transaction_type: "ContractCreate" }, // 1100000 / 1000 * 30000 / 372000
  { gas: 79, transaction_type: "EthereumTransaction" }, // 990000 / 1000 * 30000 / 372000
];
/** The current rate and schedule expire at 2024-06-01T01:00:00Z. */
const EXPIRY = "1717203600.000000000";

describe("GET /api/v1/network/exchangerate", () => {
  it("serves the newest version that parses: an empty update is skipped, a garbage update falls back", async () => {
    const response = await get("/api/v1/network/exchangerate");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...RATES_1, timestamp: stepTime(ledger, "rates-1") });
    // A failed update with parseable rates was never kept: as of its time the rates are still rates-1's.
    const failed = ledger.steps.find((s) => s.label === "rates-failed");
    expect(failed?.status).toBe("AUTHORIZATION_FAILED");
    const atFailed = await get(`/api/v1/network/exchangerate?timestamp=${stepTime(ledger, "rates-failed")}`);
    expect(atFailed.body).toEqual({ ...RATES_1, timestamp: stepTime(ledger, "rates-1") });
  });

  it("answers as of timestamp bounds", async () => {
    const rates1 = stepTime(ledger, "rates-1");
    for (const query of [`timestamp=${rates1}`, `timestamp=lte:${rates1}`, `timestamp=gte:${rates1}`]) {
      const response = await get(`/api/v1/network/exchangerate?${query}`);
      expect(response.status, query).toBe(200);
      expect((response.body as { timestamp: string }).timestamp, query).toBe(rates1);
    }
    // Only a lower bound after rates-1: the garbage version falls back to nothing within the bounds.
    const after = await get(`/api/v1/network/exchangerate?timestamp=gt:${rates1}`);
    expect(after.status).toBe(404);
    expect(detailOf(after)).toEqual(["File 0.0.112 not found"]);
  });

  it("answers 404 before any version parses (the first bytes never do; ingestion went on)", async () => {
    const before = await get(`/api/v1/network/exchangerate?timestamp=lt:${stepTime(ledger, "rates-1")}`);
    expect(before.status).toBe(404);
    expect(before.body).toEqual({
      _status: { messages: [{ message: "Not Found", detail: "File 0.0.112 not found" }] },
    });
    expect(before.headers.get("content-type")).toBe("application/json");
    // The path's Cache-Control is set before the parameters are read, so errors keep it; no ETag on errors.
    expect(before.headers.get("cache-control")).toBe("public, max-age=60");
    expect(before.headers.get("etag")).toBeNull();
  });

  it("reads the fraction of a timestamp as nanoseconds, and the last upper bound wins", async () => {
    const rates1 = stepTime(ledger, "rates-1");
    const [seconds, nanos] = rates1.split(".") as [string, string];
    const raw = await get(`/api/v1/network/exchangerate?timestamp=${seconds}.${BigInt(nanos)}`);
    expect(raw.status).toBe(200);
    const twoUppers = await get(
      `/api/v1/network/exchangerate?timestamp=lt:${rates1}&timestamp=lte:${rates1}`,
    );
    expect(twoUppers.status).toBe(200);
  });

  it("answers upstream's error details", async () => {
    const cases: Array<[string, string]> = [
      ["timestamp=test&timestamp=%3cscript%3e", "Failed to convert 'timestamp'"],
      ["timestamp=ne:1", "Failed to convert 'timestamp'"],
      ["timestamp=1&timestamp=lt:2&timestamp=gt:0", "timestamp size must be between 0 and 2"],
    ];
    for (const [query, detail] of cases) {
      const response = await get(`/api/v1/network/exchangerate?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual({ _status: { messages: [{ message: "Bad Request", detail }] } });
    }
  });

  it("ignores unknown parameters and sends the Java service's headers, with a strong ETag and 304", async () => {
    const response = await get("/api/v1/network/exchangerate?foo=bar&Timestamp=x");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const etag = response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
    const again = await conditionalGet("/api/v1/network/exchangerate?foo=bar&Timestamp=x", etag);
    expect(again).toEqual({ status: 304, body: "" });
  });

  it("answers a repeated request (kept in the response cache) exactly as the first", async () => {
    const url = "/api/v1/network/exchangerate?repeat=1";
    const first = await get(url);
    const second = await get(url);
    expect(second.text).toBe(first.text);
    const headers = (r: TestResponse) =>
      [...r.headers.entries()].filter(([name]) => !["date", "connection", "keep-alive"].includes(name));
    expect(headers(second).sort()).toEqual(headers(first).sort());
  });

  it("answers 405 for other methods", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const response = await fetch(`${scenario.service.baseUrl}/api/v1/network/exchangerate`, { method });
      expect(response.status, method).toBe(405);
      const body = await response.json();
      expect(body).toEqual({
        _status: {
          messages: [
            { message: "Method Not Allowed", detail: `Request method '${method}' is not supported` },
          ],
        },
      });
      // A 405 body has the Java error shape every network error has.
      expect(
        compileResponseValidator({ template: "/api/v1/network/exchangerate", method: "get", status: 400 })(
          body,
        ),
      ).toBe(true);
      expect(response.headers.get("allow")).toContain("GET");
    }
  });
});

describe("GET /api/v1/network/fees", () => {
  it("converts the current schedule's gas prices at the current rate, by type ascending", async () => {
    const response = await get("/api/v1/network/fees");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ fees: CURRENT_FEES, timestamp: stepTime(ledger, "fees-part-3") });
  });

  it("orders by type, either way and in any case", async () => {
    const response = await get("/api/v1/network/fees?order=DESC");
    expect((response.body as { fees: unknown[] }).fees).toEqual([...CURRENT_FEES].reverse());
  });

  it("switches to the next schedule and rate once the reference time is past their expiry", async () => {
    const atExpiry = await get(`/api/v1/network/fees?timestamp=${EXPIRY}`);
    expect((atExpiry.body as { fees: unknown[] }).fees).toEqual(CURRENT_FEES);
    const justAfter = await get(`/api/v1/network/fees?timestamp=lte:${shiftTimestamp(EXPIRY, 1n)}`);
    expect(justAfter.body).toEqual({ fees: NEXT_FEES, timestamp: stepTime(ledger, "fees-part-3") });
    const lt = await get(`/api/v1/network/fees?timestamp=lt:${shiftTimestamp(EXPIRY, 1n)}`);
    expect((lt.body as { fees: unknown[] }).fees).toEqual(CURRENT_FEES);
  });

  it("answers 404 while the schedule is only partly uploaded (the parts never parse)", async () => {
    for (const label of ["fees-part-1", "fees-part-2"]) {
      const response = await get(`/api/v1/network/fees?timestamp=${stepTime(ledger, label)}`);
      expect(response.status, label).toBe(404);
      expect(detailOf(response)).toEqual(["File 0.0.111 not found"]);
    }
    const complete = await get(`/api/v1/network/fees?timestamp=${stepTime(ledger, "fees-part-3")}`);
    expect(complete.status).toBe(200);
  });

  it("converts every argument before validating any", async () => {
    const cases: Array<[string, string]> = [
      ["order=up", "Failed to convert 'order'"],
      ["timestamp=x&order=up", "Failed to convert 'timestamp'"],
      ["timestamp=1&timestamp=2&timestamp=3&order=up", "Failed to convert 'order'"],
      ["timestamp=1&timestamp=2&timestamp=3", "timestamp size must be between 0 and 2"],
    ];
    for (const [query, detail] of cases) {
      const response = await get(`/api/v1/network/fees?${query}`);
      expect(response.status, query).toBe(400);
      expect(detailOf(response), query).toEqual([detail]);
    }
  });

  it("answers 405 for PUT but leaves POST to the fee-estimation route", async () => {
    const put = await fetch(`${scenario.service.baseUrl}/api/v1/network/fees`, { method: "PUT" });
    expect(put.status).toBe(405);
    const post = await fetch(`${scenario.service.baseUrl}/api/v1/network/fees`, { method: "POST" });
    expect(post.status).not.toBe(405);
  });
});

describe("GET /api/v1/network/stake", () => {
  it("serves the latest NodeStakeUpdate with Java float fractions and the summed stake", async () => {
    const response = await get("/api/v1/network/stake?ignored=1");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      max_stake_rewarded: 0,
      max_staking_reward_rate_per_hbar: 0,
      max_total_reward: 0,
      node_reward_fee_fraction: 0.33333334,
      reserved_staking_rewards: 0,
      reward_balance_threshold: 0,
      stake_total: 18000, // (1000 + 1000) + (2000 + 0) + (3000 + 7000) + (4000 + 0)
      staking_period: { from: "1717286400.000000000", to: "1717372800.000000000" },
      staking_period_duration: 1440,
      staking_periods_stored: 365,
      staking_reward_fee_fraction: 0,
      staking_reward_rate: 0,
      staking_start_threshold: 0,
      unreserved_staking_reward_balance: 0,
    });
    // 1/3 rounded half-up to 9 decimals, then a Java float; a zero denominator gives 0.0.
    expect(response.text).toContain('"node_reward_fee_fraction":0.33333334,');
    expect(response.text).toContain('"staking_reward_fee_fraction":0.0,');
  });

  it("answers 405 for other methods", async () => {
    const response = await fetch(`${scenario.service.baseUrl}/api/v1/network/stake`, { method: "DELETE" });
    expect(response.status).toBe(405);
  });
});

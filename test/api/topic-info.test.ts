/**
 * `GET /api/v1/topics/{topicId}` (the Java service's) on the `topics` scenario: keys as the Java mapper prints
 * them, custom fees with the time they were last set, fee-exempt keys, deletion, the last change's time; the
 * Java error bodies and headers; and which spellings reach the route at all (the public ingress sends only
 * numeric ones to the Java service, the rest are the Node service's 404).
 */
import { describe, expect, it } from "vitest";
import { stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import type { TestResponse } from "../helpers/service.ts";

const scenario = useScenario("topics");
const { ledger } = scenario;

const keyHex = (name: string) => ledger.accounts[name]!.key;
/** The raw ED25519 public key of an account whose protobuf key is `1220` + 32 bytes. */
const ed25519 = (name: string) => ({ _type: "ED25519", key: (keyHex(name) ?? "").slice(4) });

async function get(path: string): Promise<TestResponse> {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

async function topic(path: string): Promise<Record<string, unknown>> {
  const response = await get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json;charset=UTF-8");
  expect(response.headers.get("cache-control")).toBe("public, max-age=5");
  return response.body as Record<string, unknown>;
}

describe("GET /api/v1/topics/{topicId}", () => {
  it("shows a public topic with no keys and no fees", async () => {
    const created = stepTime(ledger, "news-create");
    const body = await topic("/api/v1/topics/0.0.1005");
    expect(body).toEqual({
      admin_key: null,
      auto_renew_account: ledger.accounts.alice!.id,
      auto_renew_period: 7776000,
      created_timestamp: created,
      custom_fees: { created_timestamp: created, fixed_fees: [] },
      deleted: false,
      fee_exempt_key_list: [],
      fee_schedule_key: null,
      memo: "News of the day",
      submit_key: null,
      timestamp: { from: created, to: null },
      topic_id: "0.0.1005",
    });
    // Fields in the Java model's order.
    expect(Object.keys(body)).toEqual([
      "admin_key",
      "auto_renew_account",
      "auto_renew_period",
      "created_timestamp",
      "custom_fees",
      "deleted",
      "fee_exempt_key_list",
      "fee_schedule_key",
      "memo",
      "submit_key",
      "timestamp",
      "topic_id",
    ]);
    for (const spelling of ["1005", "0.1005"])
      expect(await topic(`/api/v1/topics/${spelling}`)).toEqual(body);
  });

  it("shows fixed fees as last set, fee-exempt keys, and the last change as timestamp.from", async () => {
    const body = await topic("/api/v1/topics/0.0.1007");
    expect(body).toMatchObject({
      admin_key: ed25519("carol"),
      auto_renew_account: ledger.accounts.carol!.id,
      created_timestamp: stepTime(ledger, "fees-create"),
      // The memo-only update leaves the fee schedule's time where the schedule was last set.
      custom_fees: {
        created_timestamp: stepTime(ledger, "fees-new-schedule"),
        fixed_fees: [
          { amount: 100000000, collector_account_id: ledger.accounts.alice!.id, denominating_token_id: null },
        ],
      },
      deleted: false,
      fee_schedule_key: ed25519("carol"),
      memo: "Paid messages, renamed",
      timestamp: { from: stepTime(ledger, "fees-memo"), to: null },
    });
    const exempt = body.fee_exempt_key_list as { _type: string; key: string }[];
    expect(exempt).toHaveLength(2);
    expect(exempt[0]).toEqual(ed25519("alice"));
    expect(exempt[1]!._type).toBe("ECDSA_SECP256K1");
    expect(exempt[1]!.key).toMatch(/^0[23][0-9a-f]{64}$/);
    expect((body.submit_key as { _type: string })._type).toBe("ECDSA_SECP256K1");
  });

  it("shows a deleted topic, and a removed submit key as the Java service prints an empty key list", async () => {
    const body = await topic("/api/v1/topics/0.0.1006");
    expect(body).toMatchObject({
      admin_key: ed25519("alice"),
      auto_renew_account: ledger.accounts.bob!.id,
      created_timestamp: stepTime(ledger, "private-create"),
      custom_fees: { created_timestamp: stepTime(ledger, "private-create"), fixed_fees: [] },
      deleted: true,
      memo: "",
      submit_key: { _type: "ProtobufEncoded", key: "3200" },
      timestamp: { from: stepTime(ledger, "private-delete"), to: null },
    });
  });

  it("ignores query parameters, as the Java service does", async () => {
    expect(await topic("/api/v1/topics/0.0.1005?foo=1&limit=abc")).toEqual(
      await topic("/api/v1/topics/0.0.1005"),
    );
  });

  it("answers 404 with the Java body for an ID that names no topic", async () => {
    for (const id of ["0.0.999", "0.0.1001", "1004", "1.1005"]) {
      const response = await get(`/api/v1/topics/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.body).toEqual({
        _status: { messages: [{ message: "Not Found", detail: "Topic not found" }] },
      });
      expect(response.headers.get("content-type")).toBe("application/json");
    }
  });

  it("answers 400 Failed to convert 'id' for numeric spellings that name no ID", async () => {
    for (const id of [
      "9223372036854775807",
      "1234567890123",
      "0.0.274877906944",
      "12345.1.1",
      "1024.0.1",
      "0.65536.1",
    ]) {
      const response = await get(`/api/v1/topics/${id}`);
      expect(response.status, id).toBe(400);
      expect(response.body).toEqual({
        _status: { messages: [{ message: "Bad Request", detail: "Failed to convert 'id'" }] },
      });
    }
  });

  it("leaves other spellings to the Node service, which has no such route (404 Not found)", async () => {
    for (const id of ["abc", "0.0.0.2", "-1", "0x3ED", "messages", " 1", "1.", ".1"]) {
      const response = await scenario.service.get(`/api/v1/topics/${encodeURIComponent(id)}`);
      expect(response.status, id).toBe(404);
      expect(response.body).toEqual({ _status: { messages: [{ message: "Not found" }] } });
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    }
  });

  it("answers other methods as the Java service does", async () => {
    const response = await rawRequest(`${scenario.service.baseUrl}/api/v1/topics/0.0.1005`, {
      method: "POST",
    });
    expect(response.status).toBe(405);
    expect(JSON.parse(response.body)).toEqual({
      _status: {
        messages: [{ message: "Method Not Allowed", detail: "Request method 'POST' is not supported" }],
      },
    });
  });
});

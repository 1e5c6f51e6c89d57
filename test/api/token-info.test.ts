import { describe, expect, it } from "vitest";
import { shiftTimestamp, stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

type TokenInfoBody = Record<string, unknown> & {
  custom_fees: {
    created_timestamp: string;
    fixed_fees: unknown[];
    fractional_fees?: unknown[];
    royalty_fees?: unknown[];
  };
};

const scenario = useScenario("tokens");

async function tokenInfo(path: string, status = 200): Promise<TokenInfoBody> {
  const response = await scenario.service.get(path);
  expect(response.status, response.text).toBe(status);
  validateResponse({ path, status, body: response.body });
  return response.body as TokenInfoBody;
}

describe("GET /api/v1/tokens/{tokenId} on the tokens scenario", () => {
  it("shows every token as the scenario left it", async () => {
    for (const [name, token] of Object.entries(scenario.ledger.tokens)) {
      const body = await tokenInfo(`/api/v1/tokens/${token.id}`);
      expect(body.token_id, name).toBe(token.id);
      expect(body.name).toBe(token.name);
      expect(body.symbol).toBe(token.symbol);
      expect(body.memo).toBe(token.memo);
      expect(body.decimals).toBe(String(token.decimals));
      expect(body.type).toBe(token.type);
      expect(body.supply_type).toBe(token.supplyType);
      expect(body.max_supply).toBe(token.maxSupply);
      expect(body.total_supply).toBe(token.totalSupply);
      expect(body.treasury_account_id).toBe(token.treasury);
      expect(body.deleted).toBe(token.deleted);
      expect(body.pause_status === "PAUSED").toBe(token.paused);
      expect(body.created_timestamp).toBe(token.createdTimestamp);
      expect(body.auto_renew_account).toBe(token.autoRenewAccount);
      expect(body.auto_renew_period).toBe(Number(token.autoRenewPeriod));
      const feeList =
        token.type === "NON_FUNGIBLE_UNIQUE"
          ? body.custom_fees.royalty_fees
          : body.custom_fees.fractional_fees;
      expect(body.custom_fees.fixed_fees.length + (feeList?.length ?? 0)).toBe(token.customFeeCount);
    }
  });

  it("prints int64 values exactly: the expiry as an integer of nanoseconds", async () => {
    const gold = scenario.ledger.tokens.GOLD!;
    const response = await scenario.service.get(`/api/v1/tokens/${gold.id}`);
    expect(response.text).toContain(`"expiry_timestamp":${gold.expirySeconds}000000000`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=5");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("accepts every spelling of the id", async () => {
    const gold = scenario.ledger.tokens.GOLD!;
    const num = BigInt(gold.id.split(".")[2]!);
    const hex = num.toString(16).padStart(40, "0");
    const expected = await tokenInfo(`/api/v1/tokens/${gold.id}`);
    for (const spelling of [String(num), `0.${num}`, hex, `0x${hex}`, `0.0.${hex}`]) {
      expect(await tokenInfo(`/api/v1/tokens/${spelling}`)).toEqual(expected);
    }
  });

  it("shows keys by type: ED25519, ECDSA, key lists and threshold keys as protobuf, the empty key list as null", async () => {
    const gold = await tokenInfo(`/api/v1/tokens/${scenario.ledger.tokens.GOLD!.id}`);
    const keys = scenario.ledger.tokens.GOLD!.keys;
    expect(gold.kyc_key).toEqual({ _type: "ECDSA_SECP256K1", key: keys.kyc!.slice(4) });
    expect(gold.fee_schedule_key).toEqual({ _type: "ED25519", key: keys.feeSchedule!.slice(4) });
    expect(gold.freeze_key).toEqual({ _type: "ProtobufEncoded", key: keys.freeze });
    expect(gold.admin_key).toEqual({ _type: "ProtobufEncoded", key: keys.admin });
    // The wipe key was replaced by an empty key list: the mirror node shows that as null.
    expect(gold.wipe_key).toBeNull();
    const immutable = await tokenInfo(`/api/v1/tokens/${scenario.ledger.tokens.IMMUTABLE!.id}`);
    for (const key of [
      "admin_key",
      "kyc_key",
      "freeze_key",
      "wipe_key",
      "supply_key",
      "fee_schedule_key",
      "pause_key",
    ]) {
      expect(immutable[key], key).toBeNull();
    }
    expect(immutable.pause_status).toBe("NOT_APPLICABLE");
  });

  it("reads the token as it was at an instant: eq and lte include the change, lt does not", async () => {
    const gold = scenario.ledger.tokens.GOLD!;
    const rename = stepTime(scenario.ledger, "gold-rename");
    const before = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=lt:${rename}`);
    expect(before.name).toBe("Gold");
    expect(before.symbol).toBe("GLD");
    for (const at of [rename, `eq:${rename}`, `lte:${rename}`]) {
      const after = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${at}`);
      expect(after.name).toBe("Gold Reserve");
      expect(after.modified_timestamp).toBe(rename);
    }
    // Only the last timestamp counts.
    const last = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${rename}&timestamp=lt:${rename}`);
    expect(last.name).toBe("Gold");
  });

  it("keeps total supply exact at each instant, without moving modified_timestamp", async () => {
    const gold = scenario.ledger.tokens.GOLD!;
    const mint = stepTime(scenario.ledger, "gold-mint");
    const burn = stepTime(scenario.ledger, "gold-burn");
    const beforeMint = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=lt:${mint}`);
    const atMint = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${mint}`);
    const atBurn = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${burn}`);
    expect(BigInt(atMint.total_supply as string) - BigInt(beforeMint.total_supply as string)).toBe(
      5_000_000n,
    );
    expect(BigInt(atMint.total_supply as string) - BigInt(atBurn.total_supply as string)).toBe(1_000_000n);
    expect(atBurn.modified_timestamp).toBe(atMint.modified_timestamp);
    expect(atMint.modified_timestamp).toBe(stepTime(scenario.ledger, "gold-unpause"));
  });

  it("shows pause status over time", async () => {
    const gold = scenario.ledger.tokens.GOLD!;
    const pause = stepTime(scenario.ledger, "gold-pause");
    const unpause = stepTime(scenario.ledger, "gold-unpause");
    expect((await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=lt:${pause}`)).pause_status).toBe(
      "UNPAUSED",
    );
    expect((await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${pause}`)).pause_status).toBe("PAUSED");
    expect((await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${unpause}`)).pause_status).toBe("UNPAUSED");
  });

  it("chooses the fee schedule valid at the instant, with its own created_timestamp", async () => {
    const gold = scenario.ledger.tokens.GOLD!;
    const update = stepTime(scenario.ledger, "gold-fee-schedule-update");
    const before = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=lt:${update}`);
    expect(before.custom_fees.created_timestamp).toBe(gold.createdTimestamp);
    expect(before.custom_fees.fixed_fees).toEqual([
      {
        all_collectors_are_exempt: false,
        amount: 50000000,
        collector_account_id: "0.0.1003",
        denominating_token_id: null,
      },
      {
        all_collectors_are_exempt: false,
        amount: 100,
        collector_account_id: "0.0.1003",
        denominating_token_id: scenario.ledger.tokens.COPPER!.id,
      },
    ]);
    expect(before.custom_fees.fractional_fees).toEqual([
      {
        all_collectors_are_exempt: false,
        amount: { numerator: 1, denominator: 100 },
        collector_account_id: "0.0.1003",
        denominating_token_id: gold.id,
        maximum: 10000,
        minimum: 10,
        net_of_transfers: false,
      },
    ]);
    const after = await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${update}`);
    expect(after.custom_fees.created_timestamp).toBe(update);
    // A fixed fee denominated in 0.0.0 is denominated in the token itself.
    expect(after.custom_fees.fixed_fees).toEqual([
      {
        all_collectors_are_exempt: false,
        amount: 2,
        collector_account_id: "0.0.1003",
        denominating_token_id: gold.id,
      },
    ]);
    expect((after.custom_fees.fractional_fees as Array<Record<string, unknown>>)[0]!.net_of_transfers).toBe(
      true,
    );
    // The fee schedule does not count as a modification of the token.
    expect(after.modified_timestamp).toBe(before.modified_timestamp);
  });

  it("shows royalty fees (with and without fallback) for non-fungible tokens, never fractional fees", async () => {
    const art = scenario.ledger.tokens.ART!;
    const noFallback = stepTime(scenario.ledger, "art-royalty-without-fallback");
    const before = await tokenInfo(`/api/v1/tokens/${art.id}?timestamp=lt:${noFallback}`);
    expect(before.custom_fees.fractional_fees).toBeUndefined();
    const royalties = before.custom_fees.royalty_fees as Array<{ fallback_fee: unknown }>;
    expect(royalties.length).toBeGreaterThan(0);
    expect(royalties.some((fee) => fee.fallback_fee !== null)).toBe(true);
    const after = await tokenInfo(`/api/v1/tokens/${art.id}`);
    expect((after.custom_fees.royalty_fees as Array<{ fallback_fee: unknown }>)[0]!.fallback_fee).toBeNull();
  });

  it("marks a deleted token as deleted from the deletion on", async () => {
    const silver = scenario.ledger.tokens.SILVER!;
    const deletion = stepTime(scenario.ledger, "silver-delete");
    expect((await tokenInfo(`/api/v1/tokens/${silver.id}?timestamp=lt:${deletion}`)).deleted).toBe(false);
    expect((await tokenInfo(`/api/v1/tokens/${silver.id}?timestamp=${deletion}`)).deleted).toBe(true);
  });

  it("answers 404 before the token existed, and for unknown tokens", async () => {
    const gold = scenario.ledger.tokens.GOLD!;
    const created = gold.createdTimestamp;
    await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=lt:${created}`, 404);
    expect((await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${created}`)).name).toBe("Gold");
    const missing = await scenario.service.get("/api/v1/tokens/0.0.999999");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ _status: { messages: [{ message: "Not found" }] } });
    expect(missing.headers.get("cache-control")).toBeNull();
    await tokenInfo(`/api/v1/tokens/${gold.id}?timestamp=${shiftTimestamp(created, -1n)}`, 404);
  });

  it("answers bad ids and parameters with the mirror node's 400 messages, in its order", async () => {
    for (const id of [
      "abc",
      "0.0.0x000000000000000000000000000000000000046F",
      "06bd279138d5918402fc8ad500526cb2ee0eb985",
    ]) {
      const response = await scenario.service.get(`/api/v1/tokens/${id}?foo=1`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ _status: { messages: [{ message: "Invalid parameter: tokenid" }] } });
    }
    const gold = scenario.ledger.tokens.GOLD!;
    const response = await scenario.service.get(
      `/api/v1/tokens/${gold.id}?timestamp=-1&account.id=1001&timestamp=gt:1&timestamp=gte:1&timestamp=ne:1&balance=5`,
    );
    expect(response.status).toBe(400);
    validateResponse({ path: `/api/v1/tokens/${gold.id}`, status: 400, body: response.body });
    expect(response.body).toEqual({
      _status: {
        messages: [
          { message: "Invalid parameter: timestamp" },
          { message: "Invalid parameter: timestamp" },
          { message: "Invalid parameter: timestamp" },
          { message: "Invalid parameter: timestamp" },
          { message: "Unknown query parameter: account.id" },
          { message: "Unknown query parameter: balance" },
        ],
      },
    });
    const empty = await scenario.service.get(`/api/v1/tokens/${gold.id}?timestamp=`);
    expect(empty.body).toEqual({ _status: { messages: [{ message: "Invalid parameter: timestamp" }] } });
  });
});

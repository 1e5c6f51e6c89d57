import { describe, expect, it } from "vitest";
import { activeRate, EXCHANGE_RATE_GAS, exchangeRateAnswer } from "../../src/evm/exchange-rate.ts";
import { intrinsicGas } from "../../src/evm/execute.ts";
import { useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

/**
 * The exchange-rate system contract 0x168 through `POST /api/v1/contracts/call` on the bundled demo, whose file
 * 0.0.112 is set in block 0 and replaced later: every expected number is computed here from what
 * `GET /network/exchangerate` answers at the block asked.
 */
const scenario = useScenario("demo");
const PATH = "/api/v1/contracts/call";
const EXCHANGE_RATE = "0x0000000000000000000000000000000000000168";
const TO_TINYBARS = "2e3cff6a";
const TO_TINYCENTS = "43a88229";

/** The public REST monitor's probe, byte for byte. */
const MONITOR_BODY =
  '{"block":"latest","data":"0x2e3cff6a0000000000000000000000000000000000000000000000000000000000000064","estimate":false,"gas":15000000,"gasPrice":100000000,"to":"0x0000000000000000000000000000000000000168"}';

const word = (value: bigint) => value.toString(16).padStart(64, "0");

type CallAnswer = {
  status: number;
  body: { result?: string; _status?: { messages: Array<Record<string, string>> } };
};

async function post(body: unknown): Promise<CallAnswer> {
  const response = await fetch(scenario.service.baseUrl + PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const parsed = JSON.parse(await response.text()) as CallAnswer["body"];
  validateResponse({ path: PATH, method: "post", status: response.status, body: parsed });
  return { status: response.status, body: parsed };
}

type Rate = { cent_equivalent: number; expiration_time: number; hbar_equivalent: number };

/** The rate in force in a block, from the REST API: the file at the block's end, picked by the block's start. */
async function rateOfBlock(number: string): Promise<{ hbar: bigint; cents: bigint }> {
  const block = (await scenario.service.get(`/api/v1/blocks/${number}`)).body as {
    timestamp: { from: string; to: string };
  };
  const rates = (
    await scenario.service.get(`/api/v1/network/exchangerate?timestamp=lte:${block.timestamp.to}`)
  ).body as { current_rate: Rate; next_rate: Rate };
  const nowSeconds = Number(block.timestamp.from.split(".")[0]);
  const rate = nowSeconds > rates.current_rate.expiration_time ? rates.next_rate : rates.current_rate;
  return { hbar: BigInt(rate.hbar_equivalent), cents: BigInt(rate.cent_equivalent) };
}

/** The number of the block holding a labelled step. */
function blockOf(label: string): string {
  const ns = (t: string) => BigInt(t.replace(".", ""));
  const time = ns(scenario.ledger.steps.find((step) => step.label === label)!.consensusTimestamp);
  return scenario.ledger.blocks.find((b) => ns(b.from) <= time && time <= ns(b.to))!.number;
}

const latestBlock = () => scenario.ledger.blocks.at(-1)!.number;

describe("POST /api/v1/contracts/call to the exchange-rate system contract 0x168", () => {
  it("answers the monitor's probe with 100 tinycents in tinybars at the latest rate", async () => {
    const { hbar, cents } = await rateOfBlock(latestBlock());
    const answer = await post(MONITOR_BODY);
    expect(answer).toEqual({ status: 200, body: { result: `0x${word((100n * hbar) / cents)}` } });
  });

  it("uses the rate of the block asked, not the latest", async () => {
    const genesis = blockOf("demo-genesis-rates");
    const later = blockOf("demo-rates-complete");
    const old = await rateOfBlock(genesis);
    const current = await rateOfBlock(later);
    const amount = 1_000_000_000_000n;
    // The demo's two files differ in cents, so the same amount converts differently.
    expect((amount * old.hbar) / old.cents).not.toBe((amount * current.hbar) / current.cents);
    const data = `0x${TO_TINYBARS}${word(amount)}`;
    for (const [block, rate] of [
      [genesis, old],
      [later, current],
    ] as const) {
      expect(await post({ to: EXCHANGE_RATE, data, block })).toEqual({
        status: 200,
        body: { result: `0x${word((amount * rate.hbar) / rate.cents)}` },
      });
    }
  });

  it("converts tinybars to tinycents", async () => {
    const { hbar, cents } = await rateOfBlock(latestBlock());
    const amount = 123_456_789_012n;
    const answer = await post({ to: EXCHANGE_RATE, data: `0x${TO_TINYCENTS}${word(amount)}` });
    expect(answer).toEqual({ status: 200, body: { result: `0x${word((amount * cents) / hbar)}` } });
  });

  it("charges the precompile's fixed gas on top of the intrinsic gas", async () => {
    const data = `0x${TO_TINYBARS}${word(100n)}`;
    const answer = await post({ to: EXCHANGE_RATE, data, estimate: true });
    const expected = intrinsicGas(Buffer.from(data.slice(2), "hex"), false) + EXCHANGE_RATE_GAS;
    expect(answer).toEqual({ status: 200, body: { result: `0x${expected.toString(16)}` } });
    // One gas short of the fixed charge halts out of gas.
    const short = await post({ to: EXCHANGE_RATE, data, gas: Number(expected - 1n) });
    expect(short.status).toBe(400);
    expect(short.body._status!.messages[0]!.message).toBe("INSUFFICIENT_GAS");
  });

  it("halts on an unknown selector or input that is not one word", async () => {
    for (const data of [`0x12345678${word(100n)}`, `0x${TO_TINYBARS}`, `0x${TO_TINYBARS}${word(1n)}00`]) {
      const answer = await post({ to: EXCHANGE_RATE, data });
      expect(answer, data).toEqual({
        status: 400,
        body: {
          _status: { messages: [{ message: "CONTRACT_EXECUTION_EXCEPTION", detail: "", data: "0x" }] },
        },
      });
    }
  });

  it("keeps answering 501 for the system contracts it does not execute", async () => {
    // 0x167 does not know the selector; 0x169 (PRNG) halts on it (see token-facade.test.ts).
    for (const address of ["167", "16a", "16b"]) {
      const answer = await post({
        to: `0x${address.padStart(40, "0")}`,
        data: `0x${TO_TINYBARS}${word(1n)}`,
      });
      expect(answer.status, address).toBe(501);
    }
  });
});

describe("the exchange-rate arithmetic", () => {
  const rates = {
    current: { hbarEquiv: 30_000n, centEquiv: 285_000n, expirationSeconds: 1_000n },
    next: { hbarEquiv: 30_000n, centEquiv: 291_000n, expirationSeconds: 2_000n },
  };

  it("keeps the current rate up to its expiry second and takes the next one after it", () => {
    expect(activeRate(rates, 1_000n)).toBe(rates.current);
    expect(activeRate(rates, 1_001n)).toBe(rates.next);
  });

  it("halts on a result that does not fit upstream's padding and on a zero divisor", () => {
    const toCents = (amount: bigint) => Buffer.from(`${TO_TINYCENTS}${word(amount)}`, "hex");
    const rate = { hbarEquiv: 1n, centEquiv: 2n, expirationSeconds: 0n };
    expect(exchangeRateAnswer(toCents((1n << 254n) - 1n), rate)).not.toBeNull();
    expect(exchangeRateAnswer(toCents(1n << 254n), rate)).toBeNull();
    expect(exchangeRateAnswer(toCents(1n), { ...rate, hbarEquiv: 0n })).toBeNull();
    expect(exchangeRateAnswer(toCents(1n), undefined)).toBeNull();
  });
});

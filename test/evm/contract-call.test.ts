import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmStateQueries } from "../../src/store/evm-state.ts";
import { keccak256 } from "../../src/streams/keccak.ts";
import { expectedLedger, fixtureStream, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { copyStream, REPO_ROOT, startTestService, type TestService } from "../helpers/service.ts";

/**
 * `POST /api/v1/contracts/call` over the `contracts` scenario (fixtures/scenarios/contracts.yaml): the compiled
 * contracts of fixtures/contracts/Contracts.sol executed by the EVM against the indexed state of several blocks,
 * and the probes of test/evm/probes (run as contract creations) for block values, balances, custom errors and a
 * contract reading another. Every body is checked against the OpenAPI document.
 */
const expected = expectedLedger("contracts");
/** The expected accounts with the fields this test reads (expected.json has them; the shared type does not). */
const accounts = expected.accounts as unknown as Record<
  string,
  { id: string; balance: string; evmAddress: string | null }
>;
const selectors = (
  JSON.parse(readFileSync(join(REPO_ROOT, "fixtures/contracts/compiled.json"), "utf8")) as {
    contracts: Record<string, { selectors: Record<string, string> }>;
  }
).contracts;
const probes = (
  JSON.parse(readFileSync(join(REPO_ROOT, "test/evm/probes/probes.json"), "utf8")) as {
    initcode: Record<string, string>;
  }
).initcode;

const PATH = "/api/v1/contracts/call";

/** The long-zero address of a scenario account or contract, 40 hex digits. */
function addressOf(name: string): string {
  const num = BigInt(expected.accounts[name]!.id.split(".")[2]!);
  return num.toString(16).padStart(40, "0");
}

const word = (hex: string) => hex.replace(/^0x/, "").padStart(64, "0");
const call = (contract: string, signature: string, ...args: string[]) =>
  `0x${selectors[contract]!.selectors[signature]}${args.map(word).join("")}`;

/** The ABI word of a uint, as the call's result shows it. */
const uint = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;

/** The number of the block holding a step. */
function blockOf(label: string): number {
  const time = expected.steps.find((step) => step.label === label)!.consensusTimestamp;
  const block = expected.blocks.find((b) => b.from <= time && time <= b.to);
  return Number(block!.number);
}

describe("POST /api/v1/contracts/call on the contracts scenario", () => {
  // --network testnet: the chain id the code sees is 296.
  const scenario = useScenario("contracts", { indexFile: true, config: { network: "testnet" } });

  async function post(body: unknown, contentType = "application/json") {
    const response = await fetch(scenario.service.baseUrl + PATH, {
      method: "POST",
      headers: { "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = JSON.parse(text) as {
      result?: string;
      _status?: { messages: Array<Record<string, string>> };
    };
    validateResponse({ path: PATH, method: "post", status: response.status, body: parsed });
    return { status: response.status, body: parsed };
  }

  it("reads an ERC-20 balance at two blocks between which a transfer changed it", async () => {
    const data = call("Token", "balanceOf(address)", addressOf("bob"));
    const to = addressOf("token");
    const before = blockOf("transfer-1");
    const after = blockOf("eth-legacy");
    expect(after).toBeGreaterThan(before + 1);
    // bob got 100 in transfer-1 and 10 more from carol's legacy Ethereum transfer.
    expect(await post({ to, data, block: String(before + 1) })).toEqual({
      status: 200,
      body: { result: uint(100n) },
    });
    expect(await post({ to, data, block: `0x${after.toString(16)}` })).toEqual({
      status: 200,
      body: { result: uint(110n) },
    });
    expect((await post({ to, data, block: "latest" })).body).toEqual({ result: uint(110n) });
    expect((await post({ to, data })).body).toEqual({ result: uint(110n) });
    expect(
      (await post({ to, data: call("Token", "balanceOf(address)", addressOf("alice")), block: "earliest" }))
        .body,
    ).toEqual({ result: uint(0x26acn) });
    expect((await post({ to: `0x${to}`, data: call("Token", "totalSupply()") })).body).toEqual({
      result: uint(10_000n),
    });
  });

  it("answers empty output for a contract that did not exist yet, and for an address with no code", async () => {
    const data = call("Factory", "last()");
    const factory = addressOf("factory");
    expect((await post({ to: factory, data, block: String(blockOf("create-factory")) })).body).toEqual({
      result: uint(0x3f0n),
    });
    expect((await post({ to: factory, data, block: String(blockOf("create-factory") - 1) })).body).toEqual({
      result: "0x",
    });
    expect(await post({ to: addressOf("alice"), data })).toEqual({ status: 200, body: { result: "0x" } });
    expect((await post({ to: "00000000000000000000000000000000000fffff", data })).body).toEqual({
      result: "0x",
    });
  });

  it("reverts with the reason upstream decodes, its data, and status CONTRACT_REVERT_EXECUTED", async () => {
    const expectedData =
      "0x08c379a0" + word("20") + word("04") + Buffer.from("nope").toString("hex").padEnd(64, "0");
    const reverter = addressOf("reverter");
    const failed = await post({
      to: reverter,
      data: call("Reverter", "fail()"),
      block: String(blockOf("reverter-fails")),
    });
    expect(failed).toEqual({
      status: 400,
      body: {
        _status: { messages: [{ message: "CONTRACT_REVERT_EXECUTED", detail: "nope", data: expectedData }] },
      },
    });
    // bob moving more than he holds: the ERC-20's own require message.
    const transfer = await post({
      from: addressOf("bob"),
      to: addressOf("token"),
      data: call("Token", "transfer(address,uint256)", addressOf("alice"), "1388"),
    });
    expect(transfer.status).toBe(400);
    expect(transfer.body._status!.messages[0]).toMatchObject({
      message: "CONTRACT_REVERT_EXECUTED",
      detail: "insufficient balance",
    });
    // Once deleted, the reverter's address has no code: the same call succeeds with no output.
    expect((await post({ to: reverter, data: call("Reverter", "fail()") })).body).toEqual({ result: "0x" });
  });

  it("reverts with a custom error: empty detail, the error's selector and argument as data", async () => {
    const selector = Buffer.from(keccak256(Buffer.from("Denied(uint256)")))
      .toString("hex")
      .slice(0, 8);
    const denied = await post({ data: `0x${probes.Denier}` });
    expect(denied).toEqual({
      status: 400,
      body: {
        _status: {
          messages: [{ message: "CONTRACT_REVERT_EXECUTED", detail: "", data: `0x${selector}${word("07")}` }],
        },
      },
    });
  });

  it("shows the chain id of --network and the block's number and time to the code", async () => {
    const block = blockOf("logs-0-to-4");
    const seconds = BigInt(expected.blocks[block]!.from.split(".")[0]!);
    const answer = await post({ data: `0x${probes.BlockProbe}`, block: String(block) });
    expect(answer.body).toEqual({
      result: `0x${word((296).toString(16))}${word(block.toString(16))}${word(seconds.toString(16))}`,
    });
  });

  it("converts hbar balances from tinybars to weibars, as of the block asked", async () => {
    const balance = await post({ data: `0x${probes.BalanceProbe}${word(addressOf("alice"))}` });
    expect(balance.body).toEqual({
      result: uint(BigInt(accounts.alice!.balance) * 10_000_000_000n),
    });
    // carol answers at her EVM address alias too.
    const carol = accounts.carol!;
    const byAlias = await post({ data: `0x${probes.BalanceProbe}${word(carol.evmAddress!)}` });
    expect(byAlias.body).toEqual({ result: uint(BigInt(carol.balance) * 10_000_000_000n) });
  });

  it("lets one contract read another (a creation that calls the ERC-20)", async () => {
    const reader = `0x${probes.TokenReader}${word(addressOf("token"))}${word(addressOf("bob"))}`;
    expect((await post({ data: reader, block: String(blockOf("transfer-1") + 1) })).body).toEqual({
      result: uint(100n),
    });
  });

  it("estimates the least gas with which the call succeeds", async () => {
    const request = { to: addressOf("token"), data: call("Token", "balanceOf(address)", addressOf("bob")) };
    const estimate = await post({ ...request, estimate: true });
    expect(estimate.status).toBe(200);
    const gas = BigInt(estimate.body.result!);
    expect(gas).toBeGreaterThan(21_000n);
    expect((await post({ ...request, gas: Number(gas) })).body).toEqual({ result: uint(110n) });
    const short = await post({ ...request, gas: Number(gas) - 1 });
    expect(short.status).toBe(400);
    expect(short.body._status!.messages[0]!.message).toBe("INSUFFICIENT_GAS");
  });

  it("answers 501 for a Hedera system contract function it does not execute", async () => {
    // getTokenInfo(address) of the token scenario.service.
    const answer = await post({
      to: "0000000000000000000000000000000000000167",
      data: `0x1f69565f${word("0")}`,
    });
    expect(answer).toEqual({
      status: 501,
      body: { _status: { messages: [{ message: "Not Implemented", detail: "", data: "" }] } },
    });
  });

  it("reads state with index seeks only (no statement scans a table)", () => {
    const db = new Database(scenario.indexPath, { readonly: true });
    try {
      const texts: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => {
        texts.push(sql);
        return prepare(sql);
      }) as typeof db.prepare;
      createEvmStateQueries(db);
      expect(texts.length).toBeGreaterThan(5);
      for (const sql of texts) {
        const count = (sql.match(/\?/g) ?? []).length;
        const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(count).fill(0)) as Array<{
          detail: string;
        }>;
        const scans = plan.filter((step) => step.detail.startsWith("SCAN"));
        expect(scans, sql).toEqual([]);
      }
    } finally {
      db.close();
    }
  });

  it("validates the request as upstream does", async () => {
    const bad = (detail: string) => ({ message: "Bad Request", detail, data: "" });
    expect(await post({ to: addressOf("token"), gas: 20_000 })).toEqual({
      status: 400,
      body: { _status: { messages: [bad("gas field must be greater than or equal to 21000")] } },
    });
    expect((await post({ to: addressOf("token"), gas: 15_000_001 })).body).toEqual({
      _status: { messages: [bad("gas field must be less than or equal to 15000000")] },
    });
    expect((await post({ to: "xyz", from: "0x12", data: "0xzz" })).body).toEqual({
      _status: {
        messages: [
          bad("data field invalid hexadecimal string"),
          bad("from field invalid hexadecimal string"),
          bad("to field invalid hexadecimal string"),
        ],
      },
    });
    expect((await post({ to: addressOf("token"), value: 5 })).body).toEqual({
      _status: { messages: [bad("from field must not be empty")] },
    });
    expect((await post({ to: addressOf("token"), block: "99" })).body).toEqual({
      _status: { messages: [bad("Unknown block number")] },
    });
    expect((await post({ to: addressOf("token"), block: "soon" })).status).toBe(400);
    expect((await post("{not json")).status).toBe(400);
    const unsupported = await post({ to: addressOf("token") }, "text/plain");
    expect(unsupported).toEqual({
      status: 415,
      body: {
        _status: {
          messages: [
            {
              message: "Unsupported Media Type",
              detail: "Content-Type 'text/plain' is not supported",
              data: "",
            },
          ],
        },
      },
    });
    const get = await scenario.service.get(PATH);
    expect(get.status).toBe(405);
  });
});

describe("POST /api/v1/contracts/call to a token's address (its ERC facade; more in token-facade.test.ts)", () => {
  let service: TestService;
  let remove: () => void;

  beforeAll(async () => {
    const stream = copyStream(fixtureStream("tokens"));
    remove = stream.remove;
    service = await startTestService({ recordsDir: stream.dir, db: join(stream.dir, "..", "index.db") });
    await service.ingest.settled;
  });
  afterAll(async () => {
    await service?.stop();
    remove?.();
  });

  it("answers its decimals through the token service", async () => {
    const num = BigInt(expectedLedger("tokens").tokens.GOLD!.id.split(".")[2]!);
    const response = await fetch(service.baseUrl + PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // decimals()
      body: JSON.stringify({ to: num.toString(16).padStart(40, "0"), data: "0x313ce567" }),
    });
    const body = (await response.json()) as unknown;
    validateResponse({ path: PATH, method: "post", status: response.status, body });
    expect({ status: response.status, body }).toEqual({
      status: 200,
      body: { result: `0x${"2".padStart(64, "0")}` },
    });
  });

  it("answers getTokenCustomFees at 0x167 with the fee schedule /tokens/{id} shows", async () => {
    type Fees = {
      fixed_fees: Array<{
        amount: number;
        collector_account_id: string | null;
        denominating_token_id: string | null;
      }>;
      fractional_fees: Array<{
        amount: { numerator: number; denominator: number };
        collector_account_id: string | null;
        maximum: number | null;
        minimum: number;
        net_of_transfers: boolean;
      }>;
      royalty_fees: Array<{
        amount: { numerator: number; denominator: number };
        collector_account_id: string | null;
        fallback_fee: { amount: number; denominating_token_id: string | null } | null;
      }>;
    };
    const id = (entity: string | null) => (entity === null ? 0n : BigInt(entity.split(".")[2]!));
    const hex = (value: bigint | boolean) =>
      (typeof value === "boolean" ? (value ? 1n : 0n) : value).toString(16).padStart(64, "0");
    const kinds = new Set<string>();
    for (const name of ["GOLD", "ART"]) {
      const tokenId = expectedLedger("tokens").tokens[name]!.id;
      const fees = ((await service.get(`/api/v1/tokens/${tokenId}`)).body as { custom_fees: Fees })
        .custom_fees;
      const fixed = (fees.fixed_fees ?? []).map((f) => [
        BigInt(f.amount),
        id(f.denominating_token_id),
        f.denominating_token_id === null,
        false,
        id(f.collector_account_id),
      ]);
      const fractional = (fees.fractional_fees ?? []).map((f) => [
        BigInt(f.amount.numerator),
        BigInt(f.amount.denominator),
        BigInt(f.minimum),
        BigInt(f.maximum ?? 0),
        f.net_of_transfers,
        id(f.collector_account_id),
      ]);
      const royalty = (fees.royalty_fees ?? []).map((f) => [
        BigInt(f.amount.numerator),
        BigInt(f.amount.denominator),
        BigInt(f.fallback_fee?.amount ?? 0),
        id(f.fallback_fee?.denominating_token_id ?? null),
        (f.fallback_fee?.denominating_token_id ?? null) === null,
        id(f.collector_account_id),
      ]);
      for (const [kind, list] of Object.entries({ fixed, fractional, royalty }))
        if (list.length > 0) kinds.add(kind);
      const arrays = [fixed, fractional, royalty].map(
        (list) => hex(BigInt(list.length)) + list.map((tuple) => tuple.map(hex).join("")).join(""),
      );
      let offset = 4n * 32n;
      const heads = arrays.map((array) => {
        const head = hex(offset);
        offset += BigInt(array.length / 2);
        return head;
      });
      const response = await fetch(service.baseUrl + PATH, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          to: "0000000000000000000000000000000000000167",
          // getTokenCustomFees(address)
          data: `0xae7611a0${id(tokenId).toString(16).padStart(64, "0")}`,
        }),
      });
      expect(await response.json()).toEqual({ result: `0x${hex(22n)}${heads.join("")}${arrays.join("")}` });
    }
    // Between them the two tokens show every kind of fee.
    expect([...kinds].sort()).toEqual(["fixed", "fractional", "royalty"]);
  });
});

/**
 * The contracts routes on real v6 record files (block 6, HAPI 0.28: a ContractCall by 0.0.2 to 0.0.1002 that
 * creates 0.0.1003 in a child ContractCreate, with a sidecar of state changes and bytecode), answered field by field
 * as contracts.md §10 works the example out from upstream's view models.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateResponse } from "../helpers/openapi.ts";
import { copyStream, REAL_STREAMS, startTestService, type TestService } from "../helpers/service.ts";

let service: TestService;
let remove: () => void;

beforeAll(async () => {
  const copy = copyStream(join(REAL_STREAMS, "v6/record0.0.3"));
  remove = copy.remove;
  service = await startTestService({ recordsDir: copy.dir });
  await service.ingest.settled;
});
afterAll(async () => {
  await service?.stop();
  remove?.();
});

async function get(path: string, status = 200): Promise<Record<string, unknown>> {
  const response = await service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  return response.body as Record<string, unknown>;
}

const ZERO_WORD = `0x${"0".repeat(64)}`;
const ZERO_BLOOM = `0x${"0".repeat(512)}`;
const BLOCK_HASH =
  "0x3064b824b8b9f9ece011f88a26c030c9f6b822f30fbcabcc7240a220ea42bbdbf305db415a4e41307d0630d5cefe4550";
const CALL_HASH = "0x3af126ef15641b785e3edb5018209959fc6c6b063deaa55a3331c5489cdbe31b";
const word = (hex: string) => `0x${hex.padStart(64, "0")}`;

const callStateChanges = [
  {
    address: "0x00000000000000000000000000000000000003ea",
    contract_id: "0.0.1002",
    slot: ZERO_WORD,
    value_read: ZERO_WORD,
    value_written: word("3eb"),
  },
  {
    address: "0x00000000000000000000000000000000000003eb",
    contract_id: "0.0.1003",
    slot: ZERO_WORD,
    value_read: ZERO_WORD,
    value_written: word("8"),
  },
];

const callResult = {
  address: "0x00000000000000000000000000000000000003ea",
  amount: 0,
  bloom: ZERO_BLOOM,
  call_result: "0x",
  contract_id: "0.0.1002",
  created_contract_ids: ["0.0.1003"],
  error_message: null,
  from: "0x0000000000000000000000000000000000000002",
  function_parameters: "0xefc81a8c",
  gas_consumed: null,
  gas_limit: 1000000,
  gas_used: 800000,
  timestamp: "1657701971.304284003",
  to: "0x00000000000000000000000000000000000003ea",
  hash: CALL_HASH,
};

const callDetails = {
  ...callResult,
  block_hash: BLOCK_HASH,
  block_number: 6,
  logs: [],
  result: "SUCCESS",
  transaction_index: 0,
  state_changes: callStateChanges,
  status: "0x1",
  failed_initcode: null,
  access_list: null,
  block_gas_used: 800000,
  chain_id: null,
  gas_price: null,
  max_fee_per_gas: null,
  max_priority_fee_per_gas: null,
  r: null,
  s: null,
  type: null,
  v: null,
  nonce: null,
};

describe("contract results of the real v6 files", () => {
  it("answers the call by transaction id, 32-byte hash and contract timestamp alike, in upstream's key order", async () => {
    for (const path of [
      "/api/v1/contracts/results/0.0.2-1657701910-000000144",
      "/api/v1/contracts/results/0.0.2-1657701910-000000144?nonce=0&hbar=true",
      `/api/v1/contracts/results/${CALL_HASH}`,
      `/api/v1/contracts/results/${CALL_HASH.slice(2)}`,
      "/api/v1/contracts/0.0.1002/results/1657701971.304284003",
      "/api/v1/contracts/00000000000000000000000000000000000003EA/results/1657701971.304284003",
    ]) {
      const body = await get(path);
      expect(body, path).toEqual(callDetails);
      expect(Object.keys(body), path).toEqual(Object.keys(callDetails));
    }
  });

  it("finds the call's result from a contract that only changed state in it, and not from others", async () => {
    const body = await get("/api/v1/contracts/0.0.1003/results/1657701971.304284003");
    // The path contract's migration changes would be kept; there are none: every change shows.
    expect(body.state_changes).toEqual(callStateChanges);
    await get("/api/v1/contracts/0.0.1004/results/1657701971.304284003", 404);
    await get("/api/v1/contracts/0.0.1002/results/1657701971.304284002", 404);
  });

  it("answers the child ContractCreate with nonce=1", async () => {
    const body = await get("/api/v1/contracts/results/0.0.2-1657701910-000000144?nonce=1");
    expect(body).toMatchObject({
      contract_id: "0.0.1003",
      gas_used: 0,
      bloom: ZERO_BLOOM,
      call_result: "0x",
      state_changes: [],
      transaction_index: 1,
      timestamp: "1657701971.304284004",
      block_gas_used: 800000,
    });
  });

  it("lists results by contract with list objects, and all results with detailed ones (internal=true for the child)", async () => {
    const byContract = await get("/api/v1/contracts/0.0.1002/results?limit=1");
    expect(byContract).toEqual({
      results: [callResult],
      links: { next: "/api/v1/contracts/0.0.1002/results?limit=1&timestamp=lt:1657701971.304284003" },
    });
    const top = await get("/api/v1/contracts/results");
    expect((top.results as unknown[]).length).toBe(1);
    const { logs: _l, state_changes: _s, ...listed } = callDetails;
    expect(top.results).toEqual([listed]);
    const all = await get("/api/v1/contracts/results?internal=true&order=asc&limit=1");
    expect((all.results as Array<{ timestamp: string }>).map((r) => r.timestamp)).toEqual([
      "1657701971.304284003",
    ]);
    expect((all.links as { next: string }).next).toBe(
      "/api/v1/contracts/results?internal=true&order=asc&limit=1&timestamp=gt:1657701971.304284003",
    );
    const second = await get((all.links as { next: string }).next);
    expect((second.results as Array<{ contract_id: string }>).map((r) => r.contract_id)).toEqual([
      "0.0.1003",
    ]);
    const inBlock = await get(
      `/api/v1/contracts/results?block.hash=${BLOCK_HASH.slice(0, 66)}&transaction.index=0`,
    );
    expect((inBlock.results as unknown[]).length).toBe(1);
    const weibars = await get("/api/v1/contracts/results?hbar=false&block.number=6");
    expect((weibars.results as Array<{ amount: number }>).map((r) => r.amount)).toEqual([0]);
    expect(await get("/api/v1/contracts/results?block.number=7")).toEqual({
      results: [],
      links: { next: null },
    });
    expect(await get("/api/v1/contracts/0.0.1002/results?from=0.0.3")).toEqual({
      results: [],
      links: { next: null },
    });
    expect(((await get("/api/v1/contracts/0.0.1002/results?from=0.0.2")).results as unknown[]).length).toBe(
      1,
    );
  });

  it("has no actions without an action sidecar", async () => {
    expect(await get(`/api/v1/contracts/results/${CALL_HASH}/actions`)).toEqual({
      actions: [],
      links: { next: null },
    });
  });
});

describe("the created contract of the real v6 files", () => {
  it("answers /contracts/{id} with its initcode from the sidecar and runtime bytecode", async () => {
    const body = await get("/api/v1/contracts/0.0.1003");
    expect(body).toMatchObject({
      admin_key: { _type: "ProtobufEncoded" },
      auto_renew_account: null,
      auto_renew_period: 7776000,
      contract_id: "0.0.1003",
      created_timestamp: "1657701971.304284004",
      deleted: false,
      evm_address: "0x00000000000000000000000000000000000003eb",
      expiration_timestamp: "1665477971.304284004",
      file_id: null,
      max_automatic_token_associations: 10,
      memo: "cellar door",
      nonce: null,
      obtainer_id: null,
      permanent_removal: null,
      proxy_account_id: null,
      timestamp: { from: "1657701971.304284004", to: null },
    });
    expect(body.bytecode).toMatch(/^0x6080604052600860005534801560/);
    expect(body.runtime_bytecode).toMatch(/^0x608060405260043610603f57/);
    expect(Object.keys(body).slice(-2)).toEqual(["bytecode", "runtime_bytecode"]);
    for (const path of [
      "/api/v1/contracts/0x00000000000000000000000000000000000003eb",
      "/api/v1/contracts/0.0.00000000000000000000000000000000000003eb",
      "/api/v1/contracts/1003?timestamp=1657701971.304284004",
      "/api/v1/contracts/1003?timestamp=gte:1657701971.304284004",
    ]) {
      expect(await get(path), path).toEqual(body);
    }
    await get("/api/v1/contracts/1003?timestamp=lt:1657701971.304284004", 404);
  });

  it("lists it in /contracts", async () => {
    const list = await get("/api/v1/contracts?limit=1");
    expect((list.contracts as Array<{ contract_id: string }>).map((c) => c.contract_id)).toEqual([
      "0.0.1003",
    ]);
    expect(list.links).toEqual({ next: "/api/v1/contracts?limit=1&contract.id=lt:0.0.1003" });
    expect(await get("/api/v1/contracts?contract.id=lt:0.0.1003")).toEqual({
      contracts: [],
      links: { next: null },
    });
  });

  it("answers its state now and as of the parent call's time (one nanosecond before its own creation)", async () => {
    const expected = {
      state: [
        {
          address: "0x00000000000000000000000000000000000003eb",
          contract_id: "0.0.1003",
          timestamp: "1657701971.304284003",
          slot: ZERO_WORD,
          value: word("8"),
        },
      ],
      links: { next: null },
    };
    expect(await get("/api/v1/contracts/0.0.1003/state")).toEqual(expected);
    expect(await get("/api/v1/contracts/0.0.1003/state?slot=0")).toEqual(expected);
    expect(await get(`/api/v1/contracts/0.0.1003/state?slot=${ZERO_WORD}`)).toEqual(expected);
    expect(await get("/api/v1/contracts/0.0.1003/state?timestamp=1657701971.304284003&slot=0x00")).toEqual(
      expected,
    );
    expect(await get("/api/v1/contracts/0.0.1003/state?timestamp=lt:1657701971.304284003")).toEqual({
      state: [],
      links: { next: null },
    });
    const paged = await get("/api/v1/contracts/0.0.1002/state?limit=1");
    expect(paged.links).toEqual({ next: `/api/v1/contracts/0.0.1002/state?limit=1&slot=gt:${ZERO_WORD}` });
  });

  it("answers /accounts/{evm address} for the contract", async () => {
    const body = await get("/api/v1/accounts/0x00000000000000000000000000000000000003eb");
    expect(body).toMatchObject({
      account: "0.0.1003",
      evm_address: "0x00000000000000000000000000000000000003eb",
    });
  });
});

import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import {
  compileResponseValidator,
  listDocumentedResponses,
  matchPathTemplate,
  resolveRef,
  validateResponse,
} from "../helpers/openapi.ts";
import { loadOpenApiDocument, loadOpenApiYaml } from "../helpers/openapi-document.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Key = string | number;

/** One change to a valid body that must make it invalid; `at` is where, in body keys and indexes. */
type Mutation = { change: string; at: Key[] } & ({ op: "delete" } | { op: "set"; value: Json });

type Example = { name: string; path: string; status: number; body: Json; mutations: Mutation[] };

const realV6File = new URL(
  "../../fixtures/real/v6/record0.0.3/2022-07-13T08_46_11.304284003Z.rcd.gz",
  import.meta.url,
);

describe("the OpenAPI document", () => {
  it("parses as OpenAPI 3.0, once", () => {
    const document = loadOpenApiDocument();
    expect(document.openapi).toMatch(/^3\.0\.\d+$/);
    expect(loadOpenApiDocument()).toBe(document);
    expect(Object.isFrozen(document.components.schemas)).toBe(true);
    expect(loadOpenApiYaml()).toContain("openapi: 3.0.3");
  });

  it("describes exactly the endpoints mirrorlite serves", () => {
    expect(Object.keys(loadOpenApiDocument().paths).sort()).toEqual(
      [
        "/api/v1/accounts",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}",
        "/api/v1/balances",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/airdrops/outstanding",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/airdrops/pending",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/crypto",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/nfts",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/tokens",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks/{hookId}/storage",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/nfts",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards",
        "/api/v1/accounts/{idOrAliasOrEvmAddress}/tokens",
        "/api/v1/blocks",
        "/api/v1/blocks/{hashOrNumber}",
        "/api/v1/contracts",
        "/api/v1/contracts/call",
        "/api/v1/contracts/results",
        "/api/v1/contracts/results/logs",
        "/api/v1/contracts/results/{transactionIdOrHash}",
        "/api/v1/contracts/results/{transactionIdOrHash}/actions",
        "/api/v1/contracts/results/{transactionIdOrHash}/opcodes",
        "/api/v1/contracts/{contractIdOrAddress}",
        "/api/v1/contracts/{contractIdOrAddress}/results",
        "/api/v1/contracts/{contractIdOrAddress}/results/logs",
        "/api/v1/contracts/{contractIdOrAddress}/results/{timestamp}",
        "/api/v1/contracts/{contractIdOrAddress}/state",
        "/api/v1/network/supply",
        "/api/v1/network/exchangerate",
        "/api/v1/network/fees",
        "/api/v1/network/nodes",
        "/api/v1/network/registered-nodes",
        "/api/v1/network/stake",
        "/api/v1/tokens",
        "/api/v1/tokens/balances",
        "/api/v1/tokens/nfts",
        "/api/v1/tokens/nfts/{serialNumber}",
        "/api/v1/tokens/nfts/{serialNumber}/transactions",
        "/api/v1/tokens/{tokenId}",
        "/api/v1/tokens/{tokenId}/balances",
        "/api/v1/tokens/{tokenId}/nfts",
        "/api/v1/tokens/{tokenId}/nfts/{serialNumber}",
        "/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions",
        "/api/v1/topics/{topicId}",
        "/api/v1/topics/{topicId}/messages",
        "/api/v1/topics/{topicId}/messages/{sequenceNumber}",
        "/api/v1/topics/messages/{consensusTimestamp}",
        "/api/v1/transactions",
        "/api/v1/transactions/{transactionIdOrHash}",
        "/api/v1/schedules",
        "/api/v1/schedules/{scheduleId}",
        "/health/liveness",
        "/health/readiness",
        "/api/v1/docs",
        "/api/v1/docs/openapi.json",
        "/api/v1/docs/openapi.yml",
        "/metrics",
      ].sort(),
    );
  });

  it("resolves every $ref", () => {
    const refs = collectRefs(loadOpenApiDocument());
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) expect(() => resolveRef(ref), ref).not.toThrow();
    expect(() => resolveRef("#/components/schemas/NoSuchSchema")).toThrow(/does not resolve/);
  });

  it("declares each path template's parameters as required path parameters, and no others", () => {
    for (const [template, item] of Object.entries(loadOpenApiDocument().paths)) {
      const inTemplate = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const declared = (item.get?.parameters ?? [])
        .map((parameter) => ("$ref" in parameter ? resolveRef(parameter.$ref) : parameter) as Json)
        .filter((parameter) => field(parameter, "in") === "path");
      expect(
        declared.map((parameter) => field(parameter, "name")),
        template,
      ).toEqual(inTemplate);
      for (const parameter of declared) expect(field(parameter, "required"), template).toBe(true);
    }
  });

  it("compiles a validator for every documented response", () => {
    const responses = listDocumentedResponses();
    expect(responses.length).toBeGreaterThanOrEqual(40);
    for (const response of responses) {
      expect(compileResponseValidator(response), `${response.template} ${response.status}`).toBeTypeOf(
        "function",
      );
    }
  });

  it("documents 400 and 503 error bodies on every API operation", () => {
    const responses = listDocumentedResponses();
    // /network/stake takes no parameters (any are ignored), so it has no 400.
    const withoutParameters = new Set(["/api/v1/network/stake"]);
    // The docs routes serve files, not queries: they take no parameters and read no database.
    const apiTemplates = new Set(
      responses.map((r) => r.template).filter((t) => t.startsWith("/api/") && !t.startsWith("/api/v1/docs")),
    );
    for (const template of apiTemplates) {
      const statuses = responses.filter((r) => r.template === template).map((r) => r.status);
      const expected = withoutParameters.has(template) ? [200, 503] : [200, 400, 503];
      expect(statuses, template).toEqual(expect.arrayContaining(expected));
    }
  });
});

describe("matchPathTemplate", () => {
  it.each([
    ["/api/v1/tokens/balances", "/api/v1/tokens/balances"],
    ["/api/v1/tokens/nfts?token.id=0.0.1500", "/api/v1/tokens/nfts"],
    ["/api/v1/tokens/0.0.1001", "/api/v1/tokens/{tokenId}"],
    ["/api/v1/tokens/0.0.1001/balances?account.id=gt:0.0.19", "/api/v1/tokens/{tokenId}/balances"],
    [
      "/api/v1/tokens/0x000000000000000000000000000000000000046F/nfts/3/transactions?limit=2",
      "/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions",
    ],
    ["/api/v1/tokens/nfts/3/transactions?token.id=1500", "/api/v1/tokens/nfts/{serialNumber}/transactions"],
    ["/api/v1/tokens/nfts/3", "/api/v1/tokens/nfts/{serialNumber}"],
    ["/api/v1/blocks/", "/api/v1/blocks"],
    ["http://127.0.0.1:5551/api/v1/blocks/17?x=1", "/api/v1/blocks/{hashOrNumber}"],
    ["/health/readiness", "/health/readiness"],
  ])("%s is served by %s", (path, template) => {
    expect(matchPathTemplate(path)).toBe(template);
  });

  it("rejects paths the document does not describe", () => {
    expect(() => matchPathTemplate("/api/v1/schedules/1/signatures")).toThrow(/no path/);
    expect(() => matchPathTemplate("/api/v1/tokens/1/nfts/2/transactions/3")).toThrow(/no path/);
  });
});

describe("validateResponse", () => {
  it("throws for a status the document does not describe", () => {
    const notFound = { _status: { messages: [{ message: "Not found" }] } };
    expect(() => validateResponse({ path: "/api/v1/tokens", status: 404, body: notFound })).toThrow(
      /no documented 404 response/,
    );
    expect(() => validateResponse({ path: "/api/v1/blocks/1", status: 500, body: notFound })).toThrow(
      /no documented 500 response/,
    );
    expect(() =>
      validateResponse({
        path: "/api/v1/tokens/1/nfts",
        status: 206,
        body: { nfts: [], links: { next: null } },
      }),
    ).toThrow(/no documented 206 response/);
  });

  it("lists every problem with its instance path", () => {
    const body = structuredClone(nftsBody) as Json;
    apply(body, { change: "", at: ["nfts", 0, "serial_number"], op: "set", value: "3" });
    apply(body, { change: "", at: ["links", "next"], op: "delete" });
    let message = "";
    try {
      validateResponse({ path: "/api/v1/tokens/1500/nfts", status: 200, body });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("(2 errors)");
    expect(message).toContain("\n  /nfts/0/serial_number must be integer");
    expect(message).toContain("\n  /links must have required property 'next'");
  });

  it("checks bigint-valued integers as integers, and rejects them where the API writes strings", () => {
    const body = { ...nftBody, serial_number: 9223372036854775807n };
    expect(() => validateResponse({ path: "/api/v1/tokens/1500/nfts/1", status: 200, body })).not.toThrow();
    const info = { ...fungibleTokenInfo, total_supply: 1000000n };
    expect(() => validateResponse({ path: "/api/v1/tokens/1135", status: 200, body: info })).toThrow(
      /\/total_supply must be string/,
    );
  });

  it("accepts a block built from a real v6 record file", () => {
    const block = blockFromRecordFile(realV6File);
    expect(block["hash"]).toMatch(/^0x3064b824/);
    validateResponse({ path: "/api/v1/blocks/6", status: 200, body: block });
    validateResponse({
      path: "/api/v1/blocks",
      status: 200,
      body: { blocks: [block], links: { next: null } },
    });
  });

  for (const example of examples()) {
    describe(`${example.name}: ${example.status} ${example.path}`, () => {
      it("passes as given", () => {
        expect(() => validateResponse(example)).not.toThrow();
      });
      for (const mutation of example.mutations) {
        it(`fails when it ${mutation.change}`, () => {
          const body = structuredClone(example.body);
          apply(body, mutation);
          expect(() => validateResponse({ ...example, body })).toThrow(
            `\n  ${expectedInstancePath(example.body, mutation)} `,
          );
        });
      }
    });
  }
});

// --- Example bodies (shapes and values from shared/reference/api.md) --------------------------------------

/** An int64 as a client's `JSON.parse` sees it: the nearest double (the wire text itself is exact). */
function asParsedByClients(int64Text: string): number {
  return JSON.parse(int64Text) as number;
}

const ed25519Key = {
  _type: "ED25519",
  key: "5a0c9f1e2d3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f",
};
const ecdsaKey = {
  _type: "ECDSA_SECP256K1",
  key: "03a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
};
const protobufKey = { _type: "ProtobufEncoded", key: "2a0c0802120832060a04122200" };

const fungibleTokenInfo = {
  admin_key: ed25519Key,
  auto_renew_account: null,
  auto_renew_period: 6999999,
  created_timestamp: "1234567890.000000002",
  custom_fees: {
    created_timestamp: "1234567899.999999007",
    fixed_fees: [
      {
        all_collectors_are_exempt: false,
        amount: 12,
        collector_account_id: "0.0.8904",
        denominating_token_id: "0.0.1137",
      },
      {
        all_collectors_are_exempt: true,
        amount: 5,
        collector_account_id: "0.0.8905",
        denominating_token_id: null,
      },
    ],
    fractional_fees: [
      {
        all_collectors_are_exempt: false,
        amount: { numerator: 11, denominator: 17 },
        collector_account_id: "0.0.8901",
        denominating_token_id: "0.0.1135",
        maximum: 987,
        minimum: 79,
        net_of_transfers: false,
      },
      {
        all_collectors_are_exempt: false,
        amount: { numerator: 3, denominator: 7 },
        collector_account_id: "0.0.8902",
        denominating_token_id: "0.0.1135",
        maximum: null,
        minimum: 0,
        net_of_transfers: true,
      },
    ],
  },
  decimals: "1000",
  deleted: null,
  expiry_timestamp: asParsedByClients("1241567889000000002"),
  fee_schedule_key: null,
  freeze_default: false,
  freeze_key: protobufKey,
  initial_supply: "1000000",
  kyc_key: null,
  max_supply: "9223372036854775807",
  memo: "token memo",
  metadata: "AQE=",
  metadata_key: ecdsaKey,
  modified_timestamp: "1234567890.000000002",
  name: "Token name",
  pause_key: null,
  pause_status: "NOT_APPLICABLE",
  supply_key: null,
  supply_type: "INFINITE",
  symbol: "ORIGINALRDKSE",
  token_id: "0.0.1135",
  total_supply: "1000000",
  treasury_account_id: "0.0.98",
  type: "FUNGIBLE_COMMON",
  wipe_key: null,
};

const nonFungibleTokenInfo = {
  ...fungibleTokenInfo,
  auto_renew_account: "0.0.98",
  custom_fees: {
    created_timestamp: "1234567899.999999007",
    fixed_fees: [],
    royalty_fees: [
      {
        all_collectors_are_exempt: true,
        amount: { denominator: 13, numerator: 9 },
        collector_account_id: "0.0.8902",
        fallback_fee: { amount: 1300, denominating_token_id: "0.0.1137" },
      },
      {
        all_collectors_are_exempt: false,
        amount: { denominator: 10, numerator: 1 },
        collector_account_id: "0.0.8903",
        fallback_fee: { amount: 50, denominating_token_id: null },
      },
      {
        all_collectors_are_exempt: false,
        amount: { denominator: 4, numerator: 1 },
        collector_account_id: "0.0.8904",
        fallback_fee: null,
      },
    ],
  },
  decimals: "0",
  deleted: false,
  expiry_timestamp: null,
  initial_supply: "0",
  pause_key: ed25519Key,
  pause_status: "PAUSED",
  supply_type: "FINITE",
  max_supply: "5000",
  total_supply: "3",
  type: "NON_FUNGIBLE_UNIQUE",
};

const nftBody = {
  account_id: "0.0.1001",
  created_timestamp: "1234567890.000000008",
  delegating_spender: "0.0.1",
  deleted: false,
  metadata: "bTM=",
  modified_timestamp: "1234567890.000000008",
  serial_number: 3,
  spender: "0.0.2",
  token_id: "0.0.1500",
};

const nftsBody = { nfts: [nftBody], links: { next: "/api/v1/tokens/1500/nfts?limit=3&serialnumber=lt:3" } };

const balancesBody = {
  timestamp: "1566560003.000000000",
  balances: [
    { account: "0.0.19", balance: 190, decimals: 1 },
    { account: "0.0.20", balance: asParsedByClients("9223372036854775807"), decimals: null },
  ],
  links: {
    next: "/api/v1/tokens/0.0.201/balances?account.balance=gte:300&limit=2&order=asc&account.id=gt:0.0.20",
  },
};

const nftTransactionsBody = {
  transactions: [
    {
      consensus_timestamp: "1234567890.000000006",
      nonce: 1,
      transaction_id: "0.0.8-1234567890-000000006",
      type: "CRYPTOTRANSFER",
      is_approval: true,
      receiver_account_id: "0.0.2001",
      sender_account_id: "0.0.1001",
    },
    {
      consensus_timestamp: "1234567890.000000001",
      nonce: 0,
      transaction_id: "0.0.8-1234567889-999999999",
      type: "TOKENMINT",
      is_approval: false,
      receiver_account_id: "0.0.98",
      sender_account_id: null,
    },
  ],
  links: {
    next: "/api/v1/tokens/1500/nfts/2/transactions?order=asc&limit=3&timestamp=gt:1234567890.000000007",
  },
};

const blockBody = {
  count: 5,
  hapi_version: "0.22.3",
  hash: `0x${"b0162e8a".repeat(12)}`,
  name: "2022-04-27T12_24_30.768994443Z.rcd",
  number: 17,
  previous_hash: `0x${"fbd92118".repeat(12)}`,
  size: 6,
  timestamp: { from: "1676540001.234500000", to: "1676540001.234600000" },
  gas_used: 0,
  logs_bloom: "0x",
};

function errorBody(...messages: string[]): Json {
  return { _status: { messages: messages.map((message) => ({ message })) } };
}

const set = (change: string, at: Key[], value: Json): Mutation => ({ change, at, op: "set", value });
const drop = (change: string, at: Key[]): Mutation => ({ change, at, op: "delete" });

function examples(): Example[] {
  const errorMutations = [
    set("adds a Java-style detail", ["_status", "messages", 0, "detail"], "Invalid range provided"),
    set("has no messages", ["_status", "messages"], []),
    set("has a non-string message", ["_status", "messages", 0, "message"], 400),
    drop("lacks _status", ["_status"]),
  ];
  return [
    {
      name: "token list",
      path: "/api/v1/tokens?limit=1",
      status: 200,
      body: {
        tokens: [
          {
            admin_key: null,
            metadata: "AQE=",
            name: "First Mover",
            symbol: "FIRSTMOVERLPDJH",
            token_id: "0.0.1",
            type: "FUNGIBLE_COMMON",
            decimals: 3,
          },
          {
            admin_key: ed25519Key,
            metadata: "",
            name: "ℏ token",
            symbol: "HBARX",
            token_id: "0.7.25301",
            type: "NON_FUNGIBLE_UNIQUE",
            decimals: 0,
          },
        ],
        links: { next: "/api/v1/tokens?limit=1&token.id=gt:0.0.1" },
      },
      mutations: [
        set("writes decimals as a string", ["tokens", 0, "decimals"], "3"),
        drop("lacks metadata", ["tokens", 0, "metadata"]),
        set("has an unknown type", ["tokens", 0, "type"], "FUNGIBLE"),
        set("has an extra field", ["tokens", 1, "memo"], ""),
        set("has metadata that is not base64", ["tokens", 0, "metadata"], "AQE"),
        set("writes a zero-num ID instead of null", ["tokens", 0, "token_id"], "0.0.0"),
        drop("lacks links.next", ["links", "next"]),
        set("has an absolute next link", ["links", "next"], "http://localhost/api/v1/tokens?limit=1"),
      ],
    },
    {
      name: "empty token list",
      path: "/api/v1/tokens",
      status: 200,
      body: { tokens: [], links: { next: null } },
      mutations: [drop("lacks links", ["links"])],
    },
    {
      name: "fungible token info",
      path: "/api/v1/tokens/0.0.1135?timestamp=lte:1234567899.999999007",
      status: 200,
      body: fungibleTokenInfo,
      mutations: [
        drop("lacks custom_fees", ["custom_fees"]),
        set("has an extra field", ["freeze_status"], "NOT_APPLICABLE"),
        set("writes decimals as a number", ["decimals"], 1000),
        set("writes expiry_timestamp as a string", ["expiry_timestamp"], "1241567889000000002"),
        set("writes total_supply as a number", ["total_supply"], 1000000),
        set("writes a supply with a sign", ["max_supply"], "-1"),
        set("has royalty fees on a fungible token", ["custom_fees", "royalty_fees"], []),
        set(
          "has a null fractional denominating token",
          ["custom_fees", "fractional_fees", 0, "denominating_token_id"],
          null,
        ),
        drop("lacks a fixed fee's exemption flag", [
          "custom_fees",
          "fixed_fees",
          0,
          "all_collectors_are_exempt",
        ]),
        set("has a short nanosecond part", ["modified_timestamp"], "1234567890.2"),
        set("has an unknown key type", ["admin_key"], { _type: "RSA_3072", key: "00" }),
        set("has an ED25519 key of the wrong length", ["admin_key", "key"], "00"),
        set("has a null treasury", ["treasury_account_id"], null),
        set("has a lower-case pause status", ["pause_status"], "paused"),
        set("has a null freeze_default", ["freeze_default"], null),
      ],
    },
    {
      name: "non-fungible token info",
      path: "/api/v1/tokens/0x000000000000000000000000000000000000046F",
      status: 200,
      body: nonFungibleTokenInfo,
      mutations: [
        set(
          "has an extra fallback fee field",
          ["custom_fees", "royalty_fees", 0, "fallback_fee", "collector_account_id"],
          "0.0.1",
        ),
        drop("lacks fallback_fee", ["custom_fees", "royalty_fees", 2, "fallback_fee"]),
        set("has fractional fees beside royalty fees", ["custom_fees", "fractional_fees"], []),
        set("has a royalty amount without numerator", ["custom_fees", "royalty_fees", 0, "amount"], {
          denominator: 13,
        }),
      ],
    },
    {
      name: "token info errors",
      path: "/api/v1/tokens/abc",
      status: 400,
      body: errorBody("Invalid parameter: tokenid"),
      mutations: errorMutations,
    },
    {
      name: "unknown token",
      path: "/api/v1/tokens/0.0.9999",
      status: 404,
      body: errorBody("Not found"),
      mutations: errorMutations,
    },
    {
      name: "token balances",
      path: "/api/v1/tokens/0.0.201/balances?account.balance=gte:300&limit=2&order=asc",
      status: 200,
      body: balancesBody,
      mutations: [
        drop("lacks timestamp", ["timestamp"]),
        set("writes a balance as a string", ["balances", 0, "balance"], "190"),
        set("writes the timestamp as a number", ["timestamp"], 1566560003),
        set("has an extra balance field", ["balances", 0, "token_id"], "0.0.201"),
        drop("lacks decimals", ["balances", 1, "decimals"]),
      ],
    },
    {
      name: "empty token balances",
      path: "/api/v1/tokens/0.0.9999/balances",
      status: 200,
      body: { timestamp: null, balances: [], links: { next: null } },
      mutations: [set("has a balances object", ["balances"], {})],
    },
    {
      name: "token balances by token.id",
      path: "/api/v1/tokens/balances?token.id=0.0.201",
      status: 200,
      body: balancesBody,
      mutations: [set("writes a null account", ["balances", 0, "account"], null)],
    },
    {
      name: "balance errors",
      path: "/api/v1/tokens/1/balances?account.id=lte:0.1.2.3&slot=1",
      status: 400,
      body: errorBody("Invalid parameter: account.id", "Unknown query parameter: slot"),
      mutations: errorMutations,
    },
    {
      name: "NFTs of a token",
      path: "/api/v1/tokens/1500/nfts?limit=3",
      status: 200,
      body: nftsBody,
      mutations: [
        set("writes the serial number as a string", ["nfts", 0, "serial_number"], "3"),
        set("has a null deleted flag", ["nfts", 0, "deleted"], null),
        drop("lacks spender", ["nfts", 0, "spender"]),
        set("has a null token", ["nfts", 0, "token_id"], null),
        set("has a spender_id field", ["nfts", 0, "spender_id"], "0.0.2"),
      ],
    },
    {
      name: "NFTs by token.id",
      path: "/api/v1/tokens/nfts?token.id=1500",
      status: 200,
      body: nftsBody,
      mutations: [set("has a number as next link", ["links", "next"], 3)],
    },
    {
      name: "a burned NFT",
      path: "/api/v1/tokens/1500/nfts/2",
      status: 200,
      body: {
        ...nftBody,
        account_id: null,
        deleted: true,
        serial_number: 2,
        spender: null,
        delegating_spender: null,
        metadata: null,
        created_timestamp: null,
      },
      mutations: [
        set("has serial number 0", ["serial_number"], 0),
        set("has a fractional serial number", ["serial_number"], 2.5),
        drop("lacks modified_timestamp", ["modified_timestamp"]),
      ],
    },
    {
      name: "an NFT by token.id",
      path: "/api/v1/tokens/nfts/3?token.id=0.0.1500",
      status: 200,
      body: nftBody,
      mutations: [set("has a nested token", ["token_id"], { id: "0.0.1500" })],
    },
    {
      name: "NFT lookup without token.id",
      path: "/api/v1/tokens/nfts/3",
      status: 400,
      body: errorBody("Invalid parameter: token.id"),
      mutations: errorMutations,
    },
    {
      name: "unknown NFT",
      path: "/api/v1/tokens/1500/nfts/99",
      status: 404,
      body: errorBody("Not found"),
      mutations: errorMutations,
    },
    {
      name: "NFT history",
      path: "/api/v1/tokens/1500/nfts/2/transactions?order=asc&limit=3",
      status: 200,
      body: nftTransactionsBody,
      mutations: [
        set("has an unknown transaction type", ["transactions", 0, "type"], "MINT"),
        set("has a negative nonce", ["transactions", 0, "nonce"], -1),
        set("has an unpadded transaction ID", ["transactions", 0, "transaction_id"], "0.0.8-1234567890-6"),
        drop("lacks is_approval", ["transactions", 1, "is_approval"]),
        set("has a serial_number field", ["transactions", 1, "serial_number"], 2),
      ],
    },
    {
      name: "NFT history without the mint",
      path: "/api/v1/tokens/1500/nfts/2/transactions",
      status: 206,
      body: { transactions: nftTransactionsBody.transactions.slice(0, 1), links: { next: null } },
      mutations: [drop("lacks transactions", ["transactions"])],
    },
    {
      name: "NFT history by token.id",
      path: "/api/v1/tokens/nfts/2/transactions?token.id=1500",
      status: 200,
      body: nftTransactionsBody,
      mutations: [
        set("has a numeric consensus timestamp", ["transactions", 0, "consensus_timestamp"], 1234567890),
      ],
    },
    {
      name: "NFT history errors",
      path: "/api/v1/tokens/1500/nfts/2/transactions?timestamp=now&order=down&limit=alot&result=success",
      status: 400,
      body: errorBody(
        "Invalid parameter: timestamp",
        "Invalid parameter: order",
        "Invalid parameter: limit",
        "Unknown query parameter: result",
      ),
      mutations: errorMutations,
    },
    {
      name: "block list",
      path: "/api/v1/blocks?limit=1",
      status: 200,
      body: { blocks: [blockBody], links: { next: "/api/v1/blocks?limit=1&block.number=lt:17" } },
      mutations: [
        set("has a 32-byte hash", ["blocks", 0, "hash"], `0x${"b0162e8a".repeat(8)}`),
        set("has an upper-case hash", ["blocks", 0, "previous_hash"], `0x${"FBD92118".repeat(12)}`),
        set("has a truncated bloom", ["blocks", 0, "logs_bloom"], "0x00"),
        set("has an open time range", ["blocks", 0, "timestamp", "to"], null),
        set("writes gas_used as a string", ["blocks", 0, "gas_used"], "0"),
        set("has a negative number", ["blocks", 0, "number"], -1),
        set("has an extra field", ["blocks", 0, "index"], 17),
        drop("lacks hapi_version", ["blocks", 0, "hapi_version"]),
      ],
    },
    {
      name: "one block",
      path: "/api/v1/blocks/17",
      status: 200,
      body: {
        ...blockBody,
        hapi_version: null,
        size: null,
        gas_used: null,
        logs_bloom: `0x${"0".repeat(511)}1`,
      },
      mutations: [
        set("has a bloom of 255 bytes", ["logs_bloom"], `0x${"00".repeat(255)}`),
        set("has a two-part HAPI version", ["hapi_version"], "0.22"),
        set("has an empty name", ["name"], ""),
      ],
    },
    {
      name: "unknown block",
      path: "/api/v1/blocks/1test",
      status: 400,
      body: errorBody("Invalid parameter: hashOrNumber"),
      mutations: errorMutations,
    },
    {
      name: "database down",
      path: "/api/v1/blocks",
      status: 503,
      body: errorBody("Service unavailable"),
      mutations: errorMutations,
    },
    {
      name: "ready",
      path: "/health/readiness",
      status: 200,
      body: {
        status: "ready",
        reason: null,
        file: null,
        lastBlock: 6,
        lastFile: "2022-07-13T08_46_11.304284003Z.rcd.gz",
      },
      mutations: [
        set("has an unknown status", ["status"], "ok"),
        set("writes lastBlock as a string", ["lastBlock"], "6"),
        drop("lacks reason", ["reason"]),
        set("has an extra field", ["uptime"], 5),
      ],
    },
    {
      name: "stopped",
      path: "/health/readiness",
      status: 503,
      body: {
        status: "stopped",
        reason: "start running hash does not match the previous file's end running hash",
        file: "2022-04-27T12_24_30.768994443Z.rcd",
        lastBlock: null,
        lastFile: null,
      },
      mutations: [
        set("nests the reason", ["reason"], { message: "broken chain" }),
        set("uses an error body", [], errorBody("Service unavailable")),
      ],
    },
    {
      name: "live",
      path: "/health/liveness",
      status: 200,
      body: {
        status: "catching-up",
        reason: null,
        file: null,
        lastBlock: 5,
        lastFile: "2022-07-13T08_46_08.041986003Z.rcd.gz",
      },
      mutations: [set("has a fractional lastBlock", ["lastBlock"], 5.5)],
    },
  ];
}

// --- Helpers ----------------------------------------------------------------------------------------------

/** Where ajv reports the mutation: on the value itself when it replaces one, else on the enclosing object. */
function expectedInstancePath(original: Json, mutation: Mutation): string {
  const parent = mutation.at.slice(0, -1);
  const last = mutation.at.at(-1);
  const replacesValue =
    mutation.op === "set" && (last === undefined || hasKey(lookup(original, parent), last));
  const at = replacesValue ? mutation.at : parent;
  return at.length === 0 ? "(body)" : `/${at.join("/")}`;
}

function apply(body: Json, mutation: Mutation): void {
  if (mutation.at.length === 0) {
    if (mutation.op === "delete") throw new Error("cannot delete the whole body");
    const target = body as Record<string, Json>;
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, mutation.value);
    return;
  }
  const container = lookup(body, mutation.at.slice(0, -1)) as Record<Key, Json>;
  const last = mutation.at.at(-1) as Key;
  if (mutation.op === "delete") delete container[last];
  else container[last] = mutation.value;
}

function lookup(body: Json, at: Key[]): Json {
  let node = body;
  for (const key of at) {
    if (!hasKey(node, key)) throw new Error(`example has nothing at ${at.join("/")}`);
    node = (node as Record<Key, Json>)[key] as Json;
  }
  return node;
}

function hasKey(node: Json, key: Key): boolean {
  return typeof node === "object" && node !== null && Object.hasOwn(node, key);
}

function field(node: Json, key: string): Json | undefined {
  return hasKey(node, key) ? (node as Record<string, Json>)[key] : undefined;
}

function collectRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) collectRefs(child, found);
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push(value);
      else collectRefs(value, found);
    }
  }
  return found;
}

/**
 * The block a record file makes, following api.md 4.3: hashes are the running hashes, times are the first
 * and last consensus times, gas and bloom come from top-level contract results only.
 */
function blockFromRecordFile(url: URL): Record<string, unknown> {
  const bytes = gunzipSync(readFileSync(url));
  expect(bytes.readInt32BE(0)).toBe(6);
  const file = proto.RecordStreamFile.decode(bytes.subarray(4));
  const records = file.recordStreamItems.map((item) => item.record as proto.ITransactionRecord);
  const times = records.map((record) => formatTimestamp(record.consensusTimestamp as proto.ITimestamp));
  const results = records
    .filter((record) => record.parentConsensusTimestamp == null)
    .map((record) => record.contractCallResult ?? record.contractCreateResult)
    .filter((result) => result != null);
  const bloom = new Uint8Array(256);
  for (const result of results) {
    for (const [i, byte] of (result.bloom ?? new Uint8Array()).entries()) bloom[i] = (bloom[i] ?? 0) | byte;
  }
  const version = file.hapiProtoVersion;
  return {
    count: records.length,
    hapi_version: `${version?.major ?? 0}.${version?.minor ?? 0}.${version?.patch ?? 0}`,
    hash: `0x${Buffer.from(file.endObjectRunningHash?.hash ?? []).toString("hex")}`,
    name: basename(url.pathname),
    number: Number(toBigInt(file.blockNumber)),
    previous_hash: `0x${Buffer.from(file.startObjectRunningHash?.hash ?? []).toString("hex")}`,
    size: statSync(url).size,
    timestamp: { from: times[0], to: times.at(-1) },
    gas_used: Number(results.reduce((sum, result) => sum + toBigInt(result.gasUsed), 0n)),
    logs_bloom: results.length === 0 ? "0x" : `0x${Buffer.from(bloom).toString("hex")}`,
  };
}

function formatTimestamp(timestamp: proto.ITimestamp): string {
  return `${toBigInt(timestamp.seconds)}.${String(timestamp.nanos ?? 0).padStart(9, "0")}`;
}

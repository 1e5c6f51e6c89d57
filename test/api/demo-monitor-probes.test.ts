/**
 * The bundled demo (what `npm start` serves) against the requests the public mirror node's REST monitor
 * (hiero-mirror-node `rest/monitoring`) makes with its default configuration (`config/default.serverlist.json`:
 * account, balance, block and transaction limit 10; network, schedule, contract and token limit 2; topic limit
 * 10). Each probe asks the same URLs in the same order, picks the next id the same way (the greatest account
 * id as a string, the first token of a list, the first message's timestamp…) and passes only where the
 * monitor would: a list of exactly the monitor's limit, the fields it requires, the order it checks.
 *
 * What the monitor checks that a recorded ledger cannot pass, and so is not asked here: the freshness probes
 * (the newest balance, block, transaction and topic message at most 1000, 50, 50 and 100 seconds older than the
 * wall clock). Run the monitor against the demo with `"freshness": false`.
 *
 * The topic and token probes run only when the monitor is given a topic or token id (`topic.topicId`,
 * `token.tokenId`, empty by default); they are asked here of the demo's first topic and first token, so that
 * the demo passes them once configured. The NFT-allowance probe runs only with `account.nftAllowanceOwnerId`
 * (null by default) and is asked of dave, who approves every NFT of a collection for carol.
 */
import { describe, expect, it } from "vitest";
import { shiftTimestamp, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

const scenario = useScenario("demo", { balances: true });

type Json = Record<string, unknown>;
type Query = Record<string, string | number | string[]>;

/** The monitor's URL: `/api/v1` + path + its query string (an array repeats the key). */
function url(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  }
  const qs = params.toString();
  return `/api/v1${path}${qs === "" ? "" : `?${qs}`}`;
}

/** GET as the monitor does: it must answer 200 (every answer also matches the OpenAPI document). */
async function get(path: string, query: Query = {}): Promise<Json> {
  const target = url(path, query);
  const response = await scenario.service.get(target);
  expect(response.status, `${target}: ${response.text}`).toBe(200);
  validateResponse({ path: target, status: 200, body: response.body });
  return response.body as Json;
}

/** The list under `key`, of exactly `length` items when given (the monitor's `checkRespArrayLength`). */
async function list(path: string, query: Query, key: string, length?: number): Promise<Json[]> {
  const body = await get(path, query);
  const items = body[key] as Json[];
  expect(Array.isArray(items), `${url(path, query)}: no ${key} list`).toBe(true);
  if (length !== undefined) expect(items.length, url(path, query)).toBe(length);
  return items;
}

/** The monitor's `checkMandatoryParams`: the first item has every (dotted) field, null allowed. */
function expectFields(item: Json | undefined, fields: string[]): void {
  if (item === undefined) return;
  for (const field of fields) {
    let value: unknown = item;
    for (const part of field.split(".")) {
      expect(value !== null && typeof value === "object" && part in value, `missing ${field}`).toBe(true);
      value = (value as Json)[part];
    }
  }
}

/** lodash's `max` over strings, as the monitor picks "the highest" account, schedule or contract id. */
function maxString(values: string[]): string {
  return values.reduce((a, b) => (b > a ? b : a));
}

const ACCOUNT_FIELDS = [
  "balance",
  "account",
  "expiry_timestamp",
  "auto_renew_period",
  "key",
  "deleted",
  "balance.timestamp",
  "balance.balance",
];

/** `/accounts?limit=10`: ten accounts, the greatest id of which the account probes then ask about. */
async function highestOfTenAccounts(): Promise<string> {
  const accounts = await list("/accounts", { limit: 10 }, "accounts", 10);
  expectFields(accounts[0], ACCOUNT_FIELDS);
  return maxString(accounts.map((a) => a.account as string));
}

describe("the demo passes the mirror node monitor's account probes", () => {
  it("lists ten accounts and finds the greatest by account.id", async () => {
    const highest = await highestOfTenAccounts();
    const single = await list("/accounts", { "account.id": highest, limit: 1 }, "accounts");
    expect(single[0]?.account).toBe(highest);
  });

  it("looks the greatest of them up", async () => {
    const highest = await highestOfTenAccounts();
    expect((await get(`/accounts/${highest}`)).account).toBe(highest);
  });

  it("finds a token relationship of the first token's holder", async () => {
    const tokens = await list("/tokens", { limit: 1, order: "asc" }, "tokens");
    expectFields(tokens[0], ["token_id"]);
    const tokenId = tokens[0]?.token_id as string;
    const balances = await list(`/tokens/${tokenId}/balances`, { limit: 1 }, "balances");
    const holder = balances[0]?.account as string;
    expect(holder).toBeDefined();
    await list(`/accounts/${holder}/tokens`, { limit: 1, order: "asc" }, "tokens", 1);
  });

  it("reads the greatest account's staking rewards, allowances and NFTs (the demo gives it rewards and allowances)", async () => {
    const highest = await highestOfTenAccounts();
    const rewards = await list(`/accounts/${highest}/rewards`, { limit: 10 }, "rewards");
    expectFields(rewards[0], ["account_id", "amount", "timestamp"]);
    expect(rewards.length).toBeGreaterThan(0);
    const crypto = await list(`/accounts/${highest}/allowances/crypto`, { limit: 10 }, "allowances");
    expectFields(crypto[0], ["amount", "amount_granted", "owner", "spender", "timestamp"]);
    expect(crypto.length).toBeGreaterThan(0);
    const tokens = await list(`/accounts/${highest}/allowances/tokens`, { limit: 10 }, "allowances");
    expectFields(tokens[0], ["amount", "amount_granted", "owner", "spender", "timestamp", "token_id"]);
    expect(tokens.length).toBeGreaterThan(0);
    const nfts = await list(`/accounts/${highest}/nfts`, { limit: 10 }, "nfts");
    expectFields(nfts[0], [
      "account_id",
      "created_timestamp",
      "delegating_spender",
      "deleted",
      "metadata",
      "modified_timestamp",
      "serial_number",
      "spender",
      "token_id",
    ]);
  });

  it("reads NFT allowances of an owner (the probe runs when account.nftAllowanceOwnerId is set)", async () => {
    const owner = scenario.ledger.accounts.dave!.id;
    const allowances = await list(`/accounts/${owner}/allowances/nfts`, { limit: 10 }, "allowances");
    expect(allowances.length).toBeGreaterThan(0);
    expectFields(allowances[0], ["approved_for_all", "owner", "spender", "timestamp", "token_id"]);
  });
});

describe("the demo passes the monitor's balance probes", () => {
  it("lists ten balances, then finds the greatest account by account.id", async () => {
    const balances = await list("/balances", { limit: 10 }, "balances", 10);
    expectFields(balances[0], ["account", "balance"]);
    const highest = maxString(balances.map((b) => b.account as string));
    const single = await list("/balances", { "account.id": highest }, "balances", 1);
    expect(single[0]?.account).toBe(highest);
  });
});

describe("the demo passes the monitor's block probes", () => {
  it("lists ten blocks and looks the greatest number up", async () => {
    const blocks = await list("/blocks", { limit: 10 }, "blocks", 10);
    expectFields(blocks[0], [
      "count",
      "gas_used",
      "hapi_version",
      "hash",
      "logs_bloom",
      "name",
      "number",
      "previous_hash",
      "size",
      "timestamp.from",
      "timestamp.to",
    ]);
    const highest = Math.max(...blocks.map((b) => b.number as number));
    expect((await get(`/blocks/${highest}`)).number).toBe(highest);
  });
});

describe("the demo passes the monitor's network probes", () => {
  it("answers exchangerate, fees (with gas and transaction_type), two nodes, stake and supply", async () => {
    await get("/network/exchangerate");
    const fees = (await get("/network/fees")).fees as Json[];
    expect(fees.length).toBeGreaterThan(0);
    expectFields(fees[0], ["gas", "transaction_type"]);
    const nodes = await list("/network/nodes", { limit: 2 }, "nodes", 2);
    expectFields(nodes[0], [
      "description",
      "file_id",
      "max_stake",
      "memo",
      "min_stake",
      "node_id",
      "node_account_id",
      "node_cert_hash",
      "public_key",
      "reward_rate_start",
      "service_endpoints",
      "stake",
      "stake_not_rewarded",
      "stake_rewarded",
      "staking_period",
      "timestamp",
    ]);
    expectFields(await get("/network/stake"), [
      "max_stake_rewarded",
      "max_staking_reward_rate_per_hbar",
      "max_total_reward",
      "node_reward_fee_fraction",
      "reserved_staking_rewards",
      "reward_balance_threshold",
      "stake_total",
      "staking_period",
      "staking_period_duration",
      "staking_periods_stored",
      "staking_reward_fee_fraction",
      "staking_reward_rate",
      "staking_start_threshold",
      "unreserved_staking_reward_balance",
    ]);
    await get("/network/supply");
  });

  it("has its fee schedule and exchange rates from the first block: fees and rates as of every block", async () => {
    const blocks = scenario.ledger.blocks;
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const [index, block] of blocks.entries()) {
      // As the JSON-RPC relay asks for a block's gas price.
      await get("/network/fees", { timestamp: `lte:${block.to}` });
      await get("/network/exchangerate", { timestamp: block.from });
      // Block 0 starts with the exchange rates; its fee schedule is its second transaction.
      if (index > 0) await get("/network/fees", { timestamp: block.from });
    }
  });
});

const TRANSACTION_FIELDS = [
  "consensus_timestamp",
  "valid_start_timestamp",
  "charged_tx_fee",
  "transaction_id",
  "memo_base64",
  "result",
  "name",
  "node",
  "transfers",
];

type Transfer = { account: string; amount: number };

describe("the demo passes the monitor's transaction probes", () => {
  it("lists ten credits, then the latest credit of the greatest account credited by the first", async () => {
    const transactions = await list("/transactions", { limit: 10, type: "credit" }, "transactions", 10);
    expectFields(transactions[0], TRANSACTION_FIELDS);
    const first = transactions[0]!;
    const transfers = [...(first.transfers as Transfer[]), ...((first.token_transfers as Transfer[]) ?? [])];
    const highest = maxString(transfers.filter((t) => t.amount > 0).map((t) => t.account));
    const credits = await list(
      "/transactions",
      { "account.id": highest, type: "credit", limit: 1 },
      "transactions",
      1,
    );
    expectFields(credits[0], TRANSACTION_FIELDS);
    const mentioned = [
      ...(credits[0]!.transfers as Transfer[]),
      ...((credits[0]!.token_transfers as Transfer[]) ?? []),
    ];
    expect(mentioned.some((t) => t.account === highest)).toBe(true);
  });

  it("lists ten in ascending order and ten with a limit alone", async () => {
    const ascending = await list("/transactions", { order: "asc", limit: 10 }, "transactions", 10);
    expectFields(ascending[0], TRANSACTION_FIELDS);
    const times = ascending.map((t) => t.consensus_timestamp as string);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    await list("/transactions", { limit: 10 }, "transactions", 10);
  });

  it("finds the latest transaction again within a second either side of it", async () => {
    const [latest] = await list("/transactions", { limit: 1 }, "transactions", 1);
    const at = latest!.consensus_timestamp as string;
    const second = 1_000_000_000n;
    const timestamp = [`gt:${shiftTimestamp(at, -second)}`, `lt:${shiftTimestamp(at, second)}`];
    await list("/transactions", { timestamp, limit: 1 }, "transactions", 1);
  });

  it("looks the latest successful transaction up by its id, without scheduled ones", async () => {
    const [latest] = await list("/transactions", { limit: 1, result: "success" }, "transactions", 1);
    expectFields(latest, TRANSACTION_FIELDS);
    const found = await list(
      `/transactions/${latest!.transaction_id as string}`,
      { scheduled: "false" },
      "transactions",
    );
    expect(found.filter((t) => t.result === "SUCCESS").length).toBeGreaterThanOrEqual(1);
  });
});

const MESSAGE_FIELDS = [
  "consensus_timestamp",
  "topic_id",
  "message",
  "running_hash",
  "running_hash_version",
  "sequence_number",
];

/** The topic the probes are pointed at: the demo's first (its public lobby). */
function topicId(): string {
  const step = scenario.ledger.steps.find((s) => s.type === "consensusCreateTopic");
  return step!.entityId!;
}

/** Ascending and contiguous, or descending, as the monitor's `checkSequenceNumberOrder` reads it. */
function expectSequence(messages: Json[], ascending: boolean): void {
  const numbers = messages.map((m) => m.sequence_number as number);
  for (let i = 1; i < numbers.length; i++) {
    if (ascending) expect(numbers[i]).toBe(numbers[i - 1]! + 1);
    else expect(numbers[i]!).toBeLessThan(numbers[i - 1]! + 1);
  }
}

describe("the demo passes the monitor's topic probes (run when topic.topicId is set)", () => {
  it("looks the topic up", async () => {
    expectFields(await get(`/topics/${topicId()}`), [
      "admin_key",
      "auto_renew_account",
      "auto_renew_period",
      "created_timestamp",
      "deleted",
      "memo",
      "submit_key",
      "timestamp",
      "topic_id",
    ]);
  });

  it("lists ten messages in order both ways", async () => {
    const path = `/topics/${topicId()}/messages`;
    const ascending = await list(path, { limit: 10 }, "messages", 10);
    expectFields(ascending[0], MESSAGE_FIELDS);
    expectSequence(ascending, true);
    const times = ascending.map((m) => m.consensus_timestamp as string);
    expect([...times].sort()).toEqual(times);
    const descending = await list(path, { limit: 10, order: "desc" }, "messages", 10);
    expectSequence(descending, false);
    const back = descending.map((m) => m.consensus_timestamp as string);
    expect([...back].sort().reverse()).toEqual(back);
  });

  it("filters by sequence number, and finds messages by number and by timestamp", async () => {
    const path = `/topics/${topicId()}/messages`;
    const [one] = await list(path, { sequencenumber: 1 }, "messages", 1);
    expect(one?.sequence_number).toBe(1);
    await list(path, { sequencenumber: ["gte:1", "lte:3"] }, "messages", 3);
    await list(path, { sequencenumber: ["gte:3", "lt:3"] }, "messages", 0);
    expectFields(await get(`${path}/1`), MESSAGE_FIELDS);
    const [first] = await list(path, { limit: 10 }, "messages", 10);
    const at = first!.consensus_timestamp as string;
    expect((await get(`/topics/messages/${at}`)).consensus_timestamp).toBe(at);
  });

  it("holds a message sent in chunks", async () => {
    const messages = await list(`/topics/${topicId()}/messages`, { limit: 25 }, "messages");
    const chunked = messages.filter((m) => m.chunk_info !== null);
    expect(chunked.length).toBeGreaterThanOrEqual(2);
  });
});

const TOKEN_FIELDS = ["token_id", "symbol", "admin_key"];

async function firstTokenId(): Promise<string> {
  const [token] = await list("/tokens", { limit: 1 }, "tokens", 1);
  expectFields(token, TOKEN_FIELDS);
  return token!.token_id as string;
}

/** The monitor's `accountIdCompare`: shard, realm, num as numbers. */
function compareIds(a: string, b: string): number {
  const [x, y] = [a.split(".").map(BigInt), b.split(".").map(BigInt)];
  for (let i = 0; i < 3; i++) if (x[i]! !== y[i]!) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

describe("the demo passes the monitor's token probes (run when token.tokenId is set)", () => {
  it("lists two tokens, one with a limit of one, and both orders", async () => {
    const tokens = await list("/tokens", { limit: 2 }, "tokens", 2);
    expectFields(tokens[0], TOKEN_FIELDS);
    await firstTokenId();
    const ascending = (await list("/tokens", { order: "asc" }, "tokens")).map((t) => t.token_id as string);
    expect([...ascending].sort(compareIds)).toEqual(ascending);
    const descending = (await list("/tokens", { order: "desc" }, "tokens")).map((t) => t.token_id as string);
    expect([...descending].sort(compareIds).reverse()).toEqual(descending);
  });

  it("reads the first token's info and balances (two, one, as of a second before, of one account)", async () => {
    const tokenId = await firstTokenId();
    expectFields(await get(`/tokens/${tokenId}`), [
      ...TOKEN_FIELDS,
      "auto_renew_account",
      "auto_renew_period",
      "created_timestamp",
      "decimals",
      "expiry_timestamp",
      "freeze_default",
      "freeze_key",
      "initial_supply",
      "kyc_key",
      "modified_timestamp",
      "name",
      "supply_key",
      "total_supply",
      "treasury_account_id",
      "wipe_key",
    ]);
    const path = `/tokens/${tokenId}/balances`;
    const two = await list(path, { limit: 2 }, "balances", 2);
    expectFields(two[0], ["account", "balance"]);
    const page = await get(path, { limit: 1 });
    expect(page.balances as Json[]).toHaveLength(1);
    const before = shiftTimestamp(page.timestamp as string, -1_000_000_000n);
    await list(path, { timestamp: [`gt:${before}`], limit: 1 }, "balances", 1);
    const holder = (page.balances as Json[])[0]!.account as string;
    const [own] = await list(path, { "account.id": holder }, "balances", 1);
    expect(own?.account).toBe(holder);
  });

  it("reads the first NFT collection's first NFT and its transactions", async () => {
    const [collection] = await list("/tokens", { type: "NON_FUNGIBLE_UNIQUE", limit: 1 }, "tokens", 1);
    const path = `/tokens/${collection!.token_id as string}/nfts`;
    const [nft] = await list(path, { limit: 1 }, "nfts", 1);
    const serial = nft!.serial_number as number;
    expect((await get(`${path}/${serial}`)).serial_number).toBe(serial);
    const transactions = await list(`${path}/${serial}/transactions`, {}, "transactions");
    expect(transactions.length).toBeGreaterThan(0);
  });
});

describe("the demo's schedules for the monitor's schedule probe", () => {
  // The demo holds four schedules (executed at signing, executed at creation, deleted, pending); the probe
  // asks `/schedules?limit=2` (exactly two) and then `/schedules/{the greatest schedule_id}`.
  it("lists two schedules and looks the greatest up", async () => {
    const schedules = await list("/schedules", { limit: 2 }, "schedules", 2);
    expectFields(schedules[0], [
      "admin_key",
      "consensus_timestamp",
      "creator_account_id",
      "deleted",
      "executed_timestamp",
      "memo",
      "payer_account_id",
      "schedule_id",
      "signatures",
      "transaction_body",
    ]);
    const highest = maxString(schedules.map((s) => s.schedule_id as string));
    expect((await get(`/schedules/${highest}`)).schedule_id).toBe(highest);
  });
});

describe("the monitor's contract probes", () => {
  const CONTRACT_FIELDS = [
    "admin_key",
    "auto_renew_account",
    "contract_id",
    "created_timestamp",
    "evm_address",
    "deleted",
    "expiration_timestamp",
    "file_id",
    "memo",
    "obtainer_id",
    "permanent_removal",
    "proxy_account_id",
    "timestamp",
  ];
  const RESULT_FIELDS = ["address", "bloom", "contract_id", "from", "gas_limit", "hash", "timestamp", "to"];
  const LOG_FIELDS = ["address", "bloom", "contract_id", "index", "topics"];

  /** `/contracts?limit=2`: exactly two, the greatest of which the probes then ask about. */
  async function greatestOfTwoContracts(): Promise<string> {
    const contracts = await list("/contracts", { limit: 2 }, "contracts", 2);
    expectFields(contracts[0], CONTRACT_FIELDS);
    return maxString(contracts.map((c) => c.contract_id as string));
  }

  /** `/contracts/results?limit=2`: exactly two results. */
  async function twoResults(): Promise<Json[]> {
    const results = await list("/contracts/results", { limit: 2 }, "results", 2);
    expectFields(results[0], RESULT_FIELDS);
    return results;
  }

  it("lists two contracts and looks the greatest up", async () => {
    const greatest = await greatestOfTwoContracts();
    expect((await get(`/contracts/${greatest}`)).contract_id).toBe(greatest);
  });

  it("reads a contract's results, and one result by timestamp", async () => {
    const evm = (await twoResults()).find((r) => r.bloom !== "0x");
    expect(evm, "an EVM result among the newest two").toBeDefined();
    const contractId = evm!.contract_id as string;
    const results = await list(`/contracts/${contractId}/results`, {}, "results");
    expectFields(results[0], RESULT_FIELDS);
    const latest = maxString(results.map((r) => r.timestamp as string));
    expectFields(await get(`/contracts/${contractId}/results/${latest}`), RESULT_FIELDS);
  });

  it("reads a contract's logs and two logs of the whole ledger", async () => {
    const contractId = maxString((await twoResults()).map((r) => r.contract_id as string));
    const own = await list(`/contracts/${contractId}/results/logs`, {}, "logs");
    expectFields(own[0], LOG_FIELDS);
    const logs = await list("/contracts/results/logs", { limit: 2 }, "logs", 2);
    expectFields(logs[0], LOG_FIELDS);
  });

  it("reads a contract's state (the greatest contract: the factory's child, which stored a word)", async () => {
    const greatest = await greatestOfTwoContracts();
    const state = await list(`/contracts/${greatest}/state`, {}, "state");
    expect(state.length).toBeGreaterThan(0);
    expectFields(state[0], ["address", "contract_id", "timestamp", "slot", "value"]);
  });

  it("reads a result and its actions by transaction hash", async () => {
    const results = await twoResults();
    const evm = results.find((r) => r.result === "SUCCESS" && r.bloom !== "0x");
    expect(evm, "a successful EVM result among the newest two").toBeDefined();
    const hash = evm!.hash as string;
    expectFields(await get(`/contracts/results/${hash}`), ["address", "failed_initcode", "hash", "logs"]);
    const actions = await list(`/contracts/results/${hash}/actions`, {}, "actions");
    expect(actions.length).toBeGreaterThan(0);
    expectFields(actions[0], [
      "call_depth",
      "call_operation_type",
      "call_type",
      "caller",
      "caller_type",
      "from",
      "gas",
      "gas_used",
      "index",
      "recipient",
      "recipient_type",
      "result_data_type",
      "timestamp",
      "to",
      "value",
    ]);
  });

  // The monitor's call (when `contract.call` is on) asks the exchange-rate system contract 0x168 to convert 100
  // tinycents; it needs 200 and a `result` (the value itself is checked in test/evm/exchange-rate.test.ts).
  it("answers POST /contracts/call of the exchange-rate system contract 0x168", async () => {
    const path = "/api/v1/contracts/call";
    const response = await fetch(scenario.service.baseUrl + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"block":"latest","data":"0x2e3cff6a0000000000000000000000000000000000000000000000000000000000000064","estimate":false,"gas":15000000,"gasPrice":100000000,"to":"0x0000000000000000000000000000000000000168"}',
    });
    const body = (await response.json()) as Json;
    expect(response.status, JSON.stringify(body)).toBe(200);
    validateResponse({ path, method: "post", status: 200, body });
    expect(body.result).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

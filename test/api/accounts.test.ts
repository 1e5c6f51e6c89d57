import { describe, expect, it } from "vitest";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { useScenario } from "../helpers/fixtures.ts";
import {
  type AccountBody,
  base32OfHex,
  getJson,
  HbarOracle,
  messagesOf,
  numOf,
  stepNs,
  toTimestamp,
} from "./accounts-helpers.ts";

const SCENARIO = "accounts";
const scenario = useScenario(SCENARIO);
const keys = new KeyRing(SCENARIO);
const oracle = new HbarOracle(SCENARIO);
const DAY_NS = 86_400_000_000_000n;

const account = (path: string, status = 200) =>
  getJson<AccountBody>(scenario.service, `/api/v1/accounts/${path}`, status);
const id = (name: string) => scenario.ledger.accounts[name]!.id;
const at = (label: string) => stepNs(scenario.ledger, label);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const stakeDay = (label: string) => toTimestamp((at(label) / DAY_NS) * DAY_NS);
const keyOf = (name: string) => {
  const key = scenario.ledger.accounts[name]!.key ?? "";
  if (key.startsWith("1220")) return { _type: "ED25519", key: key.slice(4) };
  return { _type: "ECDSA_SECP256K1", key: key.slice(4) };
};
const lastNs = () => oracle.moves.at(-1)!.consensusNs;

/** The balance object now: the oracle's balance, its last change (creation counts), token balances. */
function balanceNow(
  name: string,
  tokens: AccountBody["balance"] extends infer B ? (B extends { tokens: infer T } ? T : never) : never,
) {
  const num = numOf(scenario.ledger, name);
  const created = scenario.ledger.steps.find((s) => s.entityId === id(name))?.consensusTimestamp;
  const changed = oracle.lastChange(num, lastNs());
  const createdNs = created === undefined ? null : BigInt(created.replace(".", ""));
  const timestamp = changed === null || (createdNs !== null && createdNs > changed) ? createdNs : changed;
  return {
    balance: Number(oracle.balanceAt(num, lastNs())),
    timestamp: timestamp === null ? null : toTimestamp(timestamp),
    tokens,
  };
}

describe("GET /api/v1/accounts/{id}: every field of every kind of account, now", () => {
  it("shows an account created with staking, then updated field by field", async () => {
    const alice = await account(id("alice"));
    const created = at("create-alice");
    expect(alice).toEqual({
      account: id("alice"),
      alias: null,
      auto_renew_period: 7776000,
      balance: balanceNow("alice", [
        { token_id: scenario.ledger.tokens.GOLD!.id, balance: 1000000 },
        { token_id: scenario.ledger.tokens.SILVER!.id, balance: 475 },
      ]),
      created_timestamp: toTimestamp(created),
      decline_reward: true,
      deleted: false,
      ethereum_nonce: 0,
      evm_address: `0x${numOf(scenario.ledger, "alice").toString(16).padStart(40, "0")}`,
      expiry_timestamp: toTimestamp(created + 7_776_000n * 1_000_000_000n),
      key: keyOf("alice"),
      max_automatic_token_associations: 10,
      memo: "renamed",
      pending_reward: 0,
      receiver_sig_required: true,
      staked_account_id: null,
      staked_node_id: null,
      stake_period_start: null,
      transactions: expect.any(Array),
      links: expect.any(Object),
    });
  });

  it("shows staking to a node (period from the election day), receiver signature, declined rewards", async () => {
    const bob = await account(id("bob"));
    expect(bob).toMatchObject({
      decline_reward: true,
      receiver_sig_required: true,
      max_automatic_token_associations: 0,
      staked_account_id: null,
      staked_node_id: 1,
      stake_period_start: stakeDay("bob-stakes-node"),
      balance: balanceNow("bob", [{ token_id: scenario.ledger.tokens.SILVER!.id, balance: 20 }]),
    });
  });

  it("shows an EVM address alias, its address, an ECDSA key and the Ethereum signer nonce", async () => {
    const carol = await account(id("carol"));
    const address = hex(keys.ecdsaKey("carol").evmAddress);
    expect(carol).toMatchObject({
      alias: base32OfHex(address),
      evm_address: `0x${address}`,
      key: keyOf("carol"),
      ethereum_nonce: 2,
    });
  });

  it("shows a threshold key replaced by an ECDSA key, a new auto-renew period and an explicit expiry", async () => {
    expect(await account(id("dave"))).toMatchObject({
      key: keyOf("dave"),
      auto_renew_period: 2592000,
      expiry_timestamp: "1767225600.000000000",
      max_automatic_token_associations: -1,
      balance: balanceNow("dave", [{ token_id: scenario.ledger.tokens.SILVER!.id, balance: 5 }]),
    });
  });

  it("shows a deleted account, dated by its creation when its balance never moved", async () => {
    expect(await account(id("erin"))).toMatchObject({
      deleted: true,
      balance: { balance: 0, timestamp: toTimestamp(at("create-erin")), tokens: [] },
    });
  });

  it("shows accounts created for key aliases and for a bare EVM address (hollow, no key)", async () => {
    const kimKey = hex(keys.resolve({ ed25519: "kim" }).bytes);
    expect(await account(id("kim"))).toMatchObject({
      alias: base32OfHex(kimKey),
      evm_address: `0x${numOf(scenario.ledger, "kim").toString(16).padStart(40, "0")}`,
      key: keyOf("kim"),
      memo: "auto-created account",
      max_automatic_token_associations: -1,
    });
    expect(await account(id("leo"))).toMatchObject({
      alias: base32OfHex(hex(keys.resolve({ ecdsa: "leo" }).bytes)),
      evm_address: `0x${hex(keys.ecdsaKey("leo").evmAddress)}`,
      key: keyOf("leo"),
    });
    const maxAddress = hex(keys.ecdsaKey("max").evmAddress);
    expect(await account(id("max"))).toMatchObject({
      alias: base32OfHex(maxAddress),
      evm_address: `0x${maxAddress}`,
      key: null,
      memo: "lazy-created account",
    });
  });

  it("shows the genesis treasury once an update made it an account, with only what the update set", async () => {
    const response = await scenario.service.get("/api/v1/accounts/0.0.2");
    expect(response.status).toBe(200);
    const treasury = response.body as AccountBody;
    expect(treasury).toMatchObject({
      account: "0.0.2",
      created_timestamp: null,
      memo: "genesis treasury",
      key: null,
      auto_renew_period: null,
      expiry_timestamp: null,
      max_automatic_token_associations: null,
      receiver_sig_required: null,
      deleted: false,
      ethereum_nonce: 0,
    });
    // Its balance is above 2^53: printed exactly.
    expect(response.text).toContain(`"balance":${oracle.balanceAt(2n, lastNs())},`);
  });

  it("does not show accounts known only from transfer lists (the node and fee accounts)", async () => {
    expect(await messagesOf(scenario.service, "/api/v1/accounts/0.0.98", 404)).toEqual(["Not found"]);
    expect(await messagesOf(scenario.service, "/api/v1/accounts/0.0.800", 404)).toEqual(["Not found"]);
  });
});

describe("GET /api/v1/accounts/{id}: every spelling of an account", () => {
  it("answers the same account for IDs, long-zero addresses, EVM addresses and aliases", async () => {
    const carol = await account(id("carol"));
    const num = numOf(scenario.ledger, "carol");
    const longZero = num.toString(16).padStart(40, "0");
    const address = hex(keys.ecdsaKey("carol").evmAddress);
    for (const spelling of [
      String(num),
      `0.${num}`,
      `0.0.${num}`,
      `0x${longZero}`,
      longZero,
      `0.0.${longZero}`,
      `0x${address}`,
      address.toUpperCase(),
      `0.0.${address}`,
      base32OfHex(address),
      `0.0.${base32OfHex(address)}`,
    ]) {
      const body = await account(spelling);
      expect(body.account, spelling).toBe(carol.account);
      expect(body.balance, spelling).toEqual(carol.balance);
    }
    const kim = base32OfHex(hex(keys.resolve({ ed25519: "kim" }).bytes));
    expect((await account(kim)).account).toBe(id("kim"));
    expect((await account(`0.${kim}`)).account).toBe(id("kim"));
    expect((await account(hex(keys.ecdsaKey("max").evmAddress))).account).toBe(id("max"));
  });

  it("answers 404 with upstream's two messages for an address or alias that names nobody", async () => {
    expect(
      await messagesOf(scenario.service, "/api/v1/accounts/0xc3e5f0a0d1b2c3d4e5f60718293a4b5c6d7e8f90", 404),
    ).toEqual(["Not found"]);
    expect(await messagesOf(scenario.service, "/api/v1/accounts/AABBCC22", 404)).toEqual([
      "No account with a matching alias found",
    ]);
    expect(await messagesOf(scenario.service, "/api/v1/accounts/0.0.999999", 404)).toEqual(["Not found"]);
  });

  it("answers 400 for malformed IDs, addresses and aliases, after the query's own problems", async () => {
    for (const bad of [
      "0.5.6.7",
      "0.0.0x00000000000000000000000000000000000003ea",
      "1.0.AABBCC22",
      "AAA",
      "aabbcc22",
      "-5",
    ]) {
      expect(await messagesOf(scenario.service, `/api/v1/accounts/${bad}`), bad).toEqual([
        "Invalid parameter: idOrAliasOrEvmAddress",
      ]);
    }
    // The query is checked first, then the path.
    expect(await messagesOf(scenario.service, "/api/v1/accounts/0.5.6.7?limit=0&foo=1&order=up")).toEqual([
      "Invalid parameter: limit",
      "Invalid parameter: order",
      "Unknown query parameter: foo",
    ]);
    expect(
      await messagesOf(scenario.service, "/api/v1/accounts/1001?transactiontype=NOPE&transactions=maybe"),
    ).toEqual(["Invalid parameter: transactiontype", "Invalid parameter: transactions"]);
  });

  it("carries the mirror node's max-age", async () => {
    const response = await scenario.service.get(`/api/v1/accounts/${id("alice")}`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=2");
    expect((await scenario.service.get("/api/v1/accounts")).headers.get("cache-control")).toBe(
      "public, max-age=10",
    );
    expect((await scenario.service.get("/api/v1/balances")).headers.get("cache-control")).toBe(
      "public, max-age=1",
    );
  });
});

/**
 * `/api/v1/accounts/{id}?timestamp=…`: the account version and its balances at many instants, field by field,
 * against the scenario's own steps and the transfer lists replayed by the test.
 */
import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";
import {
  type AccountBody,
  getJson,
  HbarOracle,
  messagesOf,
  numOf,
  stepNs,
  toTimestamp,
} from "./accounts-helpers.ts";

const SCENARIO = "accounts";
const scenario = useScenario(SCENARIO);
const oracle = new HbarOracle(SCENARIO);
const DAY_NS = 86_400_000_000_000n;

const id = (name: string) => scenario.ledger.accounts[name]!.id;
const at = (label: string) => stepNs(scenario.ledger, label);
const day = (label: string) => toTimestamp((at(label) / DAY_NS) * DAY_NS);
const asOf = (name: string, query: string, status = 200) =>
  getJson<AccountBody>(scenario.service, `/api/v1/accounts/${id(name)}?${query}`, status);

type Case = { label: string; fields: Partial<AccountBody> };

/** alice: created staking to node 0, renamed, fields changed, paid a reward a day later, then unstaked. */
const ALICE: Case[] = [
  {
    label: "create-alice",
    fields: {
      memo: "first account",
      max_automatic_token_associations: 5,
      receiver_sig_required: false,
      decline_reward: false,
      staked_node_id: 0,
      stake_period_start: "",
    },
  },
  { label: "alice-memo", fields: { memo: "renamed", max_automatic_token_associations: 5 } },
  {
    label: "alice-fields",
    fields: {
      max_automatic_token_associations: 10,
      receiver_sig_required: true,
      decline_reward: true,
      staked_node_id: 0,
    },
  },
  // The payout a day after the last election restarts the staking period the day before.
  { label: "alice-reward", fields: { staked_node_id: 0 } },
  {
    label: "alice-unstakes",
    fields: { staked_node_id: null, staked_account_id: null, stake_period_start: null },
  },
];

describe("GET /api/v1/accounts/{id}?timestamp: the version of each instant", () => {
  it("shows each of alice's versions at its instant, and the previous one just before", async () => {
    const periods: Record<string, string> = {
      "create-alice": day("create-alice"),
      "alice-memo": day("create-alice"),
      "alice-fields": day("alice-fields"),
      "alice-reward": toTimestamp((at("alice-reward") / DAY_NS - 1n) * DAY_NS),
    };
    for (const [i, { label, fields }] of ALICE.entries()) {
      const t = at(label);
      const expected = { ...fields };
      if (label in periods) expected.stake_period_start = periods[label]!;
      for (const query of [
        `timestamp=${toTimestamp(t)}`,
        `timestamp=lte:${toTimestamp(t)}`,
        `timestamp=lt:${toTimestamp(t + 1n)}`,
      ]) {
        expect(await asOf("alice", query), `${label} ${query}`).toMatchObject(expected);
      }
      if (i > 0) {
        const previous = await asOf("alice", `timestamp=lt:${toTimestamp(t)}`);
        expect(previous, `before ${label}`).toMatchObject({ memo: i === 1 ? "first account" : "renamed" });
      }
    }
  });

  it("shows bob staked to alice, then to node 1 with a new period (the reward paid with it changes nothing)", async () => {
    expect(await asOf("bob", `timestamp=${toTimestamp(at("create-bob"))}`)).toMatchObject({
      staked_account_id: id("alice"),
      staked_node_id: null,
      stake_period_start: null,
      decline_reward: true,
      receiver_sig_required: true,
    });
    expect(await asOf("bob", `timestamp=${toTimestamp(at("bob-stakes-node"))}`)).toMatchObject({
      staked_account_id: null,
      staked_node_id: 1,
      stake_period_start: day("bob-stakes-node"),
    });
  });

  it("shows dave's key and expiry before and after the update, and erin alive before her deletion", async () => {
    const before = await asOf("dave", `timestamp=lt:${toTimestamp(at("dave-key"))}`);
    expect(before.key?._type).toBe("ProtobufEncoded");
    expect(before.expiry_timestamp).toBe(toTimestamp(at("create-dave") + 7_776_000_000_000_000n));
    const after = await asOf("dave", `timestamp=${toTimestamp(at("dave-key"))}`);
    expect(after).toMatchObject({
      key: { _type: "ECDSA_SECP256K1" },
      expiry_timestamp: "1767225600.000000000",
    });
    expect(await asOf("erin", `timestamp=lt:${toTimestamp(at("delete-erin"))}`)).toMatchObject({
      deleted: false,
    });
    expect(await asOf("erin", `timestamp=${toTimestamp(at("delete-erin"))}`)).toMatchObject({
      deleted: true,
    });
  });

  it("answers 404 before the account existed", async () => {
    expect(
      await messagesOf(
        scenario.service,
        `/api/v1/accounts/${id("bob")}?timestamp=lt:${toTimestamp(at("create-bob"))}`,
        404,
      ),
    ).toEqual(["Not found"]);
  });
});

describe("GET /api/v1/accounts/{id}?timestamp: balances at the newest ledger instant the range admits", () => {
  it("reports hbar and token balances exactly at every transaction instant, and between them", async () => {
    const bob = numOf(scenario.ledger, "bob");
    const created = at("create-bob");
    for (const move of oracle.moves) {
      for (const t of [move.consensusNs, move.consensusNs + 1n]) {
        if (t < created) continue;
        const body = await asOf("bob", `timestamp=${toTimestamp(t)}`);
        const instant = oracle.instantAtOrBefore(t)!;
        expect(body.balance, toTimestamp(t)).toMatchObject({
          balance: Number(oracle.balanceAt(bob, instant)),
          timestamp: toTimestamp(instant),
        });
      }
    }
  });

  it("lists the token relationships associated at that instant, with their balances then", async () => {
    const gold = scenario.ledger.tokens.GOLD!.id;
    const silver = scenario.ledger.tokens.SILVER!.id;
    const tokensAt = async (label: string, delta = 0n) =>
      (await asOf("bob", `timestamp=${toTimestamp(at(label) + delta)}`)).balance?.tokens;
    expect(await tokensAt("bob-associates", -1n)).toEqual([]);
    expect(await tokensAt("bob-associates")).toEqual([
      { token_id: gold, balance: 0 },
      { token_id: silver, balance: 0 },
    ]);
    expect(await tokensAt("bob-gets-tokens")).toEqual([
      { token_id: gold, balance: 5000 },
      { token_id: silver, balance: 20 },
    ]);
    expect(await tokensAt("bob-returns-gold")).toEqual([
      { token_id: gold, balance: 0 },
      { token_id: silver, balance: 20 },
    ]);
    expect(await tokensAt("bob-dissociates")).toEqual([{ token_id: silver, balance: 20 }]);
  });

  it("reads eq as the version containing the instant and bounds the balance instant by the range", async () => {
    const t = at("alice-pays-bob");
    const inGap = `timestamp=gt:${toTimestamp(t)}&timestamp=lt:${toTimestamp(at("alice-memo"))}`;
    // No transaction strictly between the two: upstream's fall-back, the version's own (current) balance.
    const gap = await asOf("bob", inGap);
    expect(gap.balance?.tokens).toEqual([]);
    const ranged = await asOf(
      "bob",
      `timestamp=gte:${toTimestamp(t)}&timestamp=lt:${toTimestamp(at("alice-memo"))}`,
    );
    expect(ranged.balance?.timestamp).toBe(toTimestamp(t));
    // ne skips the instant itself.
    const skipped = await asOf("bob", `timestamp=ne:${toTimestamp(oracle.moves.at(-1)!.consensusNs)}`);
    expect(skipped.balance?.timestamp).toBe(toTimestamp(oracle.moves.at(-2)!.consensusNs));
  });

  it("checks the timestamp combination once the account is known, and answers 404 for an empty range", async () => {
    const alice = `/api/v1/accounts/${id("alice")}`;
    expect(await messagesOf(scenario.service, `${alice}?timestamp=gt:1&timestamp=gte:2`)).toEqual([
      "Multiple gt or gte operators not permitted for timestamp param",
    ]);
    expect(await messagesOf(scenario.service, `${alice}?timestamp=lt:3&timestamp=lte:2`)).toEqual([
      "Multiple lt or lte operators not permitted for timestamp param",
    ]);
    expect(await messagesOf(scenario.service, `${alice}?timestamp=1&timestamp=gt:2`)).toEqual([
      "Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param",
    ]);
    expect(await messagesOf(scenario.service, `${alice}?timestamp=gt:5&timestamp=lte:5`, 404)).toEqual([
      "Timestamp range is empty",
    ]);
    // An alias that names nobody answers before the combination is looked at.
    expect(
      await messagesOf(scenario.service, "/api/v1/accounts/AABBCC22?timestamp=gt:1&timestamp=gt:2", 404),
    ).toEqual(["No account with a matching alias found"]);
    expect(await messagesOf(scenario.service, `${alice}?timestamp=-1&timestamp=1.2.3`)).toEqual([
      "Invalid parameter: timestamp",
      "Invalid parameter: timestamp",
    ]);
  });
});

describe("GET /api/v1/accounts/{id}: the embedded transactions", () => {
  type Page = {
    transactions: Array<{ consensus_timestamp: string; name: string }>;
    links: { next: string | null };
  };
  /** The transactions group's own list (its OpenAPI entry is that group's; only the status is checked here). */
  const transactions = async (query: string) => {
    const response = await scenario.service.get(`/api/v1/transactions?${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body as Page;
  };

  it("lists what /api/v1/transactions?account.id= lists, with the same filters", async () => {
    const alice = id("alice");
    for (const query of [
      "",
      "limit=3",
      "order=asc&limit=4",
      "transactiontype=cryptoupdateaccount",
      `timestamp=lte:${toTimestamp(at("alice-reward"))}`,
    ]) {
      const embedded = await asOf("alice", query);
      const listed = await transactions(`account.id=${alice}${query === "" ? "" : `&${query}`}`);
      expect(embedded.transactions, query).toEqual(listed.transactions);
      expect(embedded.transactions!.length, query).toBeGreaterThan(0);
    }
    const updates = await asOf("alice", "transactiontype=CRYPTOUPDATEACCOUNT");
    expect((updates.transactions as Page["transactions"]).map((t) => t.name)).toEqual([
      "CRYPTOUPDATEACCOUNT",
      "CRYPTOUPDATEACCOUNT",
      "CRYPTOUPDATEACCOUNT",
    ]);
  });

  it("pages on timestamp under the account's own path, to the end (a bound before creation is a 404)", async () => {
    const path = `/api/v1/accounts/${id("bob")}`;
    const all = await transactions(`account.id=${id("bob")}&limit=100`);
    const seen: string[] = [];
    let next: string | null = `${path}?limit=2`;
    let first = true;
    while (next !== null) {
      // The link's timestamp also selects the account version: before bob existed there is none (upstream too).
      if ((await scenario.service.get(next)).status === 404) {
        expect(next).toBe(`${path}?limit=2&timestamp=lt:${toTimestamp(at("create-bob"))}`);
        break;
      }
      const page: AccountBody = await getJson<AccountBody>(scenario.service, next);
      const items = page.transactions as Page["transactions"];
      if (first)
        expect(page.links?.next).toBe(`${path}?limit=2&timestamp=lt:${items[1]!.consensus_timestamp}`);
      first = false;
      seen.push(...items.map((t) => t.consensus_timestamp));
      next = page.links!.next;
    }
    expect(seen).toEqual(all.transactions.map((t) => t.consensus_timestamp));
  });

  it("leaves the list empty with transactions=false", async () => {
    const body = await asOf("bob", "transactions=false&limit=1");
    expect(body.transactions).toEqual([]);
    expect(body.links).toEqual({ next: null });
  });
});

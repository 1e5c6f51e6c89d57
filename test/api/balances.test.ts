import { describe, expect, it } from "vitest";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { useScenario } from "../helpers/fixtures.ts";
import {
  base32OfHex,
  type ErrorBody,
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
const keys = new KeyRing(SCENARIO);

type Row = { account: string; balance: number; tokens: Array<{ token_id: string; balance: number }> };
type BalancesBody = { timestamp: string | null; balances: Row[]; links: { next: string | null } };

const balances = (query: string) => getJson<BalancesBody>(scenario.service, `/api/v1/balances${query}`);
const id = (name: string) => scenario.ledger.accounts[name]!.id;
const at = (label: string) => stepNs(scenario.ledger, label);
const EMPTY = { timestamp: null, balances: [], links: { next: null } };
/** Account holders of the scenario: the genesis treasury and every created account (descending by ID). */
const HOLDERS = ["max", "leo", "kim", "erin", "dave", "carol", "bob", "alice", "operator"].map(id);

describe("GET /api/v1/balances, current", () => {
  it("lists every holder by ID (desc by default), dated by the newest last change on the page", async () => {
    const body = await balances("?limit=100");
    expect(body.balances.map((b) => b.account)).toEqual(HOLDERS);
    const last = oracle.moves.at(-1)!.consensusNs;
    for (const row of body.balances.filter((b) => b.account !== "0.0.2")) {
      expect(row.balance, row.account).toBe(
        Number(oracle.balanceAt(BigInt(row.account.split(".")[2]!), last)),
      );
    }
    expect(body.timestamp).toBe(toTimestamp(last));
    const bob = await balances(`?account.id=${id("bob")}`);
    expect(bob.balances).toEqual([
      {
        account: id("bob"),
        balance: Number(oracle.balanceAt(numOf(scenario.ledger, "bob"), last)),
        tokens: [{ token_id: scenario.ledger.tokens.SILVER!.id, balance: 20 }],
      },
    ]);
    expect(bob.timestamp).toBe(toTimestamp(at("last-transfer")));
    const alice = await balances(`?account.id=${id("alice")}&order=asc`);
    expect(alice.balances[0]!.tokens.map((t) => t.token_id)).toEqual([
      scenario.ledger.tokens.GOLD!.id,
      scenario.ledger.tokens.SILVER!.id,
    ]);
    const aliceDesc = await balances(`?account.id=${id("alice")}`);
    expect(aliceDesc.balances[0]!.tokens.map((t) => t.token_id)).toEqual([
      scenario.ledger.tokens.SILVER!.id,
      scenario.ledger.tokens.GOLD!.id,
    ]);
  });

  it("pages to the end with account.id=lt:<last>", async () => {
    const seen: string[] = [];
    let next: string | null = "/api/v1/balances?limit=2";
    while (next !== null) {
      const page: BalancesBody = await getJson<BalancesBody>(scenario.service, next);
      seen.push(...page.balances.map((b) => b.account));
      next = page.links.next;
    }
    expect(seen).toEqual(HOLDERS);
    expect((await balances("?limit=2")).links.next).toBe(
      `/api/v1/balances?limit=2&account.id=lt:${HOLDERS[1]}`,
    );
  });

  it("takes one EVM address (bare or 0x) or alias, and filters by balance and public key", async () => {
    const carol = keys.ecdsaKey("carol").evmAddress;
    const hex = Buffer.from(carol).toString("hex");
    for (const spelling of [hex, `0x${hex}`, base32OfHex(hex)]) {
      expect(
        (await balances(`?account.id=${spelling}`)).balances.map((b) => b.account),
        spelling,
      ).toEqual([id("carol")]);
    }
    // An address or alias naming nobody matches nothing, also inside an IN list.
    expect(await balances("?account.id=c3e5f0a0d1b2c3d4e5f60718293a4b5c6d7e8f90")).toEqual(EMPTY);
    expect(
      (await balances(`?account.id=AABBCC22&account.id=${id("bob")}`)).balances.map((b) => b.account),
    ).toEqual([id("bob")]);
    const big = await balances("?account.balance=gte:10000000000&account.balance=lt:1000000000000");
    const last = oracle.moves.at(-1)!.consensusNs;
    expect(big.balances.map((b) => b.account)).toEqual(
      HOLDERS.filter((a) => {
        const b = oracle.balanceAt(BigInt(a.split(".")[2]!), last);
        return b >= 10_000_000_000n && b < 1_000_000_000_000n;
      }),
    );
    const daveKey = scenario.ledger.accounts.dave!.key!.slice(4);
    expect((await balances(`?account.publickey=${daveKey}`)).balances.map((b) => b.account)).toEqual([
      id("dave"),
    ]);
  });

  it("answers upstream's account.id errors, with a detail where upstream gives one", async () => {
    const carol = Buffer.from(keys.ecdsaKey("carol").evmAddress).toString("hex");
    const leo = Buffer.from(keys.ecdsaKey("leo").evmAddress).toString("hex");
    const two = await getJson<ErrorBody>(
      scenario.service,
      `/api/v1/balances?account.id=${carol}&account.id=${leo}`,
      400,
    );
    expect(two._status.messages).toEqual([
      { message: "Invalid parameter: account.id", detail: "Only one EVM address or alias is allowed." },
    ]);
    const ranged = await getJson<ErrorBody>(scenario.service, `/api/v1/balances?account.id=gt:${carol}`, 400);
    expect(ranged._status.messages).toEqual([
      {
        message: "Invalid parameter: account.id",
        detail: "EVM address or alias only supports equals operator",
      },
    ]);
    expect(await messagesOf(scenario.service, `/api/v1/balances?account.id=0.0.${carol}`)).toEqual([
      "Invalid parameter: account.id",
    ]);
    expect(await messagesOf(scenario.service, "/api/v1/balances?account.id=0.0.AABBCC22")).toEqual([
      "Invalid parameter: account.id",
    ]);
    // Base32 letters that are no whole encoding: the alias decoder's message (upstream AccountAlias.fromString).
    for (const text of ["AAA", "AAAAAAB"]) {
      expect(await messagesOf(scenario.service, `/api/v1/balances?account.id=${text}`), text).toEqual([
        `Invalid accountAlias string ${text}`,
      ]);
    }
    expect(await messagesOf(scenario.service, "/api/v1/balances?account.id=lt:AAA")).toEqual([
      "Invalid accountAlias string AAA",
    ]);
    // Other parameters are checked first, in query order.
    expect(
      await messagesOf(scenario.service, "/api/v1/balances?account.id=bad&limit=0&timestamp=x&foo=1"),
    ).toEqual(["Invalid parameter: limit", "Invalid parameter: timestamp", "Unknown query parameter: foo"]);
  });
});

describe("GET /api/v1/balances?timestamp: exact at the newest ledger instant admitted", () => {
  it("answers every holder's balance at many instants, dated by that instant", async () => {
    for (const move of oracle.moves.filter((_, i) => i % 3 === 0)) {
      for (const t of [move.consensusNs, move.consensusNs + 500_000_000n]) {
        const instant = oracle.instantAtOrBefore(t)!;
        const body = await balances(`?timestamp=${toTimestamp(t)}&limit=100`);
        expect(body.timestamp, toTimestamp(t)).toBe(toTimestamp(instant));
        for (const row of body.balances.filter((b) => b.account !== "0.0.2")) {
          expect(row.balance, `${row.account} at ${toTimestamp(t)}`).toBe(
            Number(oracle.balanceAt(BigInt(row.account.split(".")[2]!), instant)),
          );
        }
        const holders = HOLDERS.filter((a) => {
          const created = scenario.ledger.steps
            .flatMap((s) => [s, ...((s as { children?: (typeof s)[] }).children ?? [])])
            .find((s) => s.entityId === a)?.consensusTimestamp;
          return created === undefined || BigInt(created.replace(".", "")) <= instant;
        });
        expect(
          body.balances.map((b) => b.account),
          toTimestamp(t),
        ).toEqual(holders);
      }
    }
  });

  it("shows token relationships associated at the instant, with their balances then", async () => {
    const bob = `?account.id=${id("bob")}&order=asc&timestamp=`;
    const gold = scenario.ledger.tokens.GOLD!.id;
    const silver = scenario.ledger.tokens.SILVER!.id;
    expect((await balances(bob + toTimestamp(at("bob-gets-tokens")))).balances[0]!.tokens).toEqual([
      { token_id: gold, balance: 5000 },
      { token_id: silver, balance: 20 },
    ]);
    expect((await balances(bob + toTimestamp(at("bob-dissociates")))).balances[0]!.tokens).toEqual([
      { token_id: silver, balance: 20 },
    ]);
  });

  it("reads eq as lte, skips ne instants, and answers empty without an instant", async () => {
    const t = at("alice-pays-bob");
    expect((await balances(`?timestamp=eq:${toTimestamp(t + 10n)}`)).timestamp).toBe(toTimestamp(t));
    expect(
      (await balances(`?timestamp=lte:${toTimestamp(t)}&timestamp=ne:${toTimestamp(t)}`)).timestamp,
    ).toBe(toTimestamp(at("create-erin")));
    expect(
      await balances(`?timestamp=gt:${toTimestamp(t)}&timestamp=lt:${toTimestamp(at("alice-memo"))}`),
    ).toEqual(EMPTY);
    expect(await balances("?timestamp=1000000000")).toEqual(EMPTY);
    expect(await balances("?timestamp=gt:5&timestamp=lt:5")).toEqual(EMPTY);
    // Before the first transaction: the starting state (genesis: only the treasury holds hbar).
    const start = await balances(`?timestamp=${toTimestamp(oracle.startNs)}`);
    expect(start.timestamp).toBe(toTimestamp(oracle.startNs));
    expect(start.balances.map((b) => b.account)).toEqual(["0.0.2"]);
  });

  it("filters on the balance at the instant and on the current public key", async () => {
    const t = at("create-carol");
    const body = await balances(
      `?timestamp=${toTimestamp(t)}&account.balance=gte:20000000000&account.balance=lt:60000000000`,
    );
    expect(body.balances.map((b) => b.account)).toEqual(
      [id("carol"), id("bob")].filter((a) => {
        const b = oracle.balanceAt(BigInt(a.split(".")[2]!), t);
        return b >= 20_000_000_000n && b < 60_000_000_000n;
      }),
    );
    const daveKey = scenario.ledger.accounts.dave!.key!.slice(4);
    const dave = await balances(`?timestamp=${toTimestamp(at("dave-key"))}&account.publickey=${daveKey}`);
    expect(dave.balances.map((b) => b.account)).toEqual([id("dave")]);
  });
});

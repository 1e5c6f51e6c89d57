import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";
import { type AccountBody, getJson, HbarOracle, messagesOf } from "./accounts-helpers.ts";

const SCENARIO = "accounts";
const scenario = useScenario(SCENARIO);
const oracle = new HbarOracle(SCENARIO);

type AccountsBody = { accounts: AccountBody[]; links: { next: string | null } };
const list = (query: string) => getJson<AccountsBody>(scenario.service, `/api/v1/accounts${query}`);
const ids = (body: AccountsBody) => body.accounts.map((a) => a.account);
const id = (name: string) => scenario.ledger.accounts[name]!.id;

/** Accounts the scenario's ledger shows: the treasury (made an account by an update) and every created one. */
const ALL = ["operator", "alice", "bob", "carol", "dave", "erin", "kim", "leo", "max"].map(id);

async function pages(first: string): Promise<string[]> {
  const seen: string[] = [];
  let next: string | null = `/api/v1/accounts${first}`;
  for (let guard = 0; next !== null && guard < 50; guard++) {
    const page: AccountsBody = await getJson<AccountsBody>(scenario.service, next);
    seen.push(...ids(page));
    next = page.links.next;
  }
  return seen;
}

describe("GET /api/v1/accounts", () => {
  it("lists every account in ID order, each as /accounts/{id} shows it but with at most 50 tokens", async () => {
    const body = await list("");
    expect(ids(body)).toEqual(ALL);
    expect(body.links.next).toBeNull();
    for (const entry of body.accounts.slice(1)) {
      const {
        transactions: _t,
        links: _l,
        ...one
      } = await getJson<AccountBody>(scenario.service, `/api/v1/accounts/${entry.account}`);
      expect(entry).toEqual(one);
      const num = BigInt(entry.account.split(".")[2]!);
      expect(entry.balance?.balance).toBe(Number(oracle.balanceAt(num, oracle.moves.at(-1)!.consensusNs)));
    }
  });

  it("pages to the end with account.id=gt:<last> (lt: descending)", async () => {
    const first = await list("?limit=4");
    expect(first.links.next).toBe(`/api/v1/accounts?limit=4&account.id=gt:${ALL[3]}`);
    expect(await pages("?limit=4")).toEqual(ALL);
    expect(await pages("?limit=2&order=desc")).toEqual([...ALL].reverse());
    const ranged = await list(`?account.id=gte:${id("bob")}&limit=2&order=desc`);
    expect(ranged.links.next).toBe(
      `/api/v1/accounts?account.id=gte:${id("bob")}&account.id=lt:${id("leo")}&limit=2&order=desc`,
    );
    // A full last page links to an empty one.
    const last = await list(`?account.id=gte:${id("leo")}&limit=2`);
    expect(ids(last)).toEqual([id("leo"), id("max")]);
    expect(ids(await getJson<AccountsBody>(scenario.service, last.links.next!))).toEqual([]);
  });

  it("filters by account IDs (equalities as one list), balances and public keys", async () => {
    expect(ids(await list(`?account.id=${id("carol")}&account.id=${id("alice")}`))).toEqual([
      id("alice"),
      id("carol"),
    ]);
    expect(ids(await list(`?account.id=gt:${id("bob")}&account.id=lte:${id("erin")}`))).toEqual([
      id("carol"),
      id("dave"),
      id("erin"),
    ]);
    const carolAddress = (scenario.ledger.accounts.carol as { evmAddress?: string }).evmAddress!;
    expect(ids(await list(`?account.id=${carolAddress}`))).toEqual([]);
    const rich = await list("?account.balance=gte:5000000000&account.balance=lt:60000000000");
    const expected = ALL.filter((account) => {
      const b = oracle.balanceAt(BigInt(account.split(".")[2]!), oracle.moves.at(-1)!.consensusNs);
      return b >= 5_000_000_000n && b < 60_000_000_000n;
    });
    expect(ids(rich)).toEqual(expected);
    const aliceKey = scenario.ledger.accounts.alice!.key!.slice(4);
    expect(ids(await list(`?account.publickey=${aliceKey}`))).toEqual([id("alice")]);
    expect(ids(await list(`?account.publickey=0x${aliceKey.toUpperCase()}`))).toEqual([id("alice")]);
    const carolKey = scenario.ledger.accounts.carol!.key!.slice(4);
    expect(ids(await list(`?account.publickey=${carolKey}`))).toEqual([id("carol")]);
    // The operator is kept: ne excludes one key (and accounts without a single key, whose key is null).
    expect(ids(await list(`?account.publickey=ne:${aliceKey}`))).not.toContain(id("alice"));
  });

  it("drops balances with balance=false, ignoring account.balance then; only a last value of true keeps them", async () => {
    const none = await list("?balance=false&account.balance=gt:999999999999999");
    expect(ids(none)).toEqual(ALL);
    for (const entry of none.accounts) expect(entry.balance).toBeNull();
    expect((await list("?balance=true&balance=FALSE")).accounts[0]!.balance).toBeNull();
    expect((await list("?balance=false&balance=True")).accounts[0]!.balance).not.toBeNull();
    expect((await list("?balance=eq:true")).accounts[0]!.balance).toBeNull();
    expect(ids(await list("?account.balance=gt:4999999999999999999"))).toEqual([]);
    expect(ids(await list("?account.balance=gt:999999999999999999"))).toEqual([id("operator")]);
  });

  it("takes order only from a single asc/desc and limit from the last value", async () => {
    expect(ids(await list("?order=desc&order=desc"))).toEqual(ALL);
    expect(ids(await list("?order=eq:desc"))).toEqual(ALL);
    expect(ids(await list("?order=DESC&limit=1"))).toEqual([ALL.at(-1)]);
    expect(ids(await list("?limit=1&limit=3"))).toHaveLength(3);
    expect(ids(await list("?limit=1000"))).toEqual(ALL);
  });

  it("reports every problem where it stands in the query", async () => {
    expect(
      await messagesOf(
        scenario.service,
        "/api/v1/accounts?account.id=lte:0.1.2.3&account.balance=gt:-2&account.publickey=abcdef&timestamp=-1.2&order=any&balance=1&token.id=0.0.45678",
      ),
    ).toEqual([
      "Invalid parameter: account.id",
      "Invalid parameter: account.balance",
      "Invalid parameter: account.publickey",
      "Unknown query parameter: timestamp",
      "Invalid parameter: order",
      "Invalid parameter: balance",
      "Unknown query parameter: token.id",
    ]);
    expect(await messagesOf(scenario.service, "/api/v1/accounts?foo=1&foo=2&limit=a:b:c")).toEqual([
      "Unknown query parameter: foo",
      "Invalid parameter: limit",
    ]);
    expect(await messagesOf(scenario.service, "/api/v1/accounts?account.id=1234567890123")).toEqual([
      'Invalid entity ID "0.0.1234567890123"',
    ]);
    expect(await messagesOf(scenario.service, "/api/v1/accounts?balance=eq:maybe&balance=ne:true")).toEqual([
      "Invalid parameter: balance",
      "Invalid parameter: balance",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

type Balance = { account: string; balance: number; decimals: number | null };
type BalancesBody = { timestamp: string | null; balances: Balance[]; links: { next: string | null } };
type Nft = { token_id: string; serial_number: number; account_id: string | null };
type NftsBody = { nfts: Nft[]; links: { next: string | null } };

const SCENARIO = "tokens-group-nfts";
const scenario = useScenario(SCENARIO);

async function get<T>(path: string, status = 200): Promise<T> {
  const response = await scenario.service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  const links = (response.body as { links?: { next: string | null } }).links;
  if (links !== undefined) {
    expect(response.headers.get("link")).toBe(links.next === null ? null : `<${links.next}>; rel="next"`);
  }
  return response.body as T;
}

async function errors(path: string): Promise<string[]> {
  const body = await get<{ _status: { messages: { message: string }[] } }>(path, 400);
  return body._status.messages.map((m) => m.message);
}

/** Every item of every page from `path` on, and the links followed. */
async function follow<T>(
  path: string,
  items: (body: T) => unknown[],
): Promise<{ all: unknown[]; links: string[] }> {
  const all: unknown[] = [];
  const links: string[] = [];
  let next: string | null = path;
  while (next !== null) {
    const body: T & { links: { next: string | null } } = await get(next);
    all.push(...items(body));
    next = body.links.next;
    if (next !== null) links.push(next);
  }
  return { all, links };
}

const num = (id: string) => BigInt(id.split(".")[2]!);
const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const tokens = () => Object.values(scenario.ledger.tokens);
const account = (name: string) => scenario.ledger.accounts[name]!.id;

/** Every (token, account, balance) of the scenario, ordered by token then account. */
function allBalances(order: "asc" | "desc"): { token: string; account: string; balance: string }[] {
  const rows = tokens().flatMap((t) =>
    Object.entries(t.balances).map(([acct, balance]) => ({ token: t.id, account: acct, balance })),
  );
  rows.sort((a, b) => cmp(num(a.token), num(b.token)) || cmp(num(a.account), num(b.account)));
  return order === "asc" ? rows : rows.reverse();
}

describe("the token as token.id: one token", () => {
  it("answers /tokens/balances?token.id= as /tokens/{id}/balances, with token.id kept in the links", async () => {
    const drop = scenario.ledger.tokens.DROP!.id;
    const hex = `0x${num(drop).toString(16).padStart(40, "0")}`;
    const long = await get<BalancesBody>(`/api/v1/tokens/${drop}/balances?limit=4`);
    for (const spelling of [drop, `eq:${drop}`, hex, String(num(drop))]) {
      const short = await get<BalancesBody>(`/api/v1/tokens/balances?token.id=${spelling}&limit=4`);
      expect(short.balances, spelling).toEqual(long.balances);
      expect(short.timestamp).toBe(long.timestamp);
      expect(short.links.next).toBe(
        `/api/v1/tokens/balances?token.id=${spelling}&limit=4&account.id=lt:${long.balances.at(-1)!.account}`,
      );
    }
    const paged = await follow<BalancesBody>(
      `/api/v1/tokens/balances?limit=4&token.id=${drop}`,
      (b) => b.balances,
    );
    expect(paged.all).toEqual(
      (await get<BalancesBody>(`/api/v1/tokens/${drop}/balances?limit=100`)).balances,
    );
    const wave = stepTime(scenario.ledger, "drop-wave-1");
    expect(await get<BalancesBody>(`/api/v1/tokens/balances?token.id=${drop}&timestamp=${wave}`)).toEqual(
      await get<BalancesBody>(`/api/v1/tokens/${drop}/balances?timestamp=${wave}`),
    );
  });

  it("answers /tokens/nfts?token.id= and the single-NFT short paths as their {tokenId} forms", async () => {
    const shells = scenario.ledger.tokens.SHELLS!.id;
    const long = await get<NftsBody>(`/api/v1/tokens/${shells}/nfts?limit=5&account.id=${account("h06")}`);
    const short = await get<NftsBody>(
      `/api/v1/tokens/nfts?token.id=${shells}&limit=5&account.id=${account("h06")}`,
    );
    expect(short.nfts).toEqual(long.nfts);
    const page = await get<NftsBody>(`/api/v1/tokens/nfts?token.id=${shells}&limit=5`);
    expect(page.links.next).toBe(`/api/v1/tokens/nfts?token.id=${shells}&limit=5&serialnumber=lt:26`);
    const gems = scenario.ledger.tokens.GEMS!.id;
    expect(await get(`/api/v1/tokens/nfts/2?token.id=${gems}`)).toEqual(
      await get(`/api/v1/tokens/${gems}/nfts/2`),
    );
    const history = await get<{ transactions: unknown[]; links: { next: string | null } }>(
      `/api/v1/tokens/nfts/2/transactions?token.id=${gems}&limit=2`,
    );
    const longHistory = await get<{ transactions: { consensus_timestamp: string }[] }>(
      `/api/v1/tokens/${gems}/nfts/2/transactions?limit=2`,
    );
    expect(history.transactions).toEqual(longHistory.transactions);
    expect(history.links.next).toBe(
      `/api/v1/tokens/nfts/2/transactions?token.id=${gems}&limit=2&timestamp=lt:${longHistory.transactions[1]!.consensus_timestamp}`,
    );
    const response = await scenario.service.get(`/api/v1/tokens/nfts/2?token.id=${gems}`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
    await get(`/api/v1/tokens/nfts/99?token.id=${shells}`, 404);
  });

  it("names token.id in its 400s", async () => {
    expect(await errors("/api/v1/tokens/balances?token.id=abc&limit=0")).toEqual([
      "Invalid parameter: token.id",
    ]);
    expect(await errors("/api/v1/tokens/nfts?token.id=06bd279138d5918402fc8ad500526cb2ee0eb985")).toEqual([
      "Invalid parameter: token.id",
    ]);
    expect(await errors("/api/v1/tokens/nfts/1")).toEqual(["Missing required parameter: token.id"]);
    expect(await errors("/api/v1/tokens/nfts/1/transactions?limit=2")).toEqual([
      "Missing required parameter: token.id",
    ]);
    expect(await errors("/api/v1/tokens/nfts/1?token.id=gt:1")).toEqual(["Invalid parameter: token.id"]);
    expect(await errors("/api/v1/tokens/nfts/1?token.id=1&token.id=2")).toEqual([
      "Invalid parameter: token.id",
    ]);
    // As on the {tokenId} form: unknown names first, then the token, then the serial.
    expect(await errors("/api/v1/tokens/nfts/x?limit=1&token.id=abc")).toEqual([
      "Unknown query parameter: limit",
    ]);
    expect(await errors("/api/v1/tokens/nfts/x?token.id=abc")).toEqual(["Invalid parameter: token.id"]);
    expect(await errors("/api/v1/tokens/nfts/x?token.id=0.0.3018")).toEqual([
      "Invalid parameter: serialnumber",
    ]);
    expect(await errors("/api/v1/tokens/nfts/x/transactions?token.id=0.0.3018")).toEqual([
      "Invalid parameter: serialnumber",
    ]);
    expect(await errors("/api/v1/tokens/nfts/1/transactions?token.id=0.0.3018&order=up&foo=1")).toEqual([
      "Invalid parameter: order",
      "Unknown query parameter: foo",
    ]);
  });
});

describe("the short list paths without a token: every token", () => {
  it("lists balances of every token, by token then account, paging through (token, account) pairs", async () => {
    for (const order of ["desc", "asc"] as const) {
      const expected = allBalances(order).map((r) => r.account);
      const { all, links } = await follow<BalancesBody>(
        `/api/v1/tokens/balances?limit=7&order=${order}`,
        (b) => b.balances.map((x) => x.account),
      );
      expect(all, order).toEqual(expected);
      expect(links[0]).toBe(
        `/api/v1/tokens/balances?limit=7&order=${order}&token.id=${order === "asc" ? "gte" : "lte"}:${allBalances(order)[6]!.token}&account.id=${order === "asc" ? "gt" : "lt"}:${expected[6]}`,
      );
    }
    const first = await get<BalancesBody>("/api/v1/tokens/balances?limit=3");
    const rows = allBalances("desc");
    expect(first.balances).toEqual(
      rows.slice(0, 3).map((r) => ({
        account: r.account,
        balance: Number(r.balance),
        decimals: tokens().find((t) => t.id === r.token)!.decimals,
      })),
    );
  });

  it("filters across tokens: an account's balances, token ranges, balances, instants", async () => {
    const h01 = account("h01");
    const mine = await get<BalancesBody>(`/api/v1/tokens/balances?account.id=${h01}`);
    const held = allBalances("desc").filter((r) => r.account === h01);
    expect(mine.balances.map((b) => String(b.balance))).toEqual(held.map((r) => r.balance));
    expect(mine.balances.map((b) => b.decimals)).toEqual(
      held.map((r) => tokens().find((t) => t.id === r.token)!.decimals),
    );
    const range = await get<BalancesBody>(
      `/api/v1/tokens/balances?token.id=gt:${scenario.ledger.tokens.DROP!.id}&token.id=lt:${scenario.ledger.tokens.SHELLS!.id}`,
    );
    expect(range.balances.map((b) => b.account)).toEqual(
      allBalances("desc")
        .filter(
          (r) =>
            num(r.token) > num(scenario.ledger.tokens.DROP!.id) &&
            num(r.token) < num(scenario.ledger.tokens.SHELLS!.id),
        )
        .map((r) => r.account),
    );
    // Amounts and instants across tokens are read for one account (an index seek, never every relationship).
    const positive = await get<BalancesBody>(
      `/api/v1/tokens/balances?account.id=${h01}&account.balance=gt:0`,
    );
    expect(positive.balances.map((b) => String(b.balance))).toEqual(
      held.filter((r) => BigInt(r.balance) > 0n).map((r) => r.balance),
    );
    const wave = stepTime(scenario.ledger, "drop-wave-1");
    const dropHolders = (
      await get<BalancesBody>(
        `/api/v1/tokens/${scenario.ledger.tokens.DROP!.id}/balances?timestamp=${wave}&limit=100`,
      )
    ).balances;
    expect(dropHolders.length).toBeGreaterThan(0);
    for (const holder of dropHolders.slice(0, 3)) {
      const then = await get<BalancesBody>(
        `/api/v1/tokens/balances?account.id=${holder.account}&timestamp=${wave}&limit=100`,
      );
      expect(then.timestamp).toBe(wave);
      // Only DROP existed then.
      expect(then.balances).toEqual([holder]);
    }
    expect(await errors("/api/v1/tokens/balances?timestamp=1&account.balance=gt:0")).toEqual([
      "account.balance across tokens needs an account.id",
      "timestamp across tokens needs an account.id",
    ]);
  });

  it("lists NFTs of every token, by token then serial, paging through (token, serial) pairs", async () => {
    const expected = tokens()
      .filter((t) => t.type === "NON_FUNGIBLE_UNIQUE")
      .flatMap((t) => {
        const count = t.id === scenario.ledger.tokens.GEMS!.id ? 6 : 30;
        return Array.from({ length: count }, (_, i) => `${t.id}#${i + 1}`);
      });
    const desc = await follow<NftsBody>("/api/v1/tokens/nfts?limit=8", (b) =>
      b.nfts.map((n) => `${n.token_id}#${n.serial_number}`),
    );
    expect(desc.all).toEqual([...expected].reverse());
    expect(desc.links[0]).toBe(
      `/api/v1/tokens/nfts?limit=8&token.id=lte:${scenario.ledger.tokens.SHELLS!.id}&serialnumber=lt:23`,
    );
    const asc = await follow<NftsBody>("/api/v1/tokens/nfts?limit=8&order=asc", (b) =>
      b.nfts.map((n) => `${n.token_id}#${n.serial_number}`),
    );
    expect(asc.all).toEqual(expected);
    const owned = await get<NftsBody>(`/api/v1/tokens/nfts?account.id=${account("h06")}&order=asc`);
    expect(owned.nfts.map((n) => n.serial_number)).toEqual([3, 11, 29]);
    const some = await get<NftsBody>(
      `/api/v1/tokens/nfts?token.id=${scenario.ledger.tokens.GEMS!.id}&token.id=${scenario.ledger.tokens.SHELLS!.id}&serialnumber=ne:3&limit=100`,
    );
    expect(some.nfts.length).toBe(6 + 30 - 2);
    // A serial number or an owner range across tokens would skip any number of NFTs: they need a token.
    expect(await errors(`/api/v1/tokens/nfts?serialnumber=2&account.id=gt:${account("h06")}`)).toEqual([
      "account.id across tokens takes only eq",
      "serialnumber=eq across tokens needs a token.id",
    ]);
  });

  it("needs a token.id bound on the same side for a range on the secondary key", async () => {
    expect(await errors("/api/v1/tokens/nfts?serialnumber=gt:3")).toEqual([
      "serialnumber with gt/gte needs a token.id=gte: bound",
    ]);
    expect(await errors(`/api/v1/tokens/balances?account.id=lt:${account("h03")}&token.id=gte:1`)).toEqual([
      "account.id with lt/lte needs a token.id=lte: bound",
    ]);
    expect(await errors("/api/v1/tokens/nfts?serialnumber=gt:3&serialnumber=gte:4&token.id=gte:1")).toEqual([
      "serialnumber may have one gt/gte bound across tokens",
    ]);
    expect(await errors("/api/v1/tokens/balances?token.id=gt:abc&account.id=x&limit=0&foo=1")).toEqual([
      "Invalid parameter: token.id",
      "Invalid parameter: account.id",
      "Invalid parameter: limit",
      "Unknown query parameter: foo",
    ]);
  });
});

/**
 * The Node-style account sub-resources on the account-relations scenario, through the real service:
 * `/accounts/{id}/tokens`, `/nfts`, `/rewards`, `/allowances/crypto`, `/allowances/tokens`. Expected values come
 * from the simulator's own account of the ledger (`expected.json`), every answer is checked against the OpenAPI
 * document, and lists are paged to their end through `links.next`.
 */
import { describe, expect, it } from "vitest";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { type ExpectedLedger, stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

type Ledger = ExpectedLedger & {
  allowances: Array<{ owner: string; spender: string; token: string | null; amount: string }>;
  tokens: Record<string, { nfts?: Record<string, { owner: string; spender: string | null }> }>;
};
type Page = { links: { next: string | null } } & Record<string, unknown>;

const SCENARIO = "account-relations";
const scenario = useScenario(SCENARIO);
const ledger = scenario.ledger as Ledger;
const service = { get: (path: string) => scenario.service.get(path) };
const acct = (name: string) => ledger.accounts[name]!.id;
const token = (handle: string) => ledger.tokens[handle]!.id;
const num = (id: string) => BigInt(id.split(".")[2]!);
const byId = (a: string, b: string) => (num(a) < num(b) ? -1 : num(a) > num(b) ? 1 : 0);

async function get(path: string, status = 200): Promise<Page> {
  const response = await service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  if (status === 200) {
    const next = (response.body as Page).links.next;
    expect(response.headers.get("link")).toBe(next === null ? null : `<${next}>; rel="next"`);
  }
  return response.body as Page;
}

async function messages(path: string, status = 400): Promise<string[]> {
  const body = (await get(path, status)) as unknown as { _status: { messages: { message: string }[] } };
  return body._status.messages.map((m) => m.message);
}

/** Every item of a list, following `links.next` from `path` to the end; also the links seen. */
async function pageThrough(path: string, key: string): Promise<{ items: unknown[]; links: string[] }> {
  const items: unknown[] = [];
  const links: string[] = [];
  let next: string | null = path;
  while (next !== null) {
    const page: Page = await get(next);
    items.push(...(page[key] as unknown[]));
    next = page.links.next;
    if (next !== null) links.push(next);
    expect(links.length).toBeLessThan(50);
  }
  return { items, links };
}

describe("GET /api/v1/accounts/{id}/tokens", () => {
  it("lists the associated tokens with the balances the scenario left, by token ID", async () => {
    for (const name of ["alice", "bob", "dave", "erin", "frank"]) {
      const body = await get(`/api/v1/accounts/${acct(name)}/tokens`);
      const expected = Object.entries(ledger.tokens)
        .filter(([, t]) => (t as { balances: Record<string, string> }).balances[acct(name)] !== undefined)
        .map(([handle, t]) => ({
          token_id: token(handle),
          balance: Number((t as { balances: Record<string, string> }).balances[acct(name)]),
          decimals: (t as { decimals: number }).decimals,
        }))
        .sort((a, b) => byId(a.token_id, b.token_id));
      const got = (body.tokens as Array<{ token_id: string; balance: number; decimals: number }>).map(
        ({ token_id, balance, decimals }) => ({ token_id, balance, decimals }),
      );
      expect(got, name).toEqual(expected);
    }
  });

  it("shows association details: automatic, created time, freeze and KYC status", async () => {
    const frank = (await get(`/api/v1/accounts/${acct("frank")}/tokens`)).tokens as Array<
      Record<string, unknown>
    >;
    expect(frank).toEqual([
      {
        automatic_association: true,
        balance: 100,
        created_timestamp: stepTime(ledger, "airdrop-1"),
        decimals: 2,
        freeze_status: "NOT_APPLICABLE",
        kyc_status: "NOT_APPLICABLE",
        token_id: token("GOLD"),
      },
    ]);
    // erin associated by claiming: not automatic, from the claim's time.
    const erin = (await get(`/api/v1/accounts/${acct("erin")}/tokens`)).tokens as Array<
      Record<string, unknown>
    >;
    expect(erin.map((t) => [t.token_id, t.automatic_association, t.created_timestamp])).toEqual([
      [token("GOLD"), false, stepTime(ledger, "erin-claims")],
      [token("ART"), false, stepTime(ledger, "erin-claims")],
    ]);
    // SILVER has freeze and KYC keys: dave was never granted KYC; alice is its treasury.
    const dave = (await get(`/api/v1/accounts/${acct("dave")}/tokens?token.id=${token("SILVER")}`)).tokens;
    expect(dave).toMatchObject([
      { freeze_status: "UNFROZEN", kyc_status: "REVOKED", token_id: token("SILVER") },
    ]);
    const alice = (await get(`/api/v1/accounts/${acct("alice")}/tokens?token.id=${token("SILVER")}`)).tokens;
    expect(alice).toMatchObject([{ freeze_status: "UNFROZEN", kyc_status: "GRANTED" }]);
  });

  it("drops a dissociated token", async () => {
    const dave = (await get(`/api/v1/accounts/${acct("dave")}/tokens`)).tokens as Array<{ token_id: string }>;
    expect(dave.map((t) => t.token_id)).toEqual([token("SILVER"), token("PIX")]);
  });

  it("filters on token.id (equalities as one IN list, ranges ANDed) and pages on it", async () => {
    const alice = acct("alice");
    const ids = (body: Page) => (body.tokens as Array<{ token_id: string }>).map((t) => t.token_id);
    expect(
      ids(await get(`/api/v1/accounts/${alice}/tokens?token.id=${token("GOLD")}&token.id=${token("PIX")}`)),
    ).toEqual([token("GOLD"), token("PIX")]);
    expect(
      ids(
        await get(
          `/api/v1/accounts/${alice}/tokens?token.id=gt:${token("GOLD")}&token.id=lte:${token("ART")}`,
        ),
      ),
    ).toEqual([token("SILVER"), token("ART")]);
    expect(ids(await get(`/api/v1/accounts/${alice}/tokens?order=desc&limit=2`))).toEqual([
      token("PIX"),
      token("ART"),
    ]);

    const first = await get(`/api/v1/accounts/${alice}/tokens?limit=1`);
    expect(first.links.next).toBe(`/api/v1/accounts/${alice}/tokens?limit=1&token.id=gt:${token("GOLD")}`);
    const all = await pageThrough(`/api/v1/accounts/${alice}/tokens?limit=1`, "tokens");
    expect(all.items.map((t) => (t as { token_id: string }).token_id)).toEqual(
      ["GOLD", "SILVER", "ART", "PIX"].map(token),
    );
    // A full last page still links, to an empty page.
    expect(all.links).toHaveLength(4);
  });

  it("reads every spelling of the account: alias, EVM address", async () => {
    const keys = new KeyRing(SCENARIO);
    const evm = Buffer.from(keys.ecdsaKey("ivan").evmAddress).toString("hex");
    const direct = await get(`/api/v1/accounts/${acct("ivan")}/tokens`);
    expect(direct.tokens).toHaveLength(1);
    for (const spelling of [evm, `0x${evm}`, `0.0.${evm}`, "3008", "0.3008"]) {
      expect(await get(`/api/v1/accounts/${spelling}/tokens`), spelling).toEqual(direct);
    }
  });

  it("answers 404 for an account never indexed, before looking at the query; 400s in upstream's order", async () => {
    expect(await messages("/api/v1/accounts/0.0.99999/tokens?limit=0&foo=1", 404)).toEqual(["Not found"]);
    expect(await messages("/api/v1/accounts/0x00000000000000000000000000000000deadbeef/tokens", 404)).toEqual(
      ["Not found"],
    );
    expect(await messages("/api/v1/accounts/0.0.3001.5/tokens?foo=1")).toEqual([
      "Invalid parameter: idOrAliasOrEvmAddress",
    ]);
    expect(
      await messages(`/api/v1/accounts/${acct("alice")}/tokens?limit=0&order=up&foo=1&token.id=x`),
    ).toEqual([
      "Invalid parameter: limit",
      "Invalid parameter: order",
      "Invalid parameter: token.id",
      "Unknown query parameter: foo",
    ]);
    expect(await messages(`/api/v1/accounts/${acct("alice")}/tokens?token.id=ne:${token("GOLD")}`)).toEqual([
      "Not equal (ne) comparison operator is not supported for token.id",
    ]);
    const response = await service.get(`/api/v1/accounts/${acct("alice")}/tokens`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
  });

  it("lists nothing, not 404, for accounts the stream knows only from transfer lists", async () => {
    // Upstream's importer keeps a balance-only entity row for every account of an hbar transfer list
    // (SqlEntityListener.onCryptoTransfer), and isValidAccount asks only for a row: the node and fee accounts exist.
    for (const id of ["0.0.3", acct("0.0.98"), acct("0.0.800")]) {
      expect(await get(`/api/v1/accounts/${id}/tokens`), id).toEqual({ tokens: [], links: { next: null } });
    }
    // /accounts/{id} still does not show them: they are no ACCOUNT or CONTRACT there.
    expect(await messages("/api/v1/accounts/0.0.98", 404)).toEqual(["Not found"]);
  });
});

describe("GET /api/v1/accounts/{id}/nfts", () => {
  /** NFTs the scenario left with an owner, as `token:serial`, by token then serial descending. */
  const owned = (owner: string) =>
    Object.entries(ledger.tokens)
      .flatMap(([handle, t]) =>
        Object.entries(t.nfts ?? {})
          .filter(([, nft]) => nft.owner === owner)
          .map(([serial]) => ({ token: token(handle), serial: BigInt(serial) })),
      )
      .sort((a, b) => byId(b.token, a.token) || (b.serial > a.serial ? 1 : -1))
      .map((n) => `${n.token}:${n.serial}`);
  const keysOf = (items: unknown[]) =>
    (items as Array<{ token_id: string; serial_number: number }>).map(
      (n) => `${n.token_id}:${n.serial_number}`,
    );

  it("lists the NFTs each account owns, by token then serial (descending by default)", async () => {
    for (const name of ["alice", "bob", "carol", "dave", "erin"]) {
      const body = await get(`/api/v1/accounts/${acct(name)}/nfts`);
      expect(keysOf(body.nfts as unknown[]), name).toEqual(owned(acct(name)));
    }
    const asc = await get(`/api/v1/accounts/${acct("alice")}/nfts?order=asc`);
    expect(keysOf(asc.nfts as unknown[])).toEqual([...owned(acct("alice"))].reverse());
  });

  it("pages on token.id and serialnumber together, to the end", async () => {
    const alice = acct("alice");
    const first = await get(`/api/v1/accounts/${alice}/nfts?limit=2`);
    expect(first.links.next).toBe(
      `/api/v1/accounts/${alice}/nfts?limit=2&token.id=lte:${token("PIX")}&serialnumber=lt:3`,
    );
    for (const order of ["desc", "asc"]) {
      const all = await pageThrough(`/api/v1/accounts/${alice}/nfts?limit=2&order=${order}`, "nfts");
      const expected = owned(alice);
      expect(keysOf(all.items)).toEqual(order === "asc" ? [...expected].reverse() : expected);
    }
    const asc = await get(`/api/v1/accounts/${alice}/nfts?limit=2&order=asc`);
    expect(asc.links.next).toBe(
      `/api/v1/accounts/${alice}/nfts?limit=2&order=asc&token.id=gte:${token("ART")}&serialnumber=gt:3`,
    );
  });

  it("filters on token.id, serialnumber (bounds paired with the token) and spender.id", async () => {
    const alice = acct("alice");
    const art = token("ART");
    const list = async (query: string) =>
      keysOf((await get(`/api/v1/accounts/${alice}/nfts?${query}`)).nfts as []);
    expect(await list(`token.id=${art}`)).toEqual([`${art}:8`, `${art}:4`, `${art}:3`, `${art}:2`]);
    expect(await list(`token.id=${art}&serialnumber=gt:2&serialnumber=lt:8`)).toEqual([
      `${art}:4`,
      `${art}:3`,
    ]);
    expect(await list(`token.id=${art}&serialnumber=3`)).toEqual([`${art}:3`]);
    // From ART serial 4 on, across tokens: ART 4, 8, then every PIX.
    expect(await list(`order=asc&token.id=gte:${art}&serialnumber=gte:4`)).toEqual([
      `${art}:4`,
      `${art}:8`,
      `${token("PIX")}:3`,
      `${token("PIX")}:4`,
    ]);
    expect(await list(`spender.id=${acct("bob")}`)).toEqual([`${art}:2`]);
    expect(await list(`spender.id=gt:${acct("bob")}`)).toEqual([]);
    expect(await list("spender.id=0x00000000000000000000000000000000deadbeef")).toEqual([]);
    // Both keys equalities: a single NFT, and no link even on a full page.
    const one = await get(`/api/v1/accounts/${alice}/nfts?token.id=${art}&serialnumber=2&limit=1`);
    expect(one.links.next).toBeNull();
  });

  it("answers an empty page for an account never seen, and upstream's messages for bad bounds", async () => {
    expect(await get("/api/v1/accounts/0.0.99999/nfts")).toEqual({ nfts: [], links: { next: null } });
    const alice = acct("alice");
    const art = token("ART");
    const cases: Array<[string, string[]]> = [
      ["serialnumber=2", ["serialnumber without a token.id parameter filter"]],
      [`token.id=gt:${art}&serialnumber=gt:2`, ["token.id must have gte or eq operator"]],
      [`token.id=lt:${art}&serialnumber=lt:2`, ["token.id must have lte or eq operator"]],
      [`token.id=${art}&token.id=${art}`, ["Only one equal (eq) operator is allowed for token.id"]],
      [`token.id=gt:1&token.id=gte:2`, ["Only one gt/gte operator is allowed for token.id"]],
      [`token.id=${art}&serialnumber=ne:2`, ["Not equal (ne) operator is not supported for serialnumber"]],
      [`token.id=${art}&token.id=gt:1`, ["Can't support both range and equal for token.id"]],
      ["spender.id=gt:1&spender.id=gte:2", ["Multiple range params not allowed for spender.id"]],
      ["spender.id=ne:1", ["Not equals (ne) comparison operator is not supported"]],
      [
        "token.id=x&serialnumber=0&spender.id=y&order=z&limit=0",
        [
          "Invalid parameter: token.id",
          "Invalid parameter: serialnumber",
          "Invalid parameter: spender.id",
          "Invalid parameter: order",
          "Invalid parameter: limit",
        ],
      ],
    ];
    for (const [query, expected] of cases) {
      expect(await messages(`/api/v1/accounts/${alice}/nfts?${query}`), query).toEqual(expected);
    }
    // The path first: an alias naming nobody is a 404 before the query's 400.
    expect(await messages("/api/v1/accounts/AABBCCDD/nfts?limit=0", 404)).toEqual([
      "No account with a matching alias found",
    ]);
  });
});

describe("GET /api/v1/accounts/{id}/rewards", () => {
  const reward = (name: string, amount: number, label: string) => ({
    account_id: acct(name),
    amount,
    timestamp: stepTime(ledger, label),
  });

  it("lists every staking reward paid to the account, newest first, failed transactions included", async () => {
    expect((await get(`/api/v1/accounts/${acct("grace")}/rewards`)).rewards).toEqual([
      reward("grace", 1100000, "reward-failed"),
      reward("grace", 1200000, "reward-4"),
      reward("grace", 1300000, "reward-3"),
      reward("grace", 1400000, "reward-2"),
      reward("grace", 1500000, "reward-1"),
    ]);
    expect((await get(`/api/v1/accounts/${acct("bob")}/rewards?order=asc`)).rewards).toEqual([
      reward("bob", 2500000, "reward-1"),
      reward("bob", 900000, "reward-4"),
    ]);
    expect(await get(`/api/v1/accounts/${acct("erin")}/rewards`)).toEqual({
      rewards: [],
      links: { next: null },
    });
    const response = await service.get(`/api/v1/accounts/${acct("grace")}/rewards`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("filters on timestamp and pages on it", async () => {
    const grace = acct("grace");
    const first = await get(`/api/v1/accounts/${grace}/rewards?limit=2`);
    expect(first.links.next).toBe(
      `/api/v1/accounts/${grace}/rewards?limit=2&timestamp=lt:${stepTime(ledger, "reward-4")}`,
    );
    const all = await pageThrough(`/api/v1/accounts/${grace}/rewards?limit=2`, "rewards");
    expect(all.items).toHaveLength(5);
    const two = await get(
      `/api/v1/accounts/${grace}/rewards?timestamp=${stepTime(ledger, "reward-1")}&timestamp=eq:${stepTime(ledger, "reward-3")}`,
    );
    expect(two.rewards).toEqual([reward("grace", 1300000, "reward-3"), reward("grace", 1500000, "reward-1")]);
    const range = await get(
      `/api/v1/accounts/${grace}/rewards?timestamp=gt:${stepTime(ledger, "reward-1")}&timestamp=lte:${stepTime(ledger, "reward-3")}`,
    );
    expect(range.rewards).toEqual([
      reward("grace", 1300000, "reward-3"),
      reward("grace", 1400000, "reward-2"),
    ]);
    expect((await get(`/api/v1/accounts/${grace}/rewards?timestamp=9999999999.999999999`)).rewards).toEqual(
      [],
    );
  });

  it("answers 404 for an account never indexed, and 400 for ne", async () => {
    expect(await messages("/api/v1/accounts/0.0.99999/rewards?timestamp=ne:1", 404)).toEqual(["Not found"]);
    // The fee collector is known from transfer lists only: it exists for upstream (an empty list, then the 400).
    expect(await get("/api/v1/accounts/0.0.98/rewards")).toEqual({ rewards: [], links: { next: null } });
    expect(await messages("/api/v1/accounts/0.0.98/rewards?timestamp=ne:1")).toEqual([
      "Not equals (ne) operator is not supported for timestamp",
    ]);
    expect(await messages(`/api/v1/accounts/${acct("grace")}/rewards?timestamp=ne:1`)).toEqual([
      "Not equals (ne) operator is not supported for timestamp",
    ]);
    expect(await messages(`/api/v1/accounts/${acct("grace")}/rewards?timestamp=1.2.3&spender.id=1`)).toEqual([
      "Invalid parameter: timestamp",
      "Unknown query parameter: spender.id",
    ]);
  });
});

describe("GET /api/v1/accounts/{id}/allowances/crypto", () => {
  const left = (owner: string) =>
    ledger.allowances
      .filter((a) => a.owner === owner && a.token === null)
      .map((a) => ({ spender: a.spender, amount: Number(a.amount) }))
      .sort((a, b) => byId(b.spender, a.spender));

  it("lists the hbar allowances with an amount left, by spender descending, as the simulator left them", async () => {
    for (const name of ["alice", "ivan", "bob"]) {
      const body = await get(`/api/v1/accounts/${acct(name)}/allowances/crypto`);
      const allowances = body.allowances as Array<{ spender: string; amount: number; owner: string }>;
      expect(
        allowances.map(({ spender, amount }) => ({ spender, amount })),
        name,
      ).toEqual(left(acct(name)));
      for (const a of allowances) expect(a.owner).toBe(acct(name));
    }
  });

  it("shows what is left after approved transfers next to what was granted, and when", async () => {
    const bob = (await get(`/api/v1/accounts/${acct("alice")}/allowances/crypto?spender.id=${acct("bob")}`))
      .allowances;
    expect(bob).toEqual([
      {
        amount: 2500000000,
        amount_granted: 5000000000,
        owner: acct("alice"),
        spender: acct("bob"),
        timestamp: { from: stepTime(ledger, "hbar-grant"), to: null },
      },
    ]);
    // carol's second grant was spent to 0 and dave's revoked: neither is listed.
    const spent = await get(
      `/api/v1/accounts/${acct("alice")}/allowances/crypto?spender.id=${acct("carol")}&spender.id=${acct("dave")}`,
    );
    expect(spent.allowances).toEqual([]);
  });

  it("filters on spender.id and pages on it, to the end", async () => {
    const alice = acct("alice");
    const first = await get(`/api/v1/accounts/${alice}/allowances/crypto?limit=2`);
    expect(first.links.next).toBe(
      `/api/v1/accounts/${alice}/allowances/crypto?limit=2&spender.id=lt:${acct("s3")}`,
    );
    const all = await pageThrough(`/api/v1/accounts/${alice}/allowances/crypto?limit=2`, "allowances");
    expect(all.items.map((a) => (a as { spender: string }).spender)).toEqual(
      left(alice).map((a) => a.spender),
    );
    const range = await get(
      `/api/v1/accounts/${alice}/allowances/crypto?spender.id=gte:${acct("s2")}&spender.id=lt:${acct("s4")}&order=asc`,
    );
    expect((range.allowances as Array<{ spender: string }>).map((a) => a.spender)).toEqual([
      acct("s2"),
      acct("s3"),
    ]);
  });

  it("reads the account in any spelling and answers upstream's errors", async () => {
    const keys = new KeyRing(SCENARIO);
    const evm = Buffer.from(keys.ecdsaKey("ivan").evmAddress).toString("hex");
    expect(await get(`/api/v1/accounts/0x${evm}/allowances/crypto`)).toEqual(
      await get(`/api/v1/accounts/${acct("ivan")}/allowances/crypto`),
    );
    expect(await get("/api/v1/accounts/0.0.99999/allowances/crypto")).toEqual({
      allowances: [],
      links: { next: null },
    });
    expect(await messages(`/api/v1/accounts/${acct("alice")}/allowances/crypto?spender.id=ne:1`)).toEqual([
      "Not equal (ne) comparison operator is not supported for spender.id",
    ]);
    expect(await messages(`/api/v1/accounts/${acct("alice")}/allowances/crypto?token.id=1`)).toEqual([
      "Unknown query parameter: token.id",
    ]);
  });
});

describe("GET /api/v1/accounts/{id}/allowances/tokens", () => {
  const left = (owner: string) =>
    ledger.allowances
      .filter((a) => a.owner === owner && a.token !== null)
      .map((a) => ({ spender: a.spender, token_id: a.token!, amount: Number(a.amount) }))
      .sort((a, b) => byId(a.spender, b.spender) || byId(a.token_id, b.token_id));

  it("lists the token allowances with an amount left, by spender then token", async () => {
    for (const name of ["alice", "bob"]) {
      const body = await get(`/api/v1/accounts/${acct(name)}/allowances/tokens`);
      const got = (body.allowances as Array<{ spender: string; token_id: string; amount: number }>).map(
        ({ spender, token_id, amount }) => ({ spender, token_id, amount }),
      );
      expect(got, name).toEqual(left(acct(name)));
    }
    const bob = await get(
      `/api/v1/accounts/${acct("alice")}/allowances/tokens?spender.id=${acct("bob")}&token.id=${token("GOLD")}`,
    );
    expect(bob.allowances).toEqual([
      {
        amount: 600,
        amount_granted: 1000,
        owner: acct("alice"),
        spender: acct("bob"),
        timestamp: { from: stepTime(ledger, "token-grant"), to: null },
        token_id: token("GOLD"),
      },
    ]);
  });

  it("pages on spender.id and token.id together, to the end", async () => {
    const alice = acct("alice");
    const first = await get(`/api/v1/accounts/${alice}/allowances/tokens?limit=1`);
    expect(first.links.next).toBe(
      `/api/v1/accounts/${alice}/allowances/tokens?limit=1&spender.id=gte:${acct("bob")}&token.id=gt:${token("GOLD")}`,
    );
    for (const order of ["asc", "desc"]) {
      const all = await pageThrough(
        `/api/v1/accounts/${alice}/allowances/tokens?limit=1&order=${order}`,
        "allowances",
      );
      const expected = left(alice).map((a) => `${a.spender}/${a.token_id}`);
      expect(
        all.items.map((a) => `${(a as { spender: string }).spender}/${(a as { token_id: string }).token_id}`),
      ).toEqual(order === "asc" ? expected : [...expected].reverse());
    }
  });

  it("answers upstream's messages for bad bounds", async () => {
    const alice = acct("alice");
    expect(await messages(`/api/v1/accounts/${alice}/allowances/tokens?token.id=${token("GOLD")}`)).toEqual([
      "token.id without a spender.id parameter filter",
    ]);
    expect(
      await messages(
        `/api/v1/accounts/${alice}/allowances/tokens?spender.id=gt:${acct("bob")}&token.id=gt:1`,
      ),
    ).toEqual(["spender.id must have gte or eq operator"]);
    expect(await messages(`/api/v1/accounts/${alice}/allowances/tokens?spender.id=ne:1`)).toEqual([
      "Not equal (ne) operator is not supported for spender.id",
    ]);
  });
});

/**
 * The account lists of the Java service on the account-relations scenario, through the real service:
 * `/accounts/{id}/allowances/nfts` and `/airdrops/outstanding`, `/airdrops/pending`. Expected values come from
 * the scenario (`expected.json`, step times), answers are checked against the OpenAPI document, lists are paged
 * to their end, and the Java service's errors (conversions, constraints, bounds, 404) are asked for.
 */
import { describe, expect, it } from "vitest";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { type ExpectedLedger, stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

type Ledger = ExpectedLedger & {
  pendingAirdrops: Array<{
    sender: string;
    receiver: string;
    token: string;
    serial: string | null;
    amount: string | null;
  }>;
};
type Page = { links: { next: string | null } } & Record<string, unknown>;
type Airdrop = {
  amount: number | null;
  receiver_id: string;
  sender_id: string;
  serial_number: number | null;
  timestamp: { from: string; to: string | null };
  token_id: string;
};

const SCENARIO = "account-relations";
const scenario = useScenario(SCENARIO);
const ledger = scenario.ledger as Ledger;
const acct = (name: string) => ledger.accounts[name]!.id;
const token = (handle: string) => ledger.tokens[handle]!.id;
const num = (id: string) => BigInt(id.split(".")[2]!);
const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

async function get(path: string, status = 200): Promise<Page> {
  const response = await scenario.service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  if (status === 200) {
    expect(response.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    const next = (response.body as Page).links.next;
    expect(response.headers.get("link")).toBe(next === null ? null : `<${next}>; rel="next"`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
  }
  return response.body as Page;
}

/** The `detail` of a Java error answer (its message is the reason phrase). */
async function detail(path: string, status = 400): Promise<string | undefined> {
  const body = (await get(path, status)) as unknown as {
    _status: { messages: Array<{ message: string; detail?: string }> };
  };
  expect(body._status.messages).toHaveLength(1);
  expect(body._status.messages[0]!.message).toBe(status === 400 ? "Bad Request" : "Not Found");
  return body._status.messages[0]!.detail;
}

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

describe("GET /api/v1/accounts/{id}/allowances/nfts", () => {
  const forAll = stepTime(ledger, "nft-for-all");
  const allowance = (owner: string, spender: string, handle: string, from = forAll) => ({
    approved_for_all: true,
    owner: acct(owner),
    spender: acct(spender),
    timestamp: { from, to: null },
    token_id: token(handle),
  });

  it("lists the approved-for-all allowances an account granted, or (owner=false) was granted", async () => {
    expect((await get(`/api/v1/accounts/${acct("alice")}/allowances/nfts`)).allowances).toEqual([
      allowance("alice", "bob", "ART"),
      allowance("alice", "bob", "PIX"),
      // carol's PIX allowance was revoked (approved_for_all false): not listed.
      allowance("alice", "carol", "ART"),
    ]);
    const granted = (await get(`/api/v1/accounts/${acct("bob")}/allowances/nfts?owner=false`))
      .allowances as Array<{
      owner: string;
      token_id: string;
    }>;
    expect(granted.map((a) => `${a.owner}/${a.token_id}`)).toEqual([
      `${acct("alice")}/${token("ART")}`,
      `${acct("alice")}/${token("PIX")}`,
      `${acct("dave")}/${token("PIX")}`,
    ]);
    expect((await get(`/api/v1/accounts/${acct("bob")}/allowances/nfts`)).allowances).toEqual([]);
    const descending = await get(`/api/v1/accounts/${acct("alice")}/allowances/nfts?order=DESC`);
    expect((descending.allowances as Array<{ spender: string }>).map((a) => a.spender)).toEqual([
      acct("carol"),
      acct("bob"),
      acct("bob"),
    ]);
  });

  it("pages on account.id and token.id, to the end", async () => {
    const alice = acct("alice");
    const first = await get(`/api/v1/accounts/${alice}/allowances/nfts?limit=1`);
    expect(first.links.next).toBe(
      `/api/v1/accounts/${alice}/allowances/nfts?limit=1&account.id=gte:${acct("bob")}&token.id=gt:${token("ART")}`,
    );
    const all = await pageThrough(`/api/v1/accounts/${alice}/allowances/nfts?limit=1`, "allowances");
    expect(all.items).toHaveLength(3);
    const down = await pageThrough(
      `/api/v1/accounts/${alice}/allowances/nfts?limit=2&order=desc&foo=bar`,
      "allowances",
    );
    expect(down.items).toHaveLength(3);
    // Parameters the endpoint does not know are kept in its links.
    expect(down.links[0]).toBe(
      `/api/v1/accounts/${alice}/allowances/nfts?limit=2&order=desc&foo=bar&account.id=lte:${acct("bob")}&token.id=lt:${token("PIX")}`,
    );
  });

  it("filters on account.id and token.id", async () => {
    const alice = acct("alice");
    const spenders = async (query: string) =>
      (
        (await get(`/api/v1/accounts/${alice}/allowances/nfts?${query}`)).allowances as Array<{
          spender: string;
          token_id: string;
        }>
      ).map((a) => `${a.spender}/${a.token_id}`);
    expect(await spenders(`account.id=${acct("carol")}`)).toEqual([`${acct("carol")}/${token("ART")}`]);
    expect(await spenders(`account.id=${acct("bob")}&token.id=gt:${token("ART")}`)).toEqual([
      `${acct("bob")}/${token("PIX")}`,
    ]);
    expect(await spenders(`account.id=gte:${acct("bob")}&token.id=gt:${token("ART")}`)).toEqual([
      `${acct("bob")}/${token("PIX")}`,
      `${acct("carol")}/${token("ART")}`,
    ]);
    expect(await spenders(`account.id=gt:${acct("carol")}`)).toEqual([]);
  });

  it("answers the Java service's errors in its order", async () => {
    const alice = acct("alice");
    const cases: Array<[string, string, number?]> = [
      ["/api/v1/accounts/abc/allowances/nfts?limit=0", "Failed to convert 'id'"],
      ["/api/v1/accounts/0.65536.1/allowances/nfts", "Failed to convert 'id'"],
      [`/api/v1/accounts/${alice}/allowances/nfts?account.id=x&limit=0`, "Failed to convert 'account.id'"],
      [`/api/v1/accounts/${alice}/allowances/nfts?limit=a`, "Failed to convert 'limit'"],
      [`/api/v1/accounts/${alice}/allowances/nfts?order=ascending`, "Failed to convert 'order'"],
      [`/api/v1/accounts/${alice}/allowances/nfts?owner=maybe`, "Failed to convert 'owner'"],
      [`/api/v1/accounts/${alice}/allowances/nfts?limit=0`, "limit must be greater than 0"],
      [`/api/v1/accounts/${alice}/allowances/nfts?limit=101`, "limit must be less than or equal to 100"],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=1&account.id=2&account.id=3&limit=0`,
        "account.id size must be between 0 and 2",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=gt:5&account.id=lt:5`,
        "Invalid range provided for account.id",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?token.id=1`,
        "token.id parameter must have account.id present",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=ne:1`,
        "Unsupported range operator ne for account.id",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=1&account.id=2`,
        "Only one range operator from [eq] is allowed for the given parameter for account.id",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=1&account.id=gt:0`,
        "Can't support both range and equal for account.id",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=gt:1&token.id=lt:5`,
        "Requires the presence of an lte or eq account.id parameter",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=lt:9&token.id=gte:5`,
        "Requires the presence of an gte or eq account.id parameter",
      ],
      [
        `/api/v1/accounts/${alice}/allowances/nfts?account.id=1&token.id=gt:9&token.id=lt:5`,
        "Invalid range provided for token.id",
      ],
      [
        "/api/v1/accounts/0x00000000000000000000000000000000deadbeef/allowances/nfts",
        "No account found for the given ID",
        404,
      ],
      [
        "/api/v1/accounts/0x0000000000000000000000000000000000000bb9/allowances/nfts",
        "No account found for the given ID",
        404,
      ],
      [`/api/v1/accounts/${"A".repeat(40)}/allowances/nfts`, "No account found for the given ID", 404],
    ];
    for (const [path, expected, status] of cases) expect(await detail(path, status), path).toBe(expected);
  });

  it("reads the account as an ID (never looked up), an EVM address or an alias", async () => {
    expect(await get("/api/v1/accounts/0.0.99999/allowances/nfts")).toEqual({
      allowances: [],
      links: { next: null },
    });
    const keys = new KeyRing(SCENARIO);
    const evm = Buffer.from(keys.ecdsaKey("ivan").evmAddress).toString("hex");
    for (const spelling of [evm, `0x${evm}`, `0.0.${evm}`]) {
      expect(await get(`/api/v1/accounts/${spelling}/allowances/nfts?owner=no`), spelling).toEqual({
        allowances: [],
        links: { next: null },
      });
    }
    expect(await get(`/api/v1/accounts/0.3001/allowances/nfts`)).toEqual(
      await get(`/api/v1/accounts/3001/allowances/nfts`),
    );
  });
});

describe("GET /api/v1/accounts/{id}/airdrops/pending and /outstanding", () => {
  /** The simulator's pending airdrops as the API shows them, minus the time. */
  const expected = (who: "sender" | "receiver", id: string) =>
    ledger.pendingAirdrops
      .filter((p) => p[who] === id)
      .sort(
        (a, b) =>
          cmp(num(who === "sender" ? a.receiver : a.sender), num(who === "sender" ? b.receiver : b.sender)) ||
          cmp(num(a.token), num(b.token)) ||
          cmp(BigInt(a.serial ?? 0), BigInt(b.serial ?? 0)),
      )
      .map((p) => ({
        amount: p.amount === null ? null : Number(p.amount),
        receiver_id: p.receiver,
        sender_id: p.sender,
        serial_number: p.serial === null ? null : Number(p.serial),
        token_id: p.token,
      }));
  const withoutTime = (items: unknown[]) => (items as Airdrop[]).map(({ timestamp: _t, ...rest }) => rest);

  it("lists the airdrops still pending: received (pending) and sent (outstanding), as the simulator left them", async () => {
    for (const name of ["alice", "bob", "erin", "grace", "ivan"]) {
      const pending = await get(`/api/v1/accounts/${acct(name)}/airdrops/pending`);
      expect(withoutTime(pending.airdrops as unknown[]), `${name} pending`).toEqual(
        expected("receiver", acct(name)),
      );
      const outstanding = await get(`/api/v1/accounts/${acct(name)}/airdrops/outstanding`);
      expect(withoutTime(outstanding.airdrops as unknown[]), `${name} outstanding`).toEqual(
        expected("sender", acct(name)),
      );
    }
  });

  it("dates each pending airdrop from the airdrop that made it", async () => {
    const grace = (await get(`/api/v1/accounts/${acct("grace")}/airdrops/pending`)).airdrops as Airdrop[];
    expect(grace[0]).toEqual({
      amount: null,
      receiver_id: acct("grace"),
      sender_id: acct("alice"),
      serial_number: 8,
      timestamp: { from: stepTime(ledger, "airdrop-3"), to: null },
      token_id: token("ART"),
    });
    const erin = (await get(`/api/v1/accounts/${acct("erin")}/airdrops/pending?sender.id=${acct("bob")}`))
      .airdrops as Airdrop[];
    expect(erin).toEqual([
      {
        amount: 25,
        receiver_id: acct("erin"),
        sender_id: acct("bob"),
        serial_number: null,
        timestamp: { from: stepTime(ledger, "airdrop-from-bob"), to: null },
        token_id: token("SILVER"),
      },
    ]);
  });

  it("pages on the other account, the token and (for NFTs) the serial number, to the end", async () => {
    const alice = acct("alice");
    const first = await get(`/api/v1/accounts/${alice}/airdrops/outstanding?limit=1`);
    // The last item is an NFT: the link pages on the serial too.
    expect(first.links.next).toBe(
      `/api/v1/accounts/${alice}/airdrops/outstanding?limit=1&receiver.id=gte:${acct("erin")}&token.id=gte:${token("PIX")}&serialnumber=gt:3`,
    );
    const all = await pageThrough(`/api/v1/accounts/${alice}/airdrops/outstanding?limit=1`, "airdrops");
    expect(withoutTime(all.items)).toEqual(expected("sender", alice));
    const grace = acct("grace");
    const firstPending = await get(`/api/v1/accounts/${grace}/airdrops/pending?limit=1&order=desc`);
    // The last item is fungible: the link pages on the token.
    expect(firstPending.links.next).toBe(
      `/api/v1/accounts/${grace}/airdrops/pending?limit=1&order=desc&sender.id=lte:${acct("ivan")}&token.id=lt:${token("GOLD")}`,
    );
    const down = await pageThrough(
      `/api/v1/accounts/${grace}/airdrops/pending?limit=1&order=desc`,
      "airdrops",
    );
    expect(withoutTime(down.items)).toEqual([...expected("receiver", grace)].reverse());
  });

  it("filters on the other account, the token and the serial number", async () => {
    const alice = acct("alice");
    const count = async (query: string) =>
      ((await get(`/api/v1/accounts/${alice}/airdrops/outstanding?${query}`)).airdrops as unknown[]).length;
    expect(await count(`receiver.id=${acct("erin")}`)).toBe(1);
    expect(await count(`receiver.id=gte:${acct("erin")}&receiver.id=lt:${acct("grace")}`)).toBe(1);
    expect(await count(`token.id=${token("ART")}`)).toBe(1);
    expect(await count(`token.id=gt:${token("ART")}`)).toBe(1);
    expect(await count(`receiver.id=${acct("grace")}&token.id=${token("ART")}&serialnumber=8`)).toBe(1);
    expect(await count(`receiver.id=${acct("grace")}&token.id=${token("ART")}&serialnumber=7`)).toBe(0);
  });

  it("answers the Java service's errors", async () => {
    const erin = acct("erin");
    const cases: Array<[string, string, number?]> = [
      ["/api/v1/accounts/0.0.-1/airdrops/pending", "Failed to convert 'id'"],
      [`/api/v1/accounts/${erin}/airdrops/pending?limit=x&sender.id=y`, "Failed to convert 'limit'"],
      [`/api/v1/accounts/${erin}/airdrops/pending?sender.id=0.0.`, "Failed to convert 'sender.id'"],
      [`/api/v1/accounts/${erin}/airdrops/pending?serialnumber=-1`, "Failed to convert 'serialnumber'"],
      [`/api/v1/accounts/${erin}/airdrops/outstanding?token.id=a.b.c`, "Failed to convert 'token.id'"],
      [
        `/api/v1/accounts/${erin}/airdrops/outstanding?limit=101&receiver.id=1&receiver.id=2&receiver.id=3`,
        "limit must be less than or equal to 100",
      ],
      [
        `/api/v1/accounts/${erin}/airdrops/outstanding?receiver.id=1&receiver.id=2&receiver.id=3`,
        "receiver.id size must be between 0 and 2",
      ],
      [
        `/api/v1/accounts/${erin}/airdrops/outstanding?receiver.id=gt:5&receiver.id=lte:5`,
        "Invalid range provided for receiver.id",
      ],
      [
        "/api/v1/accounts/0.0.AABBCC22AABBCC22AABBCC22AABBCC22AABBCC22/airdrops/pending",
        "No account found for the given ID",
        404,
      ],
    ];
    for (const [path, expected, status] of cases) expect(await detail(path, status), path).toBe(expected);
    // The receiver filter means nothing on /pending: ignored, like any unknown parameter.
    expect(await get(`/api/v1/accounts/${erin}/airdrops/pending?receiver.id=abc`)).toEqual(
      await get(`/api/v1/accounts/${erin}/airdrops/pending`),
    );
  });
});

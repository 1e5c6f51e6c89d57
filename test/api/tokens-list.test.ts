import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

type TokenItem = {
  admin_key: { _type: string; key: string } | null;
  metadata: string;
  name: string;
  symbol: string;
  token_id: string;
  type: string;
  decimals: number;
};
type TokensBody = { tokens: TokenItem[]; links: { next: string | null } };

const SCENARIO = "tokens-group-nfts";
const scenario = useScenario(SCENARIO);

async function get<T>(path: string, status = 200): Promise<T> {
  const response = await scenario.service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  if (status === 200) {
    const next = (response.body as { links: { next: string | null } }).links.next;
    expect(response.headers.get("link")).toBe(next === null ? null : `<${next}>; rel="next"`);
  }
  return response.body as T;
}

async function errors(path: string): Promise<string[]> {
  const body = await get<{ _status: { messages: { message: string }[] } }>(path, 400);
  return body._status.messages.map((m) => m.message);
}

/** Follows `links.next` from `path` and returns every page's items. */
async function allPages(path: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let next: string | null = path;
  let pages = 0;
  while (next !== null) {
    const body: TokensBody = await get<TokensBody>(next);
    ids.push(...body.tokens.map((t) => t.token_id));
    next = body.links.next;
    pages++;
  }
  return { ids, pages };
}

const tokens = () => Object.values(scenario.ledger.tokens).sort((a, b) => num(a.id) - num(b.id));
const num = (id: string) => Number(id.split(".")[2]);
const account = (name: string) => scenario.ledger.accounts[name]!.id;
/** The raw public key inside a one-key protobuf `Key` hex (ED25519 `1220…`, ECDSA `3a21…`). */
const rawKey = (protobufHex: string) => protobufHex.slice(4);

describe("GET /api/v1/tokens", () => {
  it("lists every token in ascending id order, deleted ones included, in the mirror node's shape", async () => {
    const response = await scenario.service.get("/api/v1/tokens");
    expect(response.headers.get("cache-control")).toBe("public, max-age=10");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await get<TokensBody>("/api/v1/tokens");
    expect(body.tokens.map((t) => t.token_id)).toEqual(tokens().map((t) => t.id));
    expect(body.links.next).toBeNull();
    for (const item of body.tokens) {
      const token = tokens().find((t) => t.id === item.token_id)!;
      expect(Object.keys(item)).toEqual([
        "admin_key",
        "metadata",
        "name",
        "symbol",
        "token_id",
        "type",
        "decimals",
      ]);
      expect(item.name).toBe(token.name);
      expect(item.symbol).toBe(token.symbol);
      expect(item.type).toBe(token.type);
      expect(item.decimals).toBe(token.decimals);
      expect(item.metadata).toBe("");
      const admin = token.keys.admin;
      if (admin === undefined) expect(item.admin_key).toBeNull();
      else {
        expect(item.admin_key?.key).toBe(rawKey(admin));
        expect(item.admin_key?._type).toBe(admin.startsWith("3a21") ? "ECDSA_SECP256K1" : "ED25519");
      }
    }
    expect(scenario.ledger.tokens.GEMS!.deleted).toBe(true);
    expect(body.tokens.some((t) => t.token_id === scenario.ledger.tokens.GEMS!.id)).toBe(true);
    // decimals is a JSON number here (a string in token info).
    expect(response.text).toContain(`"decimals":${scenario.ledger.tokens.DROP!.decimals}}`);
  });

  it("pages with token.id=gt:<last> until a short page, and in descending order with lt:", async () => {
    const ids = tokens().map((t) => t.id);
    const first = await get<TokensBody>("/api/v1/tokens?limit=2");
    expect(first.links.next).toBe(`/api/v1/tokens?limit=2&token.id=gt:${ids[1]}`);
    const asc = await allPages("/api/v1/tokens?limit=2");
    expect(asc.ids).toEqual(ids);
    expect(asc.pages).toBe(Math.ceil(ids.length / 2) + (ids.length % 2 === 0 ? 1 : 0));
    const desc = await allPages("/api/v1/tokens?limit=2&order=desc");
    expect(desc.ids).toEqual([...ids].reverse());
    const capped = await get<TokensBody>("/api/v1/tokens?limit=1000");
    expect(capped.tokens).toHaveLength(ids.length);
  });

  it("keeps the other bound of a token.id range in the next link", async () => {
    const ids = tokens().map((t) => t.id);
    const path = `/api/v1/tokens?token.id=gte:${ids[0]}&token.id=lt:${ids[4]}&limit=2`;
    const body = await get<TokensBody>(path);
    expect(body.tokens.map((t) => t.token_id)).toEqual(ids.slice(0, 2));
    expect(body.links.next).toBe(`/api/v1/tokens?token.id=lt:${ids[4]}&token.id=gt:${ids[1]}&limit=2`);
    const rest = await allPages(path);
    expect(rest.ids).toEqual(ids.slice(0, 4));
    // A page that exhausts an lte bound links nowhere.
    const exhausted = await get<TokensBody>(`/api/v1/tokens?token.id=lte:${ids[1]}&limit=2`);
    expect(exhausted.tokens).toHaveLength(2);
    expect(exhausted.links.next).toBeNull();
  });

  it("reads token.id in every spelling, and equalities as one IN list", async () => {
    const drop = scenario.ledger.tokens.DROP!.id;
    const hex = num(drop).toString(16).padStart(40, "0");
    for (const spelling of [
      drop,
      drop.slice(2),
      String(num(drop)),
      hex,
      `0x${hex}`,
      `0.0.${hex}`,
      `eq:${drop}`,
    ]) {
      const body = await get<TokensBody>(`/api/v1/tokens?token.id=${spelling}`);
      expect(
        body.tokens.map((t) => t.token_id),
        spelling,
      ).toEqual([drop]);
    }
    const { MIST, GEMS, SHELLS } = scenario.ledger.tokens;
    const either = await get<TokensBody>(`/api/v1/tokens?token.id=${GEMS!.id}&token.id=${MIST!.id}`);
    expect(either.tokens.map((t) => t.token_id)).toEqual([MIST!.id, GEMS!.id]);
    const both = await get<TokensBody>(
      `/api/v1/tokens?token.id=${GEMS!.id}&token.id=${MIST!.id}&token.id=gt:${MIST!.id}&token.id=${SHELLS!.id}`,
    );
    expect(both.tokens.map((t) => t.token_id)).toEqual([GEMS!.id, SHELLS!.id]);
    const notOne = await get<TokensBody>(`/api/v1/tokens?token.id=ne:${MIST!.id}`);
    expect(notOne.tokens.map((t) => t.token_id)).not.toContain(MIST!.id);
    expect(notOne.tokens).toHaveLength(tokens().length - 1);
    const otherRealm = await get<TokensBody>(`/api/v1/tokens?token.id=0.1.${num(MIST!.id)}`);
    expect(otherRealm.tokens).toEqual([]);
  });

  it("filters by association with account.id (dissociated tokens excluded)", async () => {
    for (const name of ["h01", "h02", "h05", "owner"]) {
      const id = account(name);
      const associated = tokens()
        .filter((t) => id in t.balances)
        .map((t) => t.id);
      for (const spelling of [id, id.slice(2), String(num(id))]) {
        const body = await get<TokensBody>(`/api/v1/tokens?account.id=${spelling}`);
        expect(
          body.tokens.map((t) => t.token_id),
          `${name} as ${spelling}`,
        ).toEqual(associated);
      }
    }
    // h02 left the deleted GEMS collection: it is still associated with DROP only.
    expect(
      (await get<TokensBody>(`/api/v1/tokens?account.id=${account("h02")}`)).tokens.map((t) => t.token_id),
    ).toEqual([scenario.ledger.tokens.DROP!.id]);
    expect((await get<TokensBody>("/api/v1/tokens?account.id=0.0.999999")).tokens).toEqual([]);
    const evm = await get<TokensBody>("/api/v1/tokens?account.id=06bd279138d5918402fc8ad500526cb2ee0eb985");
    expect(evm.tokens).toEqual([]);
  });

  it("filters by the admin key's public key in its accepted forms", async () => {
    const ownerKey = rawKey(scenario.ledger.tokens.DROP!.keys.admin!);
    const ownerTokens = tokens()
      .filter((t) => t.keys.admin === scenario.ledger.tokens.DROP!.keys.admin)
      .map((t) => t.id);
    expect(ownerTokens.length).toBeGreaterThan(1);
    for (const spelling of [
      ownerKey,
      `0x${ownerKey}`,
      ownerKey.toUpperCase(),
      `302a300506032b6570032100${ownerKey}`,
    ]) {
      const body = await get<TokensBody>(`/api/v1/tokens?publickey=${spelling}`);
      expect(
        body.tokens.map((t) => t.token_id),
        spelling,
      ).toEqual(ownerTokens);
    }
    const ecdsa = rawKey(scenario.ledger.tokens.MIST!.keys.admin!);
    const mist = await get<TokensBody>(`/api/v1/tokens?publickey=${ecdsa}`);
    expect(mist.tokens.map((t) => t.token_id)).toEqual([scenario.ledger.tokens.MIST!.id]);
    expect(mist.tokens[0]!.admin_key).toEqual({ _type: "ECDSA_SECP256K1", key: ecdsa });
    const combined = await get<TokensBody>(
      `/api/v1/tokens?publickey=${ownerKey}&account.id=${account("h01")}&type=NON_FUNGIBLE_UNIQUE`,
    );
    expect(combined.tokens.map((t) => t.token_id)).toEqual([scenario.ledger.tokens.GEMS!.id]);
  });

  it("filters by type, case-insensitively; ALL means every type", async () => {
    const byType = (type: string) =>
      tokens()
        .filter((t) => t.type === type)
        .map((t) => t.id);
    for (const [query, expected] of [
      ["FUNGIBLE_COMMON", byType("FUNGIBLE_COMMON")],
      ["fungible_common", byType("FUNGIBLE_COMMON")],
      ["NON_FUNGIBLE_UNIQUE", byType("NON_FUNGIBLE_UNIQUE")],
      ["Non_Fungible_Unique", byType("NON_FUNGIBLE_UNIQUE")],
      ["ALL", tokens().map((t) => t.id)],
      ["all", tokens().map((t) => t.id)],
    ] as const) {
      const body = await get<TokensBody>(`/api/v1/tokens?type=${query}`);
      expect(
        body.tokens.map((t) => t.token_id),
        query,
      ).toEqual(expected);
    }
  });

  it("matches name as a case-insensitive substring (Unicode, % and _ wildcards), never linking onward", async () => {
    const ids = (body: TokensBody) => body.tokens.map((t) => t.token_id);
    const { MIST, BEANS, DROP } = scenario.ledger.tokens;
    expect(ids(await get<TokensBody>("/api/v1/tokens?name=mist"))).toEqual([MIST!.id]);
    expect(ids(await get<TokensBody>("/api/v1/tokens?name=eq:MORNING"))).toEqual([MIST!.id]);
    expect(ids(await get<TokensBody>(`/api/v1/tokens?name=${encodeURIComponent("çafé ℏ")}`))).toEqual([
      BEANS!.id,
    ]);
    expect(ids(await get<TokensBody>("/api/v1/tokens?name=ra_n"))).toEqual([DROP!.id]);
    expect(ids(await get<TokensBody>("/api/v1/tokens?name=ain%25rop"))).toEqual([DROP!.id]);
    // Several names are ANDed.
    expect(ids(await get<TokensBody>("/api/v1/tokens?name=ing&name=mist"))).toEqual([MIST!.id]);
    expect(ids(await get<TokensBody>("/api/v1/tokens?name=ing&name=drop"))).toEqual([]);
    const full = await get<TokensBody>("/api/v1/tokens?name=sea&limit=1");
    expect(full.tokens).toHaveLength(1);
    expect(full.links.next).toBeNull();
  });

  it("answers bad requests with the mirror node's messages, conflicts first", async () => {
    expect(await errors("/api/v1/tokens?name=gold&token.id=1")).toEqual([
      "token.id and name can not be used together. Use a more specific name instead.",
    ]);
    expect(await errors("/api/v1/tokens?name=gold&account.id=1&limit=0")).toEqual([
      "account.id and name cannot be used together",
    ]);
    expect(
      await errors(
        "/api/v1/tokens?token.id=abc&limit=0&order=up&type=coin&publickey=12&foo=1&token.id=0.0.0x000000000000000000000000000000000000046F",
      ),
    ).toEqual([
      "Invalid parameter: token.id",
      "Invalid parameter: token.id",
      "Invalid parameter: limit",
      "Invalid parameter: order",
      "Invalid parameter: type",
      "Invalid parameter: publickey",
      "Unknown query parameter: foo",
    ]);
    // name: 3 to 100 bytes, equality only.
    expect(await errors(`/api/v1/tokens?name=ab&name=ne:gold&name=${"x".repeat(101)}&limit=0`)).toEqual([
      "Invalid parameter: name",
      "Invalid parameter: name",
      "Invalid parameter: name",
      "Invalid parameter: limit",
    ]);
    expect(await errors("/api/v1/tokens?account.id=gt:0.0.3002")).toEqual(["Invalid parameter: account.id"]);
    expect(await errors("/api/v1/tokens?account.id=1&account.id=2")).toEqual([
      'Entity ID "1,2" is not a string',
    ]);
    expect(await errors("/api/v1/tokens?token.id=06bd279138d5918402fc8ad500526cb2ee0eb985")).toEqual([
      "Invalid parameter: token.id",
    ]);
    expect(await errors("/api/v1/tokens?token.id=1234567890123")).toEqual([
      'Invalid entity ID "0.0.1234567890123"',
    ]);
    expect(await errors("/api/v1/tokens?limit=")).toEqual(["Invalid parameter: limit"]);
  });
});

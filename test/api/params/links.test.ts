import { describe, expect, it } from "vitest";
import { parseBlocksRequest } from "../../../src/api/params/blocks.ts";
import { unwrapParams } from "../../../src/api/params/errors.ts";
import type { Order } from "../../../src/api/params/filters.ts";
import {
  type AnchorKey,
  buildNextLink,
  buildPairedNextLink,
  type NextLinkKey,
  nextLink,
} from "../../../src/api/params/links.ts";
import { parseQueryString, splitRequestUrl } from "../../../src/api/params/query.ts";
import { parseTokenBalancesRequest } from "../../../src/api/params/token-balances.ts";
import { parseNftTransactionsRequest, parseTokenNftsRequest } from "../../../src/api/params/token-nfts.ts";
import { parseTokensRequest } from "../../../src/api/params/tokens.ts";

const KEY = "2b60955bcbf0cf5e9ea880b52e5b63f664b08edf6ed15e301049517438d61864";

/** Builds the link for a full page of a request URL, going through the same query parsing routes use. */
function linkFor(url: string, anchor: AnchorKey, order: Order, lastValue: string): string | null {
  const { path, queryString } = splitRequestUrl(url);
  const parsed = parseQueryString(queryString);
  if (!parsed.ok) throw new Error(parsed.messages.join("; "));
  return buildNextLink({ path, query: parsed.query, anchor, order, lastValue });
}

describe("buildNextLink: upstream's examples", () => {
  it("appends the bound when the anchor is absent", () => {
    expect(linkFor("/api/v1/tokens?limit=3", "token.id", "asc", "0.0.25301")).toBe(
      "/api/v1/tokens?limit=3&token.id=gt:0.0.25301",
    );
    expect(linkFor("/api/v1/tokens?limit=5", "token.id", "asc", "0.23.45678")).toBe(
      "/api/v1/tokens?limit=5&token.id=gt:0.23.45678",
    );
  });

  it("replaces the same-direction bound of a repeated anchor in place, keeping the other one", () => {
    expect(
      linkFor(
        "/api/v1/tokens?token.id=gte:0.0.18&token.id=lt:0.0.50000&limit=2",
        "token.id",
        "asc",
        "0.0.25301",
      ),
    ).toBe("/api/v1/tokens?token.id=lt:0.0.50000&token.id=gt:0.0.25301&limit=2");
    const query = `account.id=2&token.id=gte:0.0.18&token.id=lt:0.0.50000&limit=2&publickey=${KEY}`;
    expect(linkFor(`/api/v1/tokens?${query}&order=desc`, "token.id", "desc", "0.0.25301")).toBe(
      `/api/v1/tokens?account.id=2&token.id=gte:0.0.18&token.id=lt:0.0.25301&limit=2&publickey=${KEY}&order=desc`,
    );
    expect(linkFor(`/api/v1/tokens?${query}&order=asc`, "token.id", "asc", "0.0.45678")).toBe(
      `/api/v1/tokens?account.id=2&token.id=lt:0.0.50000&token.id=gt:0.0.45678&limit=2&publickey=${KEY}&order=asc`,
    );
  });

  it("keeps EVM spellings of the other bound as written", () => {
    for (const lower of [
      "0000000000000000000000000000000000000012",
      "0x0000000000000000000000000000000000000012",
      "0.0.0000000000000000000000000000000000000012",
    ]) {
      const url = `/api/v1/tokens?account.id=2&token.id=gte:${lower}&token.id=lt:0.0.50000&limit=2&order=desc`;
      expect(linkFor(url, "token.id", "desc", "0.0.25301")).toBe(
        `/api/v1/tokens?account.id=2&token.id=gte:${lower}&token.id=lt:0.0.25301&limit=2&order=desc`,
      );
    }
  });

  it("returns null when the rewritten range is empty", () => {
    expect(
      linkFor("/api/v1/tokens/1500/nfts?limit=3&serialnumber=gt:2", "serialnumber", "desc", "3"),
    ).toBeNull();
    expect(
      linkFor("/api/v1/tokens?limit=3&token.id=lte:0.7.25301", "token.id", "asc", "0.7.25301"),
    ).toBeNull();
  });

  it("moves a single removed anchor to the end of the query", () => {
    expect(
      linkFor(
        "/api/v1/tokens/1500/nfts/2/transactions?timestamp=gte:1234567890.000000005&order=asc&limit=3",
        "timestamp",
        "asc",
        "1234567890.000000007",
      ),
    ).toBe("/api/v1/tokens/1500/nfts/2/transactions?order=asc&limit=3&timestamp=gt:1234567890.000000007");
    expect(
      linkFor(
        "/api/v1/blocks?block.number=gt:16&timestamp=lt:1676540001.234700000&order=asc&limit=1",
        "block.number",
        "asc",
        "17",
      ),
    ).toBe("/api/v1/blocks?timestamp=lt:1676540001.234700000&order=asc&limit=1&block.number=gt:17");
  });

  it("pages balances on account.id and keeps a hex token path as sent", () => {
    expect(
      linkFor(
        "/api/v1/tokens/0.20.1/balances?account.balance=gte:300&limit=2&order=asc",
        "account.id",
        "asc",
        "0.0.19",
      ),
    ).toBe("/api/v1/tokens/0.20.1/balances?account.balance=gte:300&limit=2&order=asc&account.id=gt:0.0.19");
    const hexPath = "/api/v1/tokens/0x00000000000000000000000000000000000005DC/nfts";
    expect(linkFor(`${hexPath}?limit=3`, "serialnumber", "desc", "3")).toBe(
      `${hexPath}?limit=3&serialnumber=lt:3`,
    );
  });
});

describe("buildNextLink: placement rules", () => {
  it("adds the bound to a single opposite-direction value, in place", () => {
    expect(linkFor("/api/v1/tokens?token.id=lt:0.0.50000&limit=2", "token.id", "asc", "0.0.7")).toBe(
      "/api/v1/tokens?token.id=lt:0.0.50000&token.id=gt:0.0.7&limit=2",
    );
  });

  it("adds no bound to a bare or eq: single value, so the link repeats the query", () => {
    expect(linkFor("/api/v1/tokens?token.id=0.0.5&limit=1", "token.id", "asc", "0.0.5")).toBe(
      "/api/v1/tokens?token.id=0.0.5&limit=1",
    );
    expect(linkFor("/api/v1/blocks?limit=1&block.number=eq:5", "block.number", "desc", "5")).toBe(
      "/api/v1/blocks?limit=1&block.number=eq:5",
    );
  });

  it("lets the first original value of a repeated anchor decide whether a bound is added", () => {
    expect(
      linkFor("/api/v1/tokens?token.id=0.0.5&token.id=gt:0.0.1&limit=1", "token.id", "asc", "0.0.5"),
    ).toBe("/api/v1/tokens?token.id=0.0.5&limit=1");
    expect(
      linkFor("/api/v1/tokens?token.id=gt:0.0.1&token.id=0.0.5&limit=1", "token.id", "asc", "0.0.5"),
    ).toBe("/api/v1/tokens?token.id=0.0.5&token.id=gt:0.0.5&limit=1");
  });

  it("keeps an emptied repeated anchor in place", () => {
    expect(
      linkFor("/api/v1/tokens?token.id=gt:0.0.1&token.id=gte:0.0.2&limit=2", "token.id", "asc", "0.0.9"),
    ).toBe("/api/v1/tokens?token.id=gt:0.0.9&limit=2");
    expect(
      linkFor("/api/v1/tokens?limit=2&token.id=gt:0.0.1&token.id=gte:0.0.2", "token.id", "asc", "0.0.9"),
    ).toBe("/api/v1/tokens?limit=2&token.id=gt:0.0.9");
  });

  it("drops same-direction values by substring, so lte: goes in descending order", () => {
    expect(linkFor("/api/v1/tokens/7/nfts?serialnumber=lte:10&limit=2", "serialnumber", "desc", "9")).toBe(
      "/api/v1/tokens/7/nfts?limit=2&serialnumber=lt:9",
    );
    expect(linkFor("/api/v1/tokens?token.id=junk:gt:5&limit=1", "token.id", "asc", "0.0.6")).toBe(
      "/api/v1/tokens?limit=1&token.id=gt:0.0.6",
    );
  });

  it("writes lower-cased names and decoded values, without percent-encoding, minus a trailing slash", () => {
    expect(
      linkFor("/api/v1/blocks/?LIMIT=1&Order=DESC&Timestamp=lt:%31%32", "block.number", "desc", "17"),
    ).toBe("/api/v1/blocks?limit=1&order=desc&timestamp=lt:12&block.number=lt:17");
  });

  it("checks the empty range on the anchor's own values only", () => {
    expect(
      linkFor(
        "/api/v1/tokens/1/nfts/2/transactions?timestamp=gt:1234567890.000000006&limit=1",
        "timestamp",
        "desc",
        "1234567890.000000007",
      ),
    ).toBeNull();
    expect(
      linkFor(
        "/api/v1/tokens/1/nfts/2/transactions?timestamp=gt:1234567890.000000006&limit=1",
        "timestamp",
        "desc",
        "1234567890.000000008",
      ),
    ).toBe(
      "/api/v1/tokens/1/nfts/2/transactions?timestamp=gt:1234567890.000000006&timestamp=lt:1234567890.000000008&limit=1",
    );
    expect(linkFor("/api/v1/blocks?block.number=gte:0x10&limit=1", "block.number", "desc", "17")).toBe(
      "/api/v1/blocks?block.number=gte:0x10&block.number=lt:17&limit=1",
    );
    expect(linkFor("/api/v1/blocks?block.number=gte:0x10&limit=1", "block.number", "desc", "16")).toBeNull();
  });
});

describe("nextLink with the routes' paging contexts", () => {
  it("links only a full page", () => {
    const { paging } = unwrapParams(parseTokensRequest("/api/v1/tokens?limit=2"));
    expect(nextLink(paging, 1, "0.0.5")).toBeNull();
    expect(nextLink(paging, 0, undefined)).toBeNull();
    expect(nextLink(paging, 2, "0.0.5")).toBe("/api/v1/tokens?limit=2&token.id=gt:0.0.5");
  });

  it("compares with the capped limit but writes the limit as sent", () => {
    const { paging } = unwrapParams(parseTokensRequest("/api/v1/tokens?limit=500"));
    expect(nextLink(paging, 100, "0.0.100")).toBe("/api/v1/tokens?limit=500&token.id=gt:0.0.100");
  });

  it("never links a name search", () => {
    const { paging } = unwrapParams(parseTokensRequest("/api/v1/tokens?name=mirror&limit=1"));
    expect(nextLink(paging, 1, "0.0.5")).toBeNull();
  });

  it("uses each route's anchor and default order", () => {
    const balances = unwrapParams(
      parseTokenBalancesRequest({ tokenId: "5" }, "/api/v1/tokens/5/balances/?limit=1"),
    );
    expect(nextLink(balances.paging, 1, "0.0.19")).toBe(
      "/api/v1/tokens/5/balances?limit=1&account.id=lt:0.0.19",
    );
    const nfts = unwrapParams(
      parseTokenNftsRequest({ tokenId: "5" }, "/api/v1/tokens/5/nfts?limit=1&order=asc"),
    );
    expect(nextLink(nfts.paging, 1, "4")).toBe("/api/v1/tokens/5/nfts?limit=1&order=asc&serialnumber=gt:4");
    const history = unwrapParams(
      parseNftTransactionsRequest(
        { tokenId: "5", serialNumber: "1" },
        "/api/v1/tokens/5/nfts/1/transactions?limit=1",
      ),
    );
    expect(nextLink(history.paging, 1, "1.000000002")).toBe(
      "/api/v1/tokens/5/nfts/1/transactions?limit=1&timestamp=lt:1.000000002",
    );
    const blocks = unwrapParams(parseBlocksRequest("/api/v1/blocks?timestamp=gt:1&limit=1"));
    expect(nextLink(blocks.paging, 1, "17")).toBe("/api/v1/blocks?timestamp=gt:1&limit=1&block.number=lt:17");
  });

  it("compares entity IDs in the configured shard and realm", () => {
    const { paging } = unwrapParams(
      parseTokensRequest("/api/v1/tokens?token.id=lte:7.9&limit=1", { shard: 1n, realm: 2n }),
    );
    expect(nextLink(paging, 1, "1.7.9")).toBeNull();
    expect(nextLink(paging, 1, "1.7.8")).toBe("/api/v1/tokens?token.id=lte:7.9&token.id=gt:1.7.8&limit=1");
  });
});

describe("buildPairedNextLink: two-key lists (/accounts/{id}/nfts, /allowances/tokens)", () => {
  function pairedLink(url: string, order: Order, keys: NextLinkKey[]): string | null {
    const { path, queryString } = splitRequestUrl(url);
    const parsed = parseQueryString(queryString);
    if (!parsed.ok) throw new Error(parsed.messages.join("; "));
    return buildPairedNextLink({ path, query: parsed.query, order, keys });
  }
  const nftKeys = (token: string, serial: string): NextLinkKey[] => [
    { anchor: "token.id", lastValue: token, inclusive: true },
    { anchor: "serialnumber", lastValue: serial },
  ];

  it("bounds the primary inclusively and the secondary exclusively, after the query", () => {
    expect(pairedLink("/api/v1/accounts/0.0.1001/nfts?limit=2", "desc", nftKeys("0.0.1500", "3"))).toBe(
      "/api/v1/accounts/0.0.1001/nfts?limit=2&token.id=lte:0.0.1500&serialnumber=lt:3",
    );
    expect(
      pairedLink("/api/v1/accounts/0.0.1001/allowances/tokens?limit=1", "asc", [
        { anchor: "spender.id", lastValue: "0.0.3002", inclusive: true },
        { anchor: "token.id", lastValue: "0.0.3013" },
      ]),
    ).toBe(
      "/api/v1/accounts/0.0.1001/allowances/tokens?limit=1&spender.id=gte:0.0.3002&token.id=gt:0.0.3013",
    );
  });

  it("replaces bounds in the paging direction, and keeps the other direction's beside the new one", () => {
    expect(
      pairedLink(
        "/api/v1/accounts/0.0.1001/nfts?token.id=gte:0.0.1000&serialnumber=lte:9&limit=2",
        "desc",
        nftKeys("0.0.1500", "3"),
      ),
    ).toBe(
      "/api/v1/accounts/0.0.1001/nfts?token.id=gte:0.0.1000&token.id=lte:0.0.1500&limit=2&serialnumber=lt:3",
    );
  });

  it("has no next page when the primary's rewritten range is empty", () => {
    expect(
      pairedLink(
        "/api/v1/accounts/0.0.1001/nfts?token.id=gt:0.0.1500&limit=2",
        "desc",
        nftKeys("0.0.1500", "3"),
      ),
    ).toBeNull();
  });
});

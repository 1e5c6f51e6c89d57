/**
 * `javaSortedNextLink` (upstream `LinkFactoryImpl` with a sort and an extractor) on the links upstream's own
 * tests expect (`TokenAirdropsControllerTest`), called as the airdrop and NFT allowance routes call it.
 */
import { describe, expect, it } from "vitest";
import { javaSortedNextLink } from "../../../src/api/java/links.ts";
import type { Order } from "../../../src/api/java/params.ts";
import { parseJavaQuery } from "../../../src/api/java/query.ts";

const PATH = "/api/v1/accounts/1000/airdrops/outstanding";

/** The link after an outstanding airdrop to `receiver` of `token` (`serial` 0: fungible). */
function airdropLink(
  query: string,
  order: Order,
  receiver: string,
  token: string,
  serial = 0,
): string | null {
  const sort = serial === 0 ? ["receiver.id", "token.id"] : ["receiver.id", "token.id", "serialnumber"];
  return javaSortedNextLink(PATH, parseJavaQuery(`?${query}`), order, sort, {
    "receiver.id": receiver,
    "sender.id": "0.0.1000",
    serialnumber: serial === 0 ? "0L" : String(serial),
    "token.id": token,
  });
}

describe("javaSortedNextLink: upstream's airdrop links", () => {
  it("descending, fungible: the primary's value kept as sent, then its inclusive bound, then the token's", () => {
    const query = "limit=1&receiver.id=gte:2000&order=desc";
    expect(airdropLink(query, "desc", "0.0.2000", "0.0.301")).toBe(
      `${PATH}?limit=1&receiver.id=gte:2000&receiver.id=lte:0.0.2000&order=desc&token.id=lt:0.0.301`,
    );
    // Following it: the previous bounds in the paging direction are replaced.
    const next = "limit=1&receiver.id=gte:2000&receiver.id=lte:0.0.2000&order=desc&token.id=lt:0.0.301";
    expect(airdropLink(next, "desc", "0.0.2000", "0.0.300")).toBe(
      `${PATH}?limit=1&receiver.id=gte:2000&receiver.id=lte:0.0.2000&order=desc&token.id=lt:0.0.300`,
    );
  });

  it("descending, NFTs: the token's bound is inclusive and the serial's exclusive", () => {
    expect(airdropLink("limit=1&receiver.id=gte:2000&order=desc", "desc", "0.0.2000", "0.0.301", 30)).toBe(
      `${PATH}?limit=1&receiver.id=gte:2000&receiver.id=lte:0.0.2000&order=desc&token.id=lte:0.0.301&serialnumber=lt:30`,
    );
  });

  it("ascending: bounds in the paging direction are dropped, whichever keys the request bounded", () => {
    const expected = `${PATH}?limit=1&receiver.id=gte:0.0.3&token.id=gt:0.0.5`;
    expect(airdropLink("limit=1", "asc", "0.0.3", "0.0.5")).toBe(expected);
    expect(
      airdropLink("limit=1&receiver.id=gt:2&token.id=gte:4&serialnumber=gt:0", "asc", "0.0.3", "0.0.5"),
    ).toBe(expected);
    expect(airdropLink("limit=1&token.id=gt:4", "asc", "0.0.3", "0.0.5")).toBe(expected);
    expect(airdropLink("limit=1", "asc", "0.0.3", "0.0.5", 1)).toBe(
      `${PATH}?limit=1&receiver.id=gte:0.0.3&token.id=gte:0.0.5&serialnumber=gt:1`,
    );
  });

  it("keeps an equality on a key instead of bounding it, and the next key's bound turns exclusive", () => {
    expect(airdropLink("receiver.id=0.0.3&limit=1", "asc", "0.0.3", "0.0.5")).toBe(
      `${PATH}?receiver.id=0.0.3&limit=1&token.id=gt:0.0.5`,
    );
  });

  it("keeps unknown parameters and bounds against the paging direction, and has no link past an empty range", () => {
    expect(airdropLink("foo=bar&receiver.id=lt:9&limit=1", "asc", "0.0.3", "0.0.5")).toBe(
      `${PATH}?foo=bar&receiver.id=lt:9&receiver.id=gte:0.0.3&limit=1&token.id=gt:0.0.5`,
    );
    expect(airdropLink("receiver.id=lt:3&limit=1", "asc", "4", "0.0.5")).toBeNull();
  });
});

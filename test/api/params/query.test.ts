import { describe, expect, it } from "vitest";
import { type ParsedQuery, parseQueryString, splitRequestUrl } from "../../../src/api/params/query.ts";

function parsed(queryString: string): ParsedQuery {
  const result = parseQueryString(queryString);
  if (!result.ok) throw new Error(result.messages.join("; "));
  return result.query;
}

function asObject(query: ParsedQuery) {
  return Object.fromEntries(
    [...query].map(([name, entry]) => [name, entry.repeated ? entry.values : entry.values[0]]),
  );
}

describe("parseQueryString", () => {
  it("lower-cases names, and the values of order and result only", () => {
    expect(asObject(parsed("Account.PublicKey=ABCD&ORDER=DESC&Result=SUCCESS&Type=ALL"))).toEqual({
      "account.publickey": "ABCD",
      order: "desc",
      result: "success",
      type: "ALL",
    });
  });

  it("collects repeats in request order and keeps names in first-appearance order", () => {
    const query = parsed("timestamp=gt:1&limit=2&timestamp=lt:9");
    expect([...query.keys()]).toEqual(["timestamp", "limit"]);
    expect(query.get("timestamp")).toEqual({ values: ["gt:1", "lt:9"], repeated: true });
    expect(query.get("limit")).toEqual({ values: ["2"], repeated: false });
  });

  it("merges casings per spelling, the way the lower-casing pass sees qs's output", () => {
    expect(parsed("a=1&A=2&a=3").get("a")).toEqual({ values: ["1", "3", "2"], repeated: true });
  });

  it("counts empty parts as values of the empty name, so 101 of them hit the array limit", () => {
    expect(parseQueryString(`limit=1${"&".repeat(100)}`).ok).toBe(true);
    expect(parseQueryString(`limit=1${"&".repeat(101)}`)).toEqual({
      ok: false,
      messages: ["Array limit exceeded. Only 100 elements allowed in an array."],
    });
  });

  it("ignores empty parts and empty names, keeps empty values", () => {
    expect(asObject(parsed("&&account.balance=gt:3&&=x&limit=&order"))).toEqual({
      "account.balance": "gt:3",
      limit: "",
      order: "",
    });
    expect(parsed("").size).toBe(0);
  });

  it("decodes percent escapes and plus signs, and leaves malformed escapes alone", () => {
    expect(asObject(parsed("name=%E2%84%8F+bar&%61ccount.id=0.0.%32&memo=50%zz+x"))).toEqual({
      name: "ℏ bar",
      "account.id": "0.0.2",
      memo: "50%zz x",
    });
  });

  it("allows 100 values per spelled name and fails on the 101st", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `timestamp=${i}`).join("&");
    expect(parsed(hundred).get("timestamp")?.values).toHaveLength(100);
    expect(parseQueryString(`${hundred}&timestamp=100`)).toEqual({
      ok: false,
      messages: ["Array limit exceeded. Only 100 elements allowed in an array."],
    });
    // spellings count separately here; the merged list is checked later by the filter validator
    expect(parsed(`${hundred}&TIMESTAMP=100`).get("timestamp")?.values).toHaveLength(101);
    expect(parseQueryString("a=1&a=2&a=3", 2)).toEqual({
      ok: false,
      messages: ["Array limit exceeded. Only 2 elements allowed in an array."],
    });
  });

  it("fails past 1000 parts, empty ones included", () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join("&");
    expect(parseQueryString(thousand).ok).toBe(true);
    expect(parseQueryString(`${thousand}&`)).toEqual({
      ok: false,
      messages: ["Parameter limit exceeded. Only 1000 parameters allowed."],
    });
    expect(parseQueryString("&".repeat(1000))).toEqual({
      ok: false,
      messages: ["Parameter limit exceeded. Only 1000 parameters allowed."],
    });
  });

  it("drops Object.prototype names and __proto__, and puts index-like names first", () => {
    expect([...parsed("toString=1&constructor=2&__PROTO__=3&ToString=4").keys()]).toEqual(["tostring"]);
    expect([...parsed("b=1&10=2&a=3&2=4").keys()]).toEqual(["2", "10", "b", "a"]);
  });

  it("approximates qs's bracket syntax", () => {
    expect(parsed("timestamp[]=1").get("timestamp")).toEqual({ values: ["1"], repeated: true });
    expect(parsed("timestamp%5B0%5D=1&timestamp=2").get("timestamp")).toEqual({
      values: ["1", "2"],
      repeated: true,
    });
    expect(parsed("timestamp[gte]=1").get("timestamp")).toEqual({
      values: [{ kind: "object" }],
      repeated: false,
    });
    expect(parseQueryString("a[b][c]=1")).toEqual({
      ok: false,
      messages: ["Input depth exceeded depth option of 1 and strictDepth is true"],
    });
    expect(parsed("timestamp=1&timestamp[x]=2").get("timestamp")).toEqual({
      values: ["1", { kind: "object" }],
      repeated: true,
    });
    expect(parsed("[]=1&[]=2&[k]=3").get("1")).toEqual({ values: ["2"], repeated: false });
    expect(parseQueryString("a[100]=1")).toEqual({
      ok: false,
      messages: ["Array limit exceeded. Only 100 elements allowed in an array."],
    });
  });
});

describe("splitRequestUrl", () => {
  it("separates the path as sent from the raw query", () => {
    expect(
      splitRequestUrl("/api/v1/tokens/0x00000000000000000000000000000000000005DC/nfts?limit=2&a=%20"),
    ).toEqual({
      path: "/api/v1/tokens/0x00000000000000000000000000000000000005DC/nfts",
      queryString: "limit=2&a=%20",
    });
    expect(splitRequestUrl("/api/v1/blocks/")).toEqual({ path: "/api/v1/blocks/", queryString: "" });
    expect(splitRequestUrl("/api/v1/blocks?limit=1?x#frag")).toEqual({
      path: "/api/v1/blocks",
      queryString: "limit=1?x",
    });
    expect(splitRequestUrl("?order=asc")).toEqual({ path: "", queryString: "order=asc" });
  });
});

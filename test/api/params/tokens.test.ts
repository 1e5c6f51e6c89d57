import { describe, expect, it } from "vitest";
import { encodeEntityId } from "../../../src/api/params/entity-id.ts";
import type { ParamResult } from "../../../src/api/params/errors.ts";
import { ParameterError, unwrapParams } from "../../../src/api/params/errors.ts";
import { parseTokenInfoRequest, parseTokensRequest } from "../../../src/api/params/tokens.ts";

const ED_KEY = "5c1dd3a55e7c39f7d4a1a1e0c1bd0a4a0f2b3c4d5e6f708192a3b4c5d6e7f809";
const LONG_ZERO_18 = "0000000000000000000000000000000000000012";
const OPAQUE = "71e8a3f0c5d2b4a69788e1f2a3b4c5d6e7f80912";

function messages<T>(result: ParamResult<T>): readonly string[] {
  return result.ok ? [] : result.messages;
}

const invalid = (name: string) => `Invalid parameter: ${name}`;
const unknown = (name: string) => `Unknown query parameter: ${name}`;

describe("GET /api/v1/tokens", () => {
  it("lists bad values in query order, then unknown names", () => {
    for (const tokenId of ["xyz", `0.0.0x${LONG_ZERO_18}`, OPAQUE]) {
      const url = `/api/v1/tokens?account.id=lte:0.4.5.6&token.id=${tokenId}&limit=-7&publickey=-7&order=sideways&block.number=9`;
      expect(messages(parseTokensRequest(url))).toEqual([
        invalid("account.id"),
        invalid("token.id"),
        invalid("limit"),
        invalid("publickey"),
        invalid("order"),
        unknown("block.number"),
      ]);
    }
  });

  it("accepts name only with eq and between 3 and 100 bytes", () => {
    const tooLong = "x".repeat(101);
    for (const name of [tooLong, "xy", "ne:abc", "lt:abc", "lte:abc", "gt:abc", "gte:abc"]) {
      expect(messages(parseTokensRequest(`/api/v1/tokens?limit=0&order=up&name=${name}&slot=1`))).toEqual([
        invalid("limit"),
        invalid("order"),
        invalid("name"),
        unknown("slot"),
      ]);
    }
    // ℏ is one character but three UTF-8 bytes; percent-encoded it arrives decoded
    const hbar = unwrapParams(parseTokensRequest("/api/v1/tokens?name=%E2%84%8F&name=eq:abc"));
    expect(hbar.names).toEqual(["ℏ", "abc"]);
    expect(hbar.paging).toBeNull();
    expect(messages(parseTokensRequest(`/api/v1/tokens?name=${"x".repeat(100)}`))).toEqual([]);
  });

  it("reports name conflicts before validating anything", () => {
    for (const value of ["gt:9", "gte:9", "lt:9", "lte:9", "eq:9", "9", "junk"]) {
      expect(messages(parseTokensRequest(`/api/v1/tokens?limit=-1&account.id=${value}&name=mirror`))).toEqual(
        ["account.id and name cannot be used together"],
      );
      expect(
        messages(parseTokensRequest(`/api/v1/tokens?token.id=${value}&account.id=2&name=mirror`)),
      ).toEqual(["token.id and name can not be used together. Use a more specific name instead."]);
    }
  });

  it("treats an empty name or an empty token.id as absent in the conflict check", () => {
    expect(messages(parseTokensRequest("/api/v1/tokens?name=&token.id=5"))).toEqual([invalid("name")]);
    expect(messages(parseTokensRequest("/api/v1/tokens?name=mirror&token.id="))).toEqual([
      invalid("token.id"),
    ]);
  });

  it("accepts only a single bare account.id", () => {
    for (const op of ["eq", "gt", "lt", "ne"]) {
      expect(messages(parseTokensRequest(`/api/v1/tokens?account.id=${op}:5`))).toEqual([
        invalid("account.id"),
      ]);
    }
    expect(messages(parseTokensRequest("/api/v1/tokens?account.id=2&account.id=0.0.3"))).toEqual([
      'Entity ID "2,0.0.3" is not a string',
    ]);
    for (const spelling of ["2", "0.2", "0.0.2", `0x${"0".repeat(39)}2`]) {
      expect(unwrapParams(parseTokensRequest(`/api/v1/tokens?account.id=${spelling}`)).accountId).toBe(2n);
    }
    expect(unwrapParams(parseTokensRequest(`/api/v1/tokens?account.id=${OPAQUE}`)).accountId).toBeNull();
    expect(unwrapParams(parseTokensRequest("/api/v1/tokens")).accountId).toBeUndefined();
  });

  it("reports an ID that passes the syntax check but not the bit limits alone, quoting the expanded ID", () => {
    expect(messages(parseTokensRequest("/api/v1/tokens?token.id=gt:1234567890123&limit=5"))).toEqual([
      'Invalid entity ID "0.0.1234567890123"',
    ]);
    expect(messages(parseTokensRequest("/api/v1/tokens?account.id=-42"))).toEqual([
      'Invalid entity ID "0.0.-42"',
    ]);
  });

  it("splits token.id into an IN list and range conditions and converts every filter", () => {
    const request = unwrapParams(
      parseTokensRequest(
        `/api/v1/tokens?token.id=0.0.7&token.id=gte:${LONG_ZERO_18}&token.id=eq:0.3.9&token.id=lt:0.0.50000` +
          `&publickey=0x${ED_KEY.toUpperCase()}&type=fungible_COMMON&type=ne:all&Limit=250&ORDER=DESC`,
      ),
    );
    expect(request.tokenIds).toEqual([7n, encodeEntityId(0n, 3n, 9n)]);
    expect(request.tokenIdRanges).toEqual([
      { op: "gte", value: 18n },
      { op: "lt", value: 50000n },
    ]);
    expect(request.publicKeys).toEqual([{ op: "eq", value: ED_KEY }]);
    expect(request.types).toEqual([{ op: "eq", value: "FUNGIBLE_COMMON" }]);
    expect(request.limit).toBe(100);
    expect(request.order).toBe("desc");
    expect(request.paging?.anchor).toBe("token.id");
  });

  it("defaults to 25 ascending; limit and order are last-wins and ignore their operator", () => {
    const defaults = unwrapParams(parseTokensRequest("/api/v1/tokens"));
    expect([defaults.limit, defaults.order]).toEqual([25, "asc"]);
    const repeated = unwrapParams(
      parseTokensRequest("/api/v1/tokens?limit=gt:5&limit=3&order=desc&order=ne:asc"),
    );
    expect([repeated.limit, repeated.order]).toEqual([3, "asc"]);
    expect(unwrapParams(parseTokensRequest("/api/v1/tokens?limit=9223372036854775807")).limit).toBe(100);
    expect(messages(parseTokensRequest("/api/v1/tokens?limit=9223372036854775808"))).toEqual([
      invalid("limit"),
    ]);
  });

  it("treats a value with extra colons as its last two pieces", () => {
    expect(unwrapParams(parseTokensRequest("/api/v1/tokens?token.id=junk:gt:5")).tokenIdRanges).toEqual([
      { op: "gt", value: 5n },
    ]);
    expect(messages(parseTokensRequest("/api/v1/tokens?token.id=gt:5:6"))).toEqual([invalid("token.id")]);
  });

  it("reports the merged-casing repeat count before other problems", () => {
    const sixty = (name: string) => Array.from({ length: 60 }, (_, i) => `${name}=${i + 1}`).join("&");
    expect(
      messages(parseTokensRequest(`/api/v1/tokens?limit=x&${sixty("token.id")}&${sixty("TOKEN.ID")}&foo=1`)),
    ).toEqual([
      "Parameter values count exceeds maximum number allowed: token.id count: 120 max: 100",
      invalid("limit"),
      unknown("foo"),
    ]);
  });

  it("reports a query string the parser rejects as its only message", () => {
    const many = Array.from({ length: 101 }, () => "limit=1").join("&");
    expect(messages(parseTokensRequest(`/api/v1/tokens?${many}`))).toEqual([
      "Array limit exceeded. Only 100 elements allowed in an array.",
    ]);
  });

  it("throws ParameterError with the messages through unwrapParams", () => {
    try {
      unwrapParams(parseTokensRequest("/api/v1/tokens?foo=1&foo=2"));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ParameterError);
      expect((error as ParameterError).status).toBe(400);
      expect((error as ParameterError).messages).toEqual([unknown("foo"), unknown("foo")]);
    }
  });
});

describe("GET /api/v1/tokens/{tokenId}", () => {
  it("checks the path before the query", () => {
    expect(messages(parseTokenInfoRequest({ tokenId: "abc" }, "/api/v1/tokens/abc?foo=1"))).toEqual([
      invalid("tokenid"),
    ]);
  });

  it("accepts timestamp with eq, lt and lte only, each bad value reported, then unknown names", () => {
    const url =
      "/api/v1/tokens/7?timestamp=-3&account.id=9&timestamp=gt:4&timestamp=gte:4&timestamp=ne:4&balance=1";
    expect(messages(parseTokenInfoRequest({ tokenId: "7" }, url))).toEqual([
      invalid("timestamp"),
      invalid("timestamp"),
      invalid("timestamp"),
      invalid("timestamp"),
      unknown("account.id"),
      unknown("balance"),
    ]);
    expect(messages(parseTokenInfoRequest({ tokenId: "7" }, "/api/v1/tokens/7?timestamp="))).toEqual([
      invalid("timestamp"),
    ]);
  });

  it("uses the last timestamp and reports eq as lte", () => {
    const pick = (query: string) =>
      unwrapParams(parseTokenInfoRequest({ tokenId: "0.0.7" }, `/x?${query}`)).timestamp;
    expect(pick("timestamp=lt:1234567899.999999000&timestamp=1234567899.999999001")).toEqual({
      op: "lte",
      value: 1_234_567_899_999_999_001n,
    });
    expect(pick("timestamp=1&timestamp=lt:2.5")).toEqual({ op: "lt", value: 2_500_000_000n });
    expect(pick("timestamp=lte:3")).toEqual({ op: "lte", value: 3_000_000_000n });
    expect(pick("")).toBeNull();
  });

  it("names the same token in every spelling", () => {
    const spellings = ["1135", "0.1135", "0.0.1135", "000000000000000000000000000000000000046F"];
    for (const tokenId of [
      ...spellings,
      "0x000000000000000000000000000000000000046F",
      `0.0.${spellings[3]}`,
    ]) {
      expect(unwrapParams(parseTokenInfoRequest({ tokenId }, "")).tokenId).toBe(1135n);
    }
  });
});

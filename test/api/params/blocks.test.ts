import { describe, expect, it } from "vitest";
import { parseBlockRequest, parseBlocksRequest } from "../../../src/api/params/blocks.ts";
import type { ParamResult } from "../../../src/api/params/errors.ts";
import { unwrapParams } from "../../../src/api/params/errors.ts";

const HASH =
  "67b077229142aacb6baf56f31093ebc1a01955da048811c9d26cf9ebb7a26627a241fb610b92936528bbd76b943200a8";

function messages<T>(result: ParamResult<T>): readonly string[] {
  return result.ok ? [] : result.messages;
}

describe("GET /api/v1/blocks", () => {
  it("reports bad values in query order, then unknown names", () => {
    const url = "/api/v1/blocks?block.number=gt:notanumber&timestamp=yesterday&order=any&limit=many&index=4";
    expect(messages(parseBlocksRequest(url))).toEqual([
      "Invalid parameter: block.number",
      "Invalid parameter: timestamp",
      "Invalid parameter: order",
      "Invalid parameter: limit",
      "Unknown query parameter: index",
    ]);
  });

  it("refuses ne on block.number but not on timestamp", () => {
    expect(messages(parseBlocksRequest("/api/v1/blocks?block.number=ne:5"))).toEqual([
      "Invalid parameter: block.number",
    ]);
    expect(unwrapParams(parseBlocksRequest("/api/v1/blocks?timestamp=ne:5")).timestamps).toEqual([
      { op: "ne", value: 5_000_000_000n },
    ]);
  });

  it("reads decimal and 0x block numbers, with parseInt's tolerance for trailing junk", () => {
    const request = unwrapParams(
      parseBlocksRequest(
        "/api/v1/blocks?block.number=gte:0&block.number=lt:0x1F&block.number=0x1g&block.number=lte:9223372036854775807",
      ),
    );
    expect(request.blockNumbers).toEqual([
      { op: "gte", value: 0n },
      { op: "lt", value: 31n },
      { op: "eq", value: 1n },
      { op: "lte", value: 9_223_372_036_854_775_807n },
    ]);
    for (const bad of ["0x", "0xg", "-1", "9223372036854775808", "0x8000000000000000", "1e3"]) {
      expect(messages(parseBlocksRequest(`/api/v1/blocks?block.number=${bad}`))).toEqual([
        "Invalid parameter: block.number",
      ]);
    }
  });

  it("sorts by the column of the first block filter, by consensus end otherwise; default desc, 25", () => {
    expect(unwrapParams(parseBlocksRequest("/api/v1/blocks?timestamp=gt:1&block.number=gt:2")).orderBy).toBe(
      "timestamp",
    );
    expect(unwrapParams(parseBlocksRequest("/api/v1/blocks?block.number=gt:2&timestamp=gt:1")).orderBy).toBe(
      "number",
    );
    const plain = unwrapParams(parseBlocksRequest("/api/v1/blocks"));
    expect([plain.orderBy, plain.order, plain.limit, plain.paging.anchor]).toEqual([
      "timestamp",
      "desc",
      25,
      "block.number",
    ]);
    const set = unwrapParams(parseBlocksRequest("/api/v1/blocks?order=ASC&limit=1&limit=200"));
    expect([set.order, set.limit]).toEqual(["asc", 100]);
  });
});

describe("GET /api/v1/blocks/{hashOrNumber}", () => {
  it("reports any query parameter before the path parameter", () => {
    expect(
      messages(parseBlockRequest({ hashOrNumber: "1test" }, "/api/v1/blocks/1test?block.number=3&limit=1")),
    ).toEqual(["Unknown query parameter: block.number", "Unknown query parameter: limit"]);
    expect(messages(parseBlockRequest({ hashOrNumber: "1test" }, "/api/v1/blocks/1test"))).toEqual([
      "Invalid parameter: hashOrNumber",
    ]);
  });

  it("returns a hash prefix or a number", () => {
    expect(unwrapParams(parseBlockRequest({ hashOrNumber: `0x${HASH.toUpperCase()}` }, ""))).toEqual({
      hashPrefix: HASH,
    });
    expect(unwrapParams(parseBlockRequest({ hashOrNumber: "9900000000000001" }, ""))).toEqual({
      number: 9_900_000_000_000_001n,
    });
  });
});

import { describe, expect, it } from "vitest";
import {
  JavaHttpError,
  javaErrorBody,
  javaMethodNotAllowed,
  parseJavaQuery,
  parseJavaTimestamp,
  readChoiceParam,
  readFirst,
  readOrderParam,
  readSingle,
  readTimestampBounds,
} from "../../../src/api/java/index.ts";
import { MAX_INT64 } from "../../../src/int64.ts";

/** The detail of the JavaHttpError `fn` throws. */
function detailOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof JavaHttpError) return error.messages[0]?.detail;
    throw error;
  }
  throw new Error("did not throw");
}

describe("parseJavaQuery (the servlet parameter map)", () => {
  it("keeps names exactly as sent, decodes values and keeps repeats in order", () => {
    const query = parseJavaQuery("/x?Limit=1&limit=2&limit=3&a+b=c%20d&flag&=x&bad=%zz");
    expect(query.get("limit")).toEqual(["2", "3"]);
    expect(query.get("Limit")).toEqual(["1"]);
    expect(query.get("a b")).toEqual(["c d"]);
    expect(query.get("flag")).toEqual([""]);
    expect(query.has("")).toBe(false);
    expect(query.has("bad")).toBe(false);
  });
});

describe("Java timestamps", () => {
  it("read the fraction as raw nanoseconds and refuse ne", () => {
    expect(parseJavaTimestamp("1.1")).toEqual({ operator: "eq", ns: 1_000_000_001n });
    expect(parseJavaTimestamp("GTE:5")).toEqual({ operator: "gte", ns: 5_000_000_000n });
    expect(parseJavaTimestamp("ne:1")).toBeNull();
    expect(parseJavaTimestamp("1.")).toBeNull();
    expect(parseJavaTimestamp("99999999999999999")).toBeNull(); // beyond int64 in ns
  });

  it("build bounds: eq is lte, last lower and last upper win, gt +1 ns, lt -1 ns", () => {
    const q = (s: string) => readTimestampBounds(parseJavaQuery(`?${s}`));
    expect(q("")).toEqual({ lowerNs: 0n, upperNs: MAX_INT64, hasUpper: false, hasLower: false });
    expect(q("timestamp=2")).toMatchObject({ lowerNs: 0n, upperNs: 2_000_000_000n, hasUpper: true });
    expect(q("timestamp=gt:1&timestamp=lt:2")).toMatchObject({
      lowerNs: 1_000_000_001n,
      upperNs: 1_999_999_999n,
    });
    expect(q("timestamp=lt:1&timestamp=eq:3")).toMatchObject({ upperNs: 3_000_000_000n });
    // A single value is split on commas, as Spring converts a string to an array.
    expect(q("timestamp=gte:1,lte:2")).toMatchObject({ lowerNs: 1_000_000_000n, upperNs: 2_000_000_000n });
    // Blank values mean no filter.
    expect(q("timestamp=")).toMatchObject({ hasUpper: false, hasLower: false });
  });

  it("answer upstream's details: conversion first, then the count, then (opt-in) the range", () => {
    const q = (s: string, reject = false) =>
      detailOf(() => readTimestampBounds(parseJavaQuery(`?${s}`), { rejectInvertedRange: reject }));
    expect(q("timestamp=test&timestamp=%3cscript%3e")).toBe("Failed to convert 'timestamp'");
    expect(q("timestamp=ne:1")).toBe("Failed to convert 'timestamp'");
    expect(q("timestamp=1&timestamp=lt:2&timestamp=gt:0")).toBe("timestamp size must be between 0 and 2");
    expect(q("timestamp=x&timestamp=lt:2&timestamp=gt:0")).toBe("Failed to convert 'timestamp'");
    expect(q("timestamp=gt:2&timestamp=lt:1", true)).toBe("Invalid range provided for timestamp");
    expect(readTimestampBounds(parseJavaQuery("?timestamp=gt:2&timestamp=lt:1")).lowerNs).toBe(
      2_000_000_001n,
    );
  });
});

describe("single-valued parameters", () => {
  it("request-object fields refuse repeats unless the first value is blank", () => {
    expect(readSingle(parseJavaQuery("?limit=5"), "limit")).toBe("5");
    expect(readSingle(parseJavaQuery("?limit="), "limit")).toBeUndefined();
    expect(readSingle(parseJavaQuery("?limit=&limit=3"), "limit")).toBeUndefined();
    expect(detailOf(() => readSingle(parseJavaQuery("?limit=1&limit=2"), "limit"))).toBe(
      "Only a single instance is supported for limit",
    );
  });

  it("plain request parameters take the first value", () => {
    expect(readFirst(parseJavaQuery("?order=desc&order=x"), "order")).toBe("desc");
    expect(readOrderParam(parseJavaQuery("?order=DESC"))).toBe("desc");
    expect(readOrderParam(parseJavaQuery("?order="))).toBe("asc");
    expect(detailOf(() => readOrderParam(parseJavaQuery("?order=up")))).toBe("Failed to convert 'order'");
    expect(readChoiceParam(parseJavaQuery("?q=TotalCoins"), "q", ["totalcoins", "circulating"])).toBe(
      "totalcoins",
    );
    expect(detailOf(() => readChoiceParam(parseJavaQuery("?q=x"), "q", ["totalcoins"]))).toBe(
      "Failed to convert 'q'",
    );
  });
});

describe("Java error bodies", () => {
  it("carry the reason phrase and the detail", () => {
    const error = javaMethodNotAllowed("POST", ["GET"]);
    expect(error.status).toBe(405);
    expect(javaErrorBody(error.messages)).toBe(
      '{"_status":{"messages":[{"message":"Method Not Allowed","detail":"Request method \'POST\' is not supported"}]}}',
    );
    expect(error.headers).toEqual({ Allow: "GET" });
    expect(javaMethodNotAllowed("PUT", ["GET", "HEAD"]).headers).toEqual({ Allow: "GET,HEAD" });
  });
});

import { describe, expect, it } from "vitest";
import {
  JavaHttpError,
  javaNextLink,
  parseEntityIdRange,
  parseJavaQuery,
  readNetworkNodesRequest,
} from "../../../src/api/java/index.ts";

function messagesOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    if (error instanceof JavaHttpError) return error.messages;
    throw error;
  }
  throw new Error("did not throw");
}

describe("parseEntityIdRange (upstream EntityIdRangeParameter)", () => {
  it("reads num, realm.num and shard.realm.num with an optional operator", () => {
    expect(parseEntityIdRange("5")).toEqual({ operator: "eq", id: 5n });
    expect(parseEntityIdRange("GTE:0.0.5")).toEqual({ operator: "gte", id: 5n });
    expect(parseEntityIdRange("ne:1.7")).toEqual({ operator: "ne", id: (1n << 38n) | 7n });
    expect(parseEntityIdRange("+5")).toEqual({ operator: "eq", id: 5n });
    expect(parseEntityIdRange(" ")).toBe("blank");
  });

  it("refuses what Java refuses", () => {
    for (const bad of [
      "-1",
      "gt:-1",
      "x",
      "gt:",
      ":5",
      "eq:1:2",
      "0..5",
      "1.2.3.4",
      "0.0.274877906944",
      "le:5",
    ]) {
      expect(parseEntityIdRange(bad), bad).toBeNull();
    }
  });
});

describe("readNetworkNodesRequest", () => {
  const read = (query: string) => readNetworkNodesRequest(parseJavaQuery(`?${query}`));

  it("defaults to 0.0.102, limit 10, asc, every node id", () => {
    expect(read("")).toEqual({
      fileId: 102n,
      lowerNodeId: 0n,
      upperNodeId: 9223372036854775807n,
      nodeIds: null,
      nothing: false,
      limit: 10,
      order: "asc",
    });
    expect(read("limit=&order=&file.id=")).toMatchObject({ fileId: 102n, limit: 10, order: "asc" });
  });

  it("narrows ranges to the tightest bounds and keeps the eq ids inside them", () => {
    expect(read("node.id=gt:1&node.id=gte:3&node.id=lt:9&node.id=lte:7&node.id=ne:4")).toMatchObject({
      lowerNodeId: 3n,
      upperNodeId: 7n,
      nodeIds: null,
    });
    expect(read("node.id=2&node.id=5&node.id=lte:4")).toMatchObject({ nodeIds: [2n], nothing: false });
    expect(read("node.id=5&node.id=lte:4")).toMatchObject({ nodeIds: [], nothing: true });
    expect(read("limit=26").limit).toBe(25);
  });

  it("checks repeats first, then every field, then the operators and the range", () => {
    expect(messagesOf(() => read("limit=x&order=a&order=b"))).toEqual([
      { message: "Bad Request", detail: "Only a single instance is supported for order" },
    ]);
    expect(messagesOf(() => read("order=x&limit=x"))).toEqual([
      { message: "Invalid parameter: limit" },
      { message: "Invalid parameter: order" },
    ]);
    expect(messagesOf(() => read("file.id=lt:102&node.id=gt:5&node.id=lt:5"))).toEqual([
      { message: "Bad Request", detail: "Only equality operator is supported for file.id" },
    ]);
    expect(messagesOf(() => read("node.id=gt:5&node.id=lt:5"))).toEqual([
      { message: "Bad Request", detail: "Invalid range provided for node.id" },
    ]);
  });
});

describe("javaNextLink", () => {
  const link = (query: string, order: "asc" | "desc", last: string) =>
    javaNextLink("/api/v1/network/nodes", parseJavaQuery(`?${query}`), "node.id", order, last);

  it("replaces the anchor's values in the paging direction and keeps everything else in place", () => {
    expect(link("limit=2", "asc", "1")).toBe("/api/v1/network/nodes?limit=2&node.id=gt:1");
    expect(link("node.id=GTE:0&limit=2&x=y", "asc", "1")).toBe(
      "/api/v1/network/nodes?limit=2&x=y&node.id=gt:1",
    );
    expect(link("node.id=lt:9&limit=2", "asc", "3")).toBe(
      "/api/v1/network/nodes?node.id=lt:9&node.id=gt:3&limit=2",
    );
    expect(link("order=desc&node.id=lte:9", "desc", "5")).toBe(
      "/api/v1/network/nodes?order=desc&node.id=lt:5",
    );
  });

  it("adds no bound next to an equality, and no link for an empty range", () => {
    expect(link("node.id=3&limit=1", "asc", "3")).toBe("/api/v1/network/nodes?node.id=3&limit=1");
    expect(link("node.id=lte:4&limit=1", "asc", "4")).toBeNull();
    expect(link("node.id=lt:5&limit=1", "asc", "4")).toBeNull();
    expect(link("node.id=lt:5&limit=1", "asc", "3")).toBe(
      "/api/v1/network/nodes?node.id=lt:5&node.id=gt:3&limit=1",
    );
  });

  it("percent-encodes what a query may not hold and drops control characters", () => {
    expect(link("a=b%20c&d=%01&limit=1", "asc", "1")).toBe(
      "/api/v1/network/nodes?a=b%20c&limit=1&node.id=gt:1",
    );
  });
});

import { describe, expect, it } from "vitest";
import { isJavaTopicPath, parseJavaEntityIdNum } from "../../../src/api/java/entity-id-param.ts";
import { parsePackedOrDottedEntityId } from "../../../src/api/params/entity-id.ts";
import { buildNextLink } from "../../../src/api/params/links.ts";
import {
  parseTopicMessageByTimestampRequest,
  parseTopicMessageRequest,
  parseTopicMessagesRequest,
} from "../../../src/api/params/topics.ts";
import { encodeEntityId } from "../../../src/ids.ts";

describe("topic IDs of the Node routes (upstream EntityId.parse)", () => {
  it("completes dotted IDs with the configured shard and realm", () => {
    expect(parsePackedOrDottedEntityId("0.0.1005")).toBe(1005n);
    expect(parsePackedOrDottedEntityId("2.1005")).toBe(encodeEntityId(0n, 2n, 1005n));
    expect(parsePackedOrDottedEntityId("2.1005", { shard: 3n })).toBe(encodeEntityId(3n, 2n, 1005n));
    expect(parsePackedOrDottedEntityId("1023.65535.274877906943")).toBe(-1n);
  });

  it("reads a bare number as the packed ID, negative ones too", () => {
    expect(parsePackedOrDottedEntityId("1005")).toBe(1005n);
    expect(parsePackedOrDottedEntityId("274877906944")).toBe(encodeEntityId(0n, 1n, 0n));
    expect(parsePackedOrDottedEntityId("-1")).toBe(-1n);
    expect(parsePackedOrDottedEntityId("9223372036854775807")).toBe(9223372036854775807n);
  });

  it("names no ID past a part's bits or int64", () => {
    for (const id of [
      "0.0.274877906944",
      "0.65536.1",
      "1024.0.1",
      "9223372036854775808",
      "-9223372036854775809",
    ]) {
      expect(parsePackedOrDottedEntityId(id), id).toBeNull();
    }
  });
});

describe("topic IDs of the Java route (EntityIdNumParameter)", () => {
  it("reads num, realm.num and shard.realm.num within their digits and bits", () => {
    expect(parseJavaEntityIdNum("1005")).toBe(1005n);
    expect(parseJavaEntityIdNum("12345.7")).toBe(encodeEntityId(0n, 12345n, 7n));
    expect(parseJavaEntityIdNum("1.2.3")).toBe(encodeEntityId(1n, 2n, 3n));
    expect(parseJavaEntityIdNum("7", { shard: 1n, realm: 2n })).toBe(encodeEntityId(1n, 2n, 7n));
    for (const id of [
      "",
      "1234567890123",
      "12345.1.1",
      "1.123456.1",
      "0.0.274877906944",
      "1024.0.1",
      "a",
      "1..1",
    ]) {
      expect(parseJavaEntityIdNum(id), id).toBeNull();
    }
  });

  it("takes only the spellings the public ingress sends to the Java service", () => {
    for (const id of ["1", "0.1", "0.0.1", "99999999999999999999"])
      expect(isJavaTopicPath(id), id).toBe(true);
    for (const id of ["", "a", "0.0.0.1", "-1", "1.", ".1", "0x1", "１"])
      expect(isJavaTopicPath(id), id).toBe(false);
  });
});

describe("topic message requests", () => {
  it("parses a list request into a plain value that survives structuredClone", () => {
    const url =
      "/api/v1/topics/0.0.7/messages?timestamp=gte:1.5&sequencenumber=ne:3&Encoding=UTF-8&limit=500";
    const result = parseTopicMessagesRequest({ topicId: "0.0.7" }, url);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const request = result.value;
    expect(request).toMatchObject({
      topicId: 7n,
      timestamps: [{ op: "gte", value: 1_500_000_000n }],
      sequenceNumbers: [{ op: "ne", value: 3n }],
      utf8: true,
      limit: 100,
      order: "asc",
    });
    const copy = structuredClone(request);
    expect(copy).toEqual(request);
    // The single `gte:` bound in the paging direction goes; the new one is appended (upstream's rule).
    expect(buildNextLink({ ...copy.paging, lastValue: "2.000000000" })).toBe(
      "/api/v1/topics/0.0.7/messages?sequencenumber=ne:3&encoding=UTF-8&limit=500&timestamp=gt:2.000000000",
    );
  });

  it("reports a query the parser rejects before the topic", () => {
    const deep = parseTopicMessagesRequest({ topicId: "x" }, "/api/v1/topics/x/messages?a[b][c]=1");
    expect(deep).toEqual({
      ok: false,
      messages: ["Input depth exceeded depth option of 1 and strictDepth is true"],
    });
  });

  it("parses single-message requests", () => {
    expect(parseTopicMessageRequest({ topicId: "7", sequenceNumber: "9" }, "/x")).toEqual({
      ok: true,
      value: { topicId: 7n, sequenceNumber: 9n },
    });
    expect(parseTopicMessageByTimestampRequest({ consensusTimestamp: "12.3" }, "/x")).toEqual({
      ok: true,
      value: 12_300_000_000n,
    });
  });
});

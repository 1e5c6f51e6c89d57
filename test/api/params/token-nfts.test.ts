import { describe, expect, it } from "vitest";
import type { ParamResult } from "../../../src/api/params/errors.ts";
import { unwrapParams } from "../../../src/api/params/errors.ts";
import {
  parseNftTransactionsRequest,
  parseTokenNftRequest,
  parseTokenNftsRequest,
} from "../../../src/api/params/token-nfts.ts";

function messages<T>(result: ParamResult<T>): readonly string[] {
  return result.ok ? [] : result.messages;
}

const invalid = (name: string) => `Invalid parameter: ${name}`;
const unknown = (name: string) => `Unknown query parameter: ${name}`;

describe("GET /api/v1/tokens/{tokenId}/nfts", () => {
  it("reports bad owner, serial, order and limit values in order", () => {
    for (const serial of ["3_3", "-1", "9223372036854775808", "0"]) {
      const url = `/api/v1/tokens/2400/nfts?account.id=you&serialnumber=${serial}&order=random&limit=-1`;
      expect(messages(parseTokenNftsRequest({ tokenId: "2400" }, url))).toEqual([
        invalid("account.id"),
        invalid("serialnumber"),
        invalid("order"),
        invalid("limit"),
      ]);
    }
    expect(messages(parseTokenNftsRequest({ tokenId: "2400" }, "/x?nonce=2"))).toEqual([unknown("nonce")]);
  });

  it("converts owner and serial conditions with every operator", () => {
    const request = unwrapParams(
      parseTokenNftsRequest(
        { tokenId: "0x0000000000000000000000000000000000000960" },
        "/x?serialnumber=gte:2&serialnumber=ne:4&account.id=0.1001&order=asc&limit=3",
      ),
    );
    expect(request.tokenId).toBe(2400n);
    expect(request.serialNumbers).toEqual([
      { op: "gte", value: 2n },
      { op: "ne", value: 4n },
    ]);
    expect(request.accountIds).toEqual([{ op: "eq", value: 1001n }]);
    expect([request.limit, request.order, request.paging.anchor]).toEqual([3, "asc", "serialnumber"]);
  });
});

describe("GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}", () => {
  it("reports every query parameter first, once per name, before the path", () => {
    expect(
      messages(
        parseTokenNftRequest({ tokenId: "mirror", serialNumber: "x" }, "/x?account.id=5&a=1&a=2&Order=asc"),
      ),
    ).toEqual([unknown("account.id"), unknown("a"), unknown("order")]);
  });

  it("then checks the token ID, then the serial number", () => {
    expect(messages(parseTokenNftRequest({ tokenId: "mirror", serialNumber: "twenty" }, "/x"))).toEqual([
      invalid("tokenid"),
    ]);
    expect(messages(parseTokenNftRequest({ tokenId: "2400", serialNumber: "twenty" }, "/x"))).toEqual([
      invalid("serialnumber"),
    ]);
    expect(unwrapParams(parseTokenNftRequest({ tokenId: "2400", serialNumber: "3" }, "/x"))).toEqual({
      tokenId: 2400n,
      serialNumber: 3n,
    });
  });
});

describe("GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions", () => {
  it("checks the token ID, then the serial number, then the query", () => {
    const query = "/x?timestamp=now&order=down&limit=alot&result=SUCCESS";
    expect(messages(parseNftTransactionsRequest({ tokenId: "mirror", serialNumber: "0" }, query))).toEqual([
      invalid("tokenid"),
    ]);
    expect(messages(parseNftTransactionsRequest({ tokenId: "2400", serialNumber: "0" }, query))).toEqual([
      invalid("serialnumber"),
    ]);
    expect(messages(parseNftTransactionsRequest({ tokenId: "2400", serialNumber: "2" }, query))).toEqual([
      invalid("timestamp"),
      invalid("order"),
      invalid("limit"),
      unknown("result"),
    ]);
  });

  it("keeps every timestamp condition and pages on timestamp", () => {
    const request = unwrapParams(
      parseNftTransactionsRequest(
        { tokenId: "2400", serialNumber: "9007199254740993" },
        "/x?timestamp=gt:1234567890.000000004&timestamp=ne:1234567890.000000006&timestamp=lt:1234567891",
      ),
    );
    expect(request.serialNumber).toBe(9_007_199_254_740_993n);
    expect(request.timestamps).toEqual([
      { op: "gt", value: 1_234_567_890_000_000_004n },
      { op: "ne", value: 1_234_567_890_000_000_006n },
      { op: "lt", value: 1_234_567_891_000_000_000n },
    ]);
    expect([request.limit, request.order, request.paging.anchor]).toEqual([25, "desc", "timestamp"]);
  });
});

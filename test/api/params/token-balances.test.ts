import { describe, expect, it } from "vitest";
import type { ParamResult } from "../../../src/api/params/errors.ts";
import { unwrapParams } from "../../../src/api/params/errors.ts";
import { parseTokenBalancesRequest } from "../../../src/api/params/token-balances.ts";

const ED_KEY = "5c1dd3a55e7c39f7d4a1a1e0c1bd0a4a0f2b3c4d5e6f708192a3b4c5d6e7f809";
const OPAQUE = "71e8a3f0c5d2b4a69788e1f2a3b4c5d6e7f80912";

function messages<T>(result: ParamResult<T>): readonly string[] {
  return result.ok ? [] : result.messages;
}

const invalid = (name: string) => `Invalid parameter: ${name}`;
const unknown = (name: string) => `Unknown query parameter: ${name}`;

describe("GET /api/v1/tokens/{tokenId}/balances", () => {
  it("reports each bad value, including a balance beyond int64, then unknown names", () => {
    for (const balance of ["gt:-5", "gt:9223372036854775808"]) {
      const url = `/api/v1/tokens/0.0.9/balances?account.id=lte:0.7.8.9&account.balance=${balance}&account.publickey=-5&timestamp=-2.4&order=any&slot=1`;
      expect(messages(parseTokenBalancesRequest({ tokenId: "0.0.9" }, url))).toEqual([
        invalid("account.id"),
        invalid("account.balance"),
        invalid("account.publickey"),
        invalid("timestamp"),
        invalid("order"),
        unknown("slot"),
      ]);
    }
  });

  it("reports the token ID first", () => {
    expect(messages(parseTokenBalancesRequest({ tokenId: "0.0.x" }, "/x?slot=1"))).toEqual([
      invalid("tokenid"),
    ]);
  });

  it("converts filters, keeps the last public key and defaults to descending", () => {
    const url =
      `/api/v1/tokens/9/balances?account.balance=gt:300&account.balance=lte:700&&account.id=gte:0.0.17` +
      `&account.id=${OPAQUE}&account.publickey=lt:${"ab".repeat(33)}&account.publickey=0x${ED_KEY}` +
      `&timestamp=ne:1566560001&timestamp=1566560003`;
    const request = unwrapParams(parseTokenBalancesRequest({ tokenId: "9" }, url));
    expect(request.tokenId).toBe(9n);
    expect(request.balances).toEqual([
      { op: "gt", value: 300n },
      { op: "lte", value: 700n },
    ]);
    expect(request.accountIds).toEqual([
      { op: "gte", value: 17n },
      { op: "eq", value: null },
    ]);
    expect(request.publicKey).toBe(ED_KEY);
    expect(request.timestamps).toEqual([
      { op: "ne", value: 1_566_560_001_000_000_000n },
      { op: "eq", value: 1_566_560_003_000_000_000n },
    ]);
    expect([request.limit, request.order, request.paging.anchor]).toEqual([25, "desc", "account.id"]);
  });
});

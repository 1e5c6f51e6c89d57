import { describe, expect, it } from "vitest";
import {
  decodeEntityId,
  encodeEntityId,
  formatEntityId,
  isValidEntityId,
  parseEntityIdString,
} from "../../../src/api/params/entity-id.ts";

const LONG_ZERO_1135 = "000000000000000000000000000000000000046F";
const OPAQUE = "71e8a3f0c5d2b4a69788e1f2a3b4c5d6e7f80912";

function encodedOf(id: string, kind: "any" | "num-alias" = "num-alias", config = {}) {
  const parsed = parseEntityIdString(id, kind, config);
  if (!parsed.ok) return `invalid: ${parsed.expanded}`;
  return parsed.id.kind === "id" ? parsed.id.encoded : `evm: ${parsed.id.evmAddress}`;
}

describe("encodeEntityId / decodeEntityId", () => {
  it("packs shard, realm and num into 10/16/38 bits", () => {
    expect(encodeEntityId(0n, 0n, 1135n)).toBe(1135n);
    expect(encodeEntityId(0n, 7n, 25301n)).toBe(7n * 2n ** 38n + 25301n);
    expect(encodeEntityId(1n, 2n, 3n)).toBe(2n ** 54n + 2n * 2n ** 38n + 3n);
  });

  it("keeps the value a signed int64: shards from 512 up are negative, and decode inverts it", () => {
    const encoded = encodeEntityId(1023n, 65535n, 2n ** 38n - 1n);
    expect(encoded).toBe(-1n);
    expect(decodeEntityId(encoded)).toEqual({ shard: 1023n, realm: 65535n, num: 2n ** 38n - 1n });
    const mid = encodeEntityId(600n, 12n, 345n);
    expect(mid < 0n).toBe(true);
    expect(decodeEntityId(mid)).toEqual({ shard: 600n, realm: 12n, num: 345n });
  });

  it("refuses parts that do not fit their bits", () => {
    expect(() => encodeEntityId(1024n, 0n, 1n)).toThrow(RangeError);
    expect(() => encodeEntityId(0n, 65536n, 1n)).toThrow(RangeError);
    expect(() => encodeEntityId(0n, 0n, 2n ** 38n)).toThrow(RangeError);
  });

  it("prints shard.realm.num and null for the all-zero ID", () => {
    expect(formatEntityId(1135n)).toBe("0.0.1135");
    expect(formatEntityId(encodeEntityId(0n, 23n, 45678n))).toBe("0.23.45678");
    expect(formatEntityId(encodeEntityId(900n, 1n, 2n))).toBe("900.1.2");
    expect(formatEntityId(0n)).toBeNull();
    // upstream's toString only returns null when shard, realm and num are all zero
    expect(formatEntityId(encodeEntityId(0n, 5n, 0n))).toBe("0.5.0");
  });
});

describe("parseEntityIdString", () => {
  it("reads all six spellings of one token to the same packed ID", () => {
    for (const spelling of [
      "1135",
      "0.1135",
      "0.0.1135",
      LONG_ZERO_1135,
      `0x${LONG_ZERO_1135}`,
      `0.0.${LONG_ZERO_1135}`,
    ]) {
      expect(encodedOf(spelling)).toBe(1135n);
    }
  });

  it("reads a bare number as a num, never as a packed 64-bit ID", () => {
    const packed = encodeEntityId(0n, 7n, 25301n).toString();
    expect(encodedOf(packed)).toBe(`invalid: 0.0.${packed}`);
    expect(encodedOf("274877906943")).toBe(2n ** 38n - 1n);
  });

  it("quotes the shard/realm-completed text when the bit limits reject a value", () => {
    expect(encodedOf("274877906944")).toBe("invalid: 0.0.274877906944");
    expect(encodedOf("1234567890123")).toBe("invalid: 0.0.1234567890123");
    expect(encodedOf("-5")).toBe("invalid: 0.0.-5");
    expect(encodedOf("0.65536.1")).toBe("invalid: 0.65536.1");
    expect(encodedOf("1024.0.1")).toBe("invalid: 1024.0.1");
    expect(encodedOf("10000.0.1")).toBe("invalid: 10000.0.1");
    expect(encodedOf("1.2.3.4")).toBe("invalid: 0.1.2.3.4");
  });

  it("rejects the spellings upstream rejects as a token ID", () => {
    expect(encodedOf("abc")).toBe("invalid: 0.0.abc");
    expect(encodedOf("2abcd")).toBe("invalid: 0.0.2abcd");
    expect(encodedOf(`0.0.0x${LONG_ZERO_1135}`)).toBe(`invalid: 0.0.0x${LONG_ZERO_1135}`);
    expect(encodedOf(OPAQUE)).toBe(`invalid: ${OPAQUE}`);
  });

  it("keeps a non-long-zero address opaque where any address is allowed", () => {
    expect(encodedOf(OPAQUE, "any")).toBe(`evm: ${OPAQUE}`);
    expect(encodedOf(`0x${OPAQUE}`, "any")).toBe(`evm: ${OPAQUE}`);
    // a num above 38 bits behind twelve zero bytes is not an alias either
    expect(encodedOf("0000000000000000000000000000004000000000", "any")).toBe(
      "evm: 0000000000000000000000000000004000000000",
    );
  });

  it("completes IDs with the configured shard and realm, and holds addresses to them", () => {
    const config = { shard: 1n, realm: 2n };
    expect(encodedOf("5", "any", config)).toBe(encodeEntityId(1n, 2n, 5n));
    expect(encodedOf("9.5", "any", config)).toBe(encodeEntityId(1n, 9n, 5n));
    expect(encodedOf(`1.2.${LONG_ZERO_1135}`, "any", config)).toBe(encodeEntityId(1n, 2n, 1135n));
    expect(encodedOf(LONG_ZERO_1135, "any", config)).toBe(encodeEntityId(1n, 2n, 1135n));
    expect(encodedOf(`0.0.${LONG_ZERO_1135}`, "any", config)).toBe(`invalid: 0.0.${LONG_ZERO_1135}`);
  });

  it("keeps upstream's quirk of stripping 0x from any ID", () => {
    expect(encodedOf("0x1135")).toBe(1135n);
    expect(encodedOf("0x0.0.1135")).toBe(1135n);
    expect(encodedOf(`0X${LONG_ZERO_1135}`)).toBe(`invalid: 0.0.0X${LONG_ZERO_1135}`);
  });
});

describe("isValidEntityId", () => {
  it("is the syntax check only: long numbers and negatives pass, the parse fails later", () => {
    expect(isValidEntityId("1234567890123456789")).toBe(true);
    expect(isValidEntityId("-5")).toBe(true);
    expect(isValidEntityId("0.1.2.3")).toBe(false);
    expect(isValidEntityId("12345678901234567890")).toBe(false);
    expect(isValidEntityId("me")).toBe(false);
    expect(isValidEntityId("")).toBe(false);
  });

  it("accepts addresses by kind", () => {
    expect(isValidEntityId(OPAQUE)).toBe(true);
    expect(isValidEntityId(OPAQUE, true, "num-alias")).toBe(false);
    expect(isValidEntityId(`0x${LONG_ZERO_1135}`, true, "num-alias")).toBe(true);
    expect(isValidEntityId(`0.0.${LONG_ZERO_1135}`, true, "num-alias")).toBe(true);
    expect(isValidEntityId(OPAQUE, false)).toBe(false);
  });
});

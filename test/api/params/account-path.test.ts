import { describe, expect, it } from "vitest";
import { decodeBase32, encodeBase32 } from "../../../src/api/base32.ts";
import { parseAccountPathParam, readAccountAlias } from "../../../src/api/params/account-path.ts";

const OPAQUE = "c3e5f0a0d1b2c3d4e5f60718293a4b5c6d7e8f90";
const hex = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));

function read(value: string, config = {}) {
  const result = parseAccountPathParam(value, config);
  return result.ok ? result.value : result.messages;
}

describe("base32", () => {
  it("writes upper case without padding, and reads it back", () => {
    expect(encodeBase32(hex("deadbeef"))).toBe("32W353Y");
    expect(encodeBase32(hex("deadbeefde"))).toBe("32W35366");
    expect(encodeBase32(new Uint8Array())).toBe("");
    expect(decodeBase32("32W353Y")).toEqual(hex("deadbeef"));
    expect(decodeBase32("32W35366")).toEqual(hex("deadbeefde"));
    for (let length = 0; length < 40; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      expect(decodeBase32(encodeBase32(bytes))).toEqual(bytes);
    }
  });

  it("refuses text that is not whole bytes, has bits left over, or other characters", () => {
    for (const bad of ["A", "AAA", "AAAAAA", "AB", "32W353Z", "aa", "00", "AA======"]) {
      expect(decodeBase32(bad), bad).toBeNull();
    }
  });
});

describe("parseAccountPathParam", () => {
  it("reads entity IDs and long-zero addresses without a lookup", () => {
    for (const value of [
      "1002",
      "0.1002",
      "0.0.1002",
      "0x00000000000000000000000000000000000003ea",
      "00000000000000000000000000000000000003ea",
      "0.0.00000000000000000000000000000000000003EA",
    ]) {
      expect(read(value), value).toEqual({ kind: "id", id: 1002n });
    }
    expect(read("0.7.25")).toEqual({ kind: "id", id: 7n * 2n ** 38n + 25n });
  });

  it("leaves other EVM addresses to the store, lower-cased, in all three spellings", () => {
    for (const value of [`0x${OPAQUE}`, OPAQUE.toUpperCase(), `0.0.${OPAQUE}`]) {
      expect(read(value), value).toEqual({ kind: "evm", evmAddress: OPAQUE });
    }
  });

  it("reads base32 aliases, with or without this shard and realm", () => {
    const alias = encodeBase32(hex("1220aabbccdd"));
    for (const value of [alias, `0.${alias}`, `0.0.${alias}`]) {
      expect(read(value), value).toEqual({ kind: "alias", alias: "1220aabbccdd" });
    }
    expect(read(`1.2.${alias}`, { shard: 1n, realm: 2n })).toEqual({ kind: "alias", alias: "1220aabbccdd" });
  });

  it("answers anything else with Invalid parameter: idOrAliasOrEvmAddress", () => {
    for (const value of [
      "0.5.6.7",
      "0.0.0x00000000000000000000000000000000000003ea",
      "1.0.AABBCC22",
      "0.1.AABBCC22",
      "0.0.0.AABBCC22",
      "100000.AABBCC22",
      "AAA",
      "AB",
      "aabbcc22",
      "0.0.1234567890123",
      "-5",
      "0.0.274877906944",
      "0x",
      "abc!",
      `0x${OPAQUE}1`,
    ]) {
      expect(read(value), value).toEqual(["Invalid parameter: idOrAliasOrEvmAddress"]);
    }
    const named = parseAccountPathParam("bad!", {}, "account.id");
    expect(named.ok ? null : named.messages).toEqual(["Invalid parameter: account.id"]);
  });

  it("takes digits-only base32 for an entity ID, as upstream tries IDs first", () => {
    expect(read("2222")).toEqual({ kind: "id", id: 2222n });
  });

  it("refuses a shard/realm prefix on an alias where none is allowed", () => {
    expect(readAccountAlias("AABBCC22", {}, true)).toBe(
      Buffer.from(decodeBase32("AABBCC22")!).toString("hex"),
    );
    expect(readAccountAlias("0.0.AABBCC22", {}, true)).toBeNull();
  });
});

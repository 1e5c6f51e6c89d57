import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodeEntityId } from "../../../src/api/params/entity-id.ts";
import {
  parseHashOrNumberPathParam,
  parseSerialNumberPathParam,
  parseTokenIdPathParam,
} from "../../../src/api/params/path-params.ts";
import { isValidPublicKey, normalizePublicKey } from "../../../src/api/params/public-key.ts";

const HASH_96 =
  "b0162e8a244dc05fbd6f321445b14dddf0e94b00eb169b58ff77b1b5206c12782457f7f1a2ae8cea890f378542ac7216";

describe("token ID path parameter", () => {
  it("accepts every entity ID spelling", () => {
    expect(parseTokenIdPathParam("0.0.1500")).toEqual({ ok: true, value: 1500n });
    expect(parseTokenIdPathParam("0x00000000000000000000000000000000000005DC")).toEqual({
      ok: true,
      value: 1500n,
    });
    expect(parseTokenIdPathParam("20.1", { shard: 3n })).toEqual({
      ok: true,
      value: encodeEntityId(3n, 20n, 1n),
    });
  });

  it("answers every rejection with `tokenid` in lower case", () => {
    for (const bad of [
      "abc",
      "mirror",
      "",
      "0.0.0x00000000000000000000000000000000000005DC",
      "1234567890123",
    ]) {
      expect(parseTokenIdPathParam(bad)).toEqual({ ok: false, messages: ["Invalid parameter: tokenid"] });
    }
    expect(parseTokenIdPathParam("71e8a3f0c5d2b4a69788e1f2a3b4c5d6e7f80912")).toEqual({
      ok: false,
      messages: ["Invalid parameter: tokenid"],
    });
  });
});

describe("serial number path parameter", () => {
  it("accepts 1..2^63-1", () => {
    expect(parseSerialNumberPathParam("1")).toEqual({ ok: true, value: 1n });
    expect(parseSerialNumberPathParam("9223372036854775807")).toEqual({ ok: true, value: 2n ** 63n - 1n });
  });

  it("rejects zero, words, signs and overflow", () => {
    for (const bad of ["0", "twenty", "mirror", "-1", "+1", "9223372036854775808", "1.0", "", "0x10"]) {
      expect(parseSerialNumberPathParam(bad)).toEqual({
        ok: false,
        messages: ["Invalid parameter: serialnumber"],
      });
    }
  });
});

describe("block hash-or-number path parameter", () => {
  it("reads 64- and 96-hex hashes with or without 0x, lower-cased", () => {
    expect(parseHashOrNumberPathParam(HASH_96.toUpperCase())).toEqual({
      ok: true,
      value: { hashPrefix: HASH_96 },
    });
    expect(parseHashOrNumberPathParam(`0x${HASH_96}`)).toEqual({ ok: true, value: { hashPrefix: HASH_96 } });
    const evmHash = HASH_96.slice(0, 64);
    expect(parseHashOrNumberPathParam(`0x${evmHash.toUpperCase()}`)).toEqual({
      ok: true,
      value: { hashPrefix: evmHash },
    });
  });

  it("tries the hash first, so 64 decimal digits are a hash", () => {
    const digits = "1".repeat(64);
    expect(parseHashOrNumberPathParam(digits)).toEqual({ ok: true, value: { hashPrefix: digits } });
  });

  it("otherwise reads a block number from 0 to 2^63-1", () => {
    expect(parseHashOrNumberPathParam("0")).toEqual({ ok: true, value: { number: 0n } });
    expect(parseHashOrNumberPathParam("9900000000000001")).toEqual({
      ok: true,
      value: { number: 9900000000000001n },
    });
  });

  it("rejects truncated hashes and non-numbers", () => {
    for (const bad of ["invalidnumber", "1test", HASH_96.slice(1), "-1", "9223372036854775808", "0x10"]) {
      expect(parseHashOrNumberPathParam(bad)).toEqual({
        ok: false,
        messages: ["Invalid parameter: hashOrNumber"],
      });
    }
  });
});

describe("public key filter values", () => {
  it("reduces a DER ED25519 key to the raw key Node's crypto reports for it", () => {
    const { publicKey } = generateKeyPairSync("ed25519");
    const der = publicKey.export({ type: "spki", format: "der" }).toString("hex");
    const raw = Buffer.from(publicKey.export({ format: "jwk" }).x ?? "", "base64url").toString("hex");
    expect(der).toHaveLength(88);
    expect(isValidPublicKey(der)).toBe(true);
    expect(normalizePublicKey(der)).toBe(raw);
    expect(normalizePublicKey(`0x${der.toUpperCase()}`)).toBe(raw);
  });

  it("lower-cases and strips 0x from raw ED25519 and ECDSA keys", () => {
    const ed = "2B60955BCBF0CF5E9EA880B52E5B63F664B08EDF6ED15E301049517438D61864";
    const ecdsa = `02${ed}`;
    expect(normalizePublicKey(`0x${ed}`)).toBe(ed.toLowerCase());
    expect(normalizePublicKey(ecdsa)).toBe(ecdsa.toLowerCase());
    expect(isValidPublicKey(`0x${ecdsa}`)).toBe(true);
  });

  it("rejects other lengths and non-hex", () => {
    expect(isValidPublicKey("-2")).toBe(false);
    expect(isValidPublicKey("ab".repeat(33).slice(1))).toBe(false);
    expect(isValidPublicKey("zz".repeat(32))).toBe(false);
  });
});

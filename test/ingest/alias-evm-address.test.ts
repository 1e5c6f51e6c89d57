import { describe, expect, it } from "vitest";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { aliasToEvmAddress } from "../../src/ingest/handlers/alias.ts";
import { keccak256 } from "../../src/streams/keccak.ts";

const hex = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString("hex"));

describe("keccak256", () => {
  it("gives Ethereum's digests (not SHA3-256's)", () => {
    expect(hex(keccak256(new Uint8Array()))).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
    expect(hex(keccak256(Buffer.from("abc")))).toBe(
      "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
    );
    // Across the 136-byte block boundary.
    expect(hex(keccak256(new Uint8Array(136)))).toBe(
      "3a5912a7c5faa06ee4fe906253e339467a9ce87d533c65be3c15cb231cdb25f9",
    );
  });
});

describe("aliasToEvmAddress", () => {
  const keys = new KeyRing("alias-test");
  it("keeps a 20-byte alias, derives an ECDSA key alias's address, and has none for ED25519", () => {
    const ecdsa = keys.ecdsaKey("a");
    expect(hex(aliasToEvmAddress(ecdsa.evmAddress))).toBe(hex(ecdsa.evmAddress));
    expect(hex(aliasToEvmAddress(keys.resolve({ ecdsa: "a" }).bytes))).toBe(hex(ecdsa.evmAddress));
    expect(aliasToEvmAddress(keys.resolve({ ed25519: "b" }).bytes)).toBeNull();
    expect(aliasToEvmAddress(Uint8Array.of(0xff, 0xff))).toBeNull();
    // 33 bytes that are no point on the curve.
    expect(aliasToEvmAddress(Uint8Array.of(0x3a, 0x21, 0x02, ...new Uint8Array(32).fill(0xff)))).toBeNull();
  });
});

/**
 * Keccak-256 and log blooms. Keccak against its published digests and the simulator's own (slower, bigint)
 * Keccak; blooms against two logs of a test network whose bloom bits the mirror node's importer tests list
 * (contract 0.0.3042133 with two topics, 0.0.6739121 with three, two of them given with their leading zeros
 * trimmed, as block streams write topics).
 */
import Long from "long";
import { describe, expect, it } from "vitest";
import { keccak256 as referenceKeccak } from "../../fixtures/writer/scenario/keccak.ts";
import { BLOOM_BYTES, contractEvmAddress, logBloom, orBloom } from "../../src/streams/evm-bloom.ts";
import { keccak256 } from "../../src/streams/keccak.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const bytes = (value: string) => new Uint8Array(Buffer.from(value, "hex"));

/** A bloom with the given bits set, bit i being bit (i mod 8) of byte (i div 8). */
function bloomWithBits(bits: number[]): string {
  const bloom = new Uint8Array(BLOOM_BYTES);
  for (const bit of bits) bloom[bit >>> 3] = bloom[bit >>> 3]! | (1 << (bit & 7));
  return hex(bloom);
}

describe("Keccak-256", () => {
  it("gives the published digests", () => {
    expect(hex(keccak256(new Uint8Array()))).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
    expect(hex(keccak256(new TextEncoder().encode("abc")))).toBe(
      "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
    );
  });

  it("agrees with the simulator's Keccak around the rate boundary", () => {
    for (const length of [1, 20, 32, 135, 136, 137, 271, 272, 273, 1000]) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 13 + length) & 0xff);
      expect(hex(keccak256(data)), `${length} bytes`).toBe(hex(referenceKeccak(data)));
    }
  });
});

describe("log blooms", () => {
  it("set the bits a test network's logs set", () => {
    const first = logBloom(contractEvmAddress({ contractNum: Long.fromNumber(3042133) }), [
      bytes("d06a6b7f4918494b3719217d1802786c1f5112a6c1d88fe2cfec00b4584f6aec"),
      bytes("3728e591097635310e6341af53db8b7ee42da9b3a8d918f9463ce9cca886dfbd"),
    ]);
    expect(hex(first)).toBe(bloomWithBits([93, 179, 263, 375, 745, 1333, 1464, 1478, 1538]));
    const second = logBloom(contractEvmAddress({ contractNum: Long.fromNumber(6739121) }), [
      bytes("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"),
      bytes("62866b"),
      bytes("628669"),
    ]);
    expect(hex(second)).toBe(
      bloomWithBits([217, 307, 603, 642, 657, 697, 988, 1029, 1156, 1232, 1303, 1561]),
    );
    const both = new Uint8Array(BLOOM_BYTES);
    orBloom(both, first);
    orBloom(both, second);
    expect(hex(both)).toBe(
      bloomWithBits([
        93, 179, 263, 375, 745, 1333, 1464, 1478, 1538, 217, 307, 603, 642, 657, 697, 988, 1029, 1156, 1232,
        1303, 1561,
      ]),
    );
  });

  it("take a contract's EVM address when its id names one, else the long-zero form of its number", () => {
    const evm = bytes("00112233445566778899aabbccddeeff00112233");
    expect(hex(contractEvmAddress({ evmAddress: evm }))).toBe(hex(evm));
    expect(
      hex(
        contractEvmAddress({
          shardNum: Long.fromNumber(259),
          realmNum: Long.fromNumber(1027),
          contractNum: Long.fromNumber(3493),
        }),
      ),
    ).toBe("0000000000000000000000000000000000000da5");
  });
});

import { createECDH, createHash, createPublicKey, verify } from "node:crypto";
import Long from "long";
import { describe, expect, it } from "vitest";
import { signSecp256k1 } from "../../fixtures/writer/scenario/ecdsa.ts";
import { keccak256, sponge256 } from "../../fixtures/writer/scenario/keccak.ts";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { ProtoWriter } from "../../fixtures/writer/scenario/proto-writer.ts";
import { proto } from "../../src/streams/proto.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("keccak256", () => {
  it("matches the published digests (Ethereum Keccak, not FIPS SHA3)", () => {
    expect(hex(keccak256(new Uint8Array()))).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
    expect(hex(keccak256(Buffer.from("abc")))).toBe(
      "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
    );
    expect(hex(keccak256(new Uint8Array()))).not.toBe(createHash("sha3-256").update("").digest("hex"));
  });

  it("derives the well-known EVM address of private key 1", () => {
    const ecdh = createECDH("secp256k1");
    ecdh.setPrivateKey(Buffer.from("01".padStart(64, "0"), "hex"));
    const address = keccak256(ecdh.getPublicKey(null, "uncompressed").subarray(1)).subarray(12);
    expect(hex(address)).toBe("7e5f4552091a69125d5dfcb7b8c2659029395bdf");
  });

  it("runs the same permutation as FIPS SHA3-256, over one block and many", () => {
    // Only the domain padding byte differs between Keccak-256 and SHA3-256.
    for (const length of [0, 1, 135, 136, 137, 271, 272, 273, 1000]) {
      const data = new Uint8Array(length).map((_, i) => (i * 31 + 7) & 0xff);
      expect(hex(sponge256(data, 0x06))).toBe(createHash("sha3-256").update(data).digest("hex"));
    }
  });
});

describe("deterministic secp256k1 ECDSA", () => {
  it("reproduces the RFC 6979 test vector for key 1 and 'Satoshi Nakamoto' (low-s)", () => {
    const key = Buffer.from("01".padStart(64, "0"), "hex");
    const signature = signSecp256k1(key, createHash("sha256").update("Satoshi Nakamoto").digest());
    expect(hex(signature)).toBe(
      "934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8" +
        "2442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5",
    );
  });

  it("makes signatures that node:crypto verifies, the same every time", () => {
    const keys = new KeyRing("crypto-test");
    const signer = keys.ecdsaKey("alice");
    const ecdh = createECDH("secp256k1");
    ecdh.setPrivateKey(signer.privateKey);
    const point = ecdh.getPublicKey(null, "uncompressed");
    const publicKey = createPublicKey({
      key: {
        kty: "EC",
        crv: "secp256k1",
        x: point.subarray(1, 33).toString("base64url"),
        y: point.subarray(33).toString("base64url"),
      },
      format: "jwk",
    });
    for (const message of ["", "hello", "a longer message with more bytes in it"]) {
      const signature = signSecp256k1(signer.privateKey, createHash("sha256").update(message).digest());
      expect(
        verify("sha256", Buffer.from(message), { key: publicKey, dsaEncoding: "ieee-p1363" }, signature),
      ).toBe(true);
      expect(signSecp256k1(signer.privateKey, createHash("sha256").update(message).digest())).toEqual(
        signature,
      );
    }
    expect(hex(signer.publicKey)).toBe(hex(ecdh.getPublicKey(null, "compressed")));
  });
});

describe("scenario keys", () => {
  it("derive the same keys from the same seed and different keys from different names or seeds", () => {
    const a = new KeyRing("seed-a");
    expect(a.ed25519Key("alice").publicKey).toEqual(new KeyRing("seed-a").ed25519Key("alice").publicKey);
    expect(a.ed25519Key("alice").publicKey).not.toEqual(a.ed25519Key("bob").publicKey);
    expect(a.ed25519Key("alice").publicKey).not.toEqual(new KeyRing("seed-b").ed25519Key("alice").publicKey);
  });

  it("encode key lists and threshold keys as HAPI Keys, collecting every signer", () => {
    const keys = new KeyRing("k");
    const resolved = keys.resolve({ threshold: 2, keys: ["a", { ecdsa: "b" }, { keyList: ["c", "a"] }] });
    const decoded = proto.Key.decode(resolved.bytes);
    expect(decoded.thresholdKey!.threshold).toBe(2);
    const inner = decoded.thresholdKey!.keys!.keys!;
    expect(inner[0]!.ed25519).toEqual(Buffer.from(keys.ed25519Key("a").publicKey));
    expect(inner[1]!.ECDSASecp256k1).toEqual(Buffer.from(keys.ecdsaKey("b").publicKey));
    expect(inner[2]!.keyList!.keys).toHaveLength(2);
    expect(resolved.signers.map((s) => s.kind)).toEqual(["ed25519", "ecdsa", "ed25519", "ed25519"]);
  });
});

describe("ProtoWriter", () => {
  const values = [1n, 127n, 128n, 300n, 2n ** 53n, 2n ** 63n - 1n, -1n, -2n, -5_000_000_000n, -(2n ** 63n)];

  it("writes int64 and sint64 varints exactly as protobufjs does", () => {
    for (const value of values) {
      expect(hex(new ProtoWriter(4).int(3, value).finish())).toBe(
        hex(proto.NftTransfer.encode({ serialNumber: Long.fromBigInt(value) }).finish()),
      );
      // AccountAmount.amount is a sint64 (ZigZag).
      expect(hex(new ProtoWriter(4).sint(2, value).finish())).toBe(
        hex(proto.AccountAmount.encode({ amount: Long.fromBigInt(value) }).finish()),
      );
    }
  });

  it("writes packed repeated fields and nested messages longer than 127 bytes", () => {
    const serials = [1n, 2n, 300n, 2n ** 40n];
    expect(hex(new ProtoWriter(2).packedInts(14, serials).finish())).toBe(
      hex(
        proto.TransactionReceipt.encode({ serialNumbers: serials.map((s) => Long.fromBigInt(s)) }).finish(),
      ),
    );
    const prefix = new Uint8Array(200).fill(1);
    const written = new ProtoWriter(8).begin(2).begin(1).bytes(1, prefix).end().end().finish();
    expect(hex(written)).toBe(
      hex(proto.SignedTransaction.encode({ sigMap: { sigPair: [{ pubKeyPrefix: prefix }] } }).finish()),
    );
  });
});

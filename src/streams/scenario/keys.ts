/**
 * Deterministic keys for scenarios. Every key is named; its private key is derived from the scenario seed
 * and the name, so regenerating a scenario reproduces every public key and every signature byte for byte
 * (ED25519 signatures are deterministic, and ECDSA ones use RFC 6979 nonces). Accounts own the key named
 * after them unless told otherwise.
 */
import { createECDH, createHash, createPrivateKey, createPublicKey, type KeyObject, sign } from "node:crypto";
import { proto } from "../proto.ts";
import { signSecp256k1 } from "./ecdsa.ts";
import { keccak256 } from "./keccak.ts";

/** How a scenario names a key: a name (ED25519), a typed name, a key list or a threshold key. */
export type KeySpec =
  | string
  | { ed25519: string }
  | { ecdsa: string }
  | { keyList: KeySpec[] }
  | { threshold: number; keys: KeySpec[] };

export type Ed25519Signer = { kind: "ed25519"; publicKey: Uint8Array; privateKey: KeyObject };

export type EcdsaKey = {
  kind: "ecdsa";
  publicKey: Uint8Array;
  privateKey: Uint8Array;
  evmAddress: Uint8Array;
};

/** A primitive key that can sign: ED25519, or ECDSA secp256k1 (`publicKey` compressed, 33 bytes). */
export type Signer = Ed25519Signer | EcdsaKey;

/** A key as the ledger stores it, with the primitive keys (leaves) able to sign for it. */
export type ResolvedKey = { proto: proto.IKey; bytes: Uint8Array; signers: Signer[] };

// The DER prefix that wraps a raw 32-byte ED25519 seed as PKCS#8.
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const ZERO_X = Buffer.alloc(32).toString("base64url");

/** Derives and caches the named keys of one scenario. */
export class KeyRing {
  private readonly seed: string;
  private readonly ed25519 = new Map<string, Ed25519Signer>();
  private readonly ecdsa = new Map<string, EcdsaKey>();

  constructor(seed: string) {
    this.seed = seed;
  }

  ed25519Key(name: string): Ed25519Signer {
    let signer = this.ed25519.get(name);
    if (signer === undefined) {
      signer = importEd25519(this.derive(`ed25519/${name}`));
      this.ed25519.set(name, signer);
    }
    return signer;
  }

  ecdsaKey(name: string): EcdsaKey {
    let key = this.ecdsa.get(name);
    if (key === undefined) {
      const ecdh = createECDH("secp256k1");
      // A hash lands outside [1, n-1] with negligible probability; re-hash in that case.
      let privateKey: Buffer | undefined;
      for (let attempt = 0; privateKey === undefined; attempt++) {
        const candidate = this.derive(`ecdsa/${name}/${attempt}`);
        try {
          ecdh.setPrivateKey(candidate);
          privateKey = candidate;
        } catch {
          if (attempt > 8) throw new Error(`cannot derive an ECDSA key for ${name}`);
        }
      }
      const uncompressed = ecdh.getPublicKey(null, "uncompressed");
      key = {
        kind: "ecdsa",
        publicKey: new Uint8Array(ecdh.getPublicKey(null, "compressed")),
        privateKey: new Uint8Array(privateKey),
        evmAddress: keccak256(uncompressed.subarray(1)).slice(12),
      };
      this.ecdsa.set(name, key);
    }
    return key;
  }

  /** Resolves a key spec to its protobuf form and its ED25519 signers. */
  resolve(spec: KeySpec): ResolvedKey {
    const signers: Signer[] = [];
    const keyProto = this.toProto(spec, signers);
    return { proto: keyProto, bytes: proto.Key.encode(keyProto).finish(), signers };
  }

  private toProto(spec: KeySpec, signers: Signer[]): proto.IKey {
    if (typeof spec === "string") return this.toProto({ ed25519: spec }, signers);
    if ("ed25519" in spec) {
      const signer = this.ed25519Key(spec.ed25519);
      signers.push(signer);
      return { ed25519: signer.publicKey };
    }
    if ("ecdsa" in spec) {
      const signer = this.ecdsaKey(spec.ecdsa);
      signers.push(signer);
      return { ECDSASecp256k1: signer.publicKey };
    }
    if ("keyList" in spec) return { keyList: { keys: spec.keyList.map((k) => this.toProto(k, signers)) } };
    return {
      thresholdKey: {
        threshold: spec.threshold,
        keys: { keys: spec.keys.map((k) => this.toProto(k, signers)) },
      },
    };
  }

  private derive(label: string): Buffer {
    return createHash("sha256").update(`mirrorlite-scenario/${this.seed}/${label}`).digest();
  }
}

/**
 * An ED25519 key pair from its 32-byte seed. Importing a JWK is several times faster than parsing PKCS#8
 * DER (which matters for bulk streams with thousands of accounts), but a JWK needs the public key `x`: it is
 * read back from a first import (OpenSSL derives the public key from `d` alone), and the key is imported
 * again complete. The DER path remains for runtimes that insist on a consistent `x`.
 */
function importEd25519(seed: Buffer): Ed25519Signer {
  const d = seed.toString("base64url");
  let privateKey: KeyObject;
  try {
    const probe = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d, x: ZERO_X }, format: "jwk" });
    const x = createPublicKey(probe).export({ format: "jwk" }).x;
    if (typeof x !== "string") throw new Error("no public key");
    privateKey = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d, x }, format: "jwk" });
  } catch {
    privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
      format: "der",
      type: "pkcs8",
    });
  }
  const x = createPublicKey(privateKey).export({ format: "jwk" }).x;
  if (typeof x !== "string") throw new Error("cannot read an ED25519 public key");
  return { kind: "ed25519", publicKey: new Uint8Array(Buffer.from(x, "base64url")), privateKey };
}

/**
 * A `SignatureMap` with one signature over `bodyBytes` per distinct signer, in the order given, each under
 * its full public key as prefix (what SDKs send): ED25519 over the bytes, ECDSA over their Keccak-256 hash.
 */
export function signatureMap(bodyBytes: Uint8Array, signers: Signer[]): proto.ISignatureMap {
  const seen = new Set<string>();
  const sigPair: proto.ISignaturePair[] = [];
  let keccak: Uint8Array | undefined;
  for (const signer of signers) {
    const id = Buffer.from(signer.publicKey).toString("hex");
    if (seen.has(id)) continue;
    seen.add(id);
    if (signer.kind === "ed25519") {
      sigPair.push({ pubKeyPrefix: signer.publicKey, ed25519: sign(null, bodyBytes, signer.privateKey) });
    } else {
      keccak ??= keccak256(bodyBytes);
      sigPair.push({
        pubKeyPrefix: signer.publicKey,
        ECDSASecp256k1: signSecp256k1(signer.privateKey, keccak),
      });
    }
  }
  return { sigPair };
}

const templatePairs = new WeakMap<Signer, proto.ISignaturePair>();

/**
 * A signature map shaped like `signatureMap`'s, but each signer's signature is made once (over an empty
 * body) and reused. It does not verify; bulk benchmark streams use it because mirror nodes do not check
 * transaction signatures, and signing hundreds of thousands of bodies would dominate the run time.
 */
export function templateSignatureMap(signers: Signer[]): proto.ISignatureMap {
  const seen = new Set<Signer>();
  const sigPair: proto.ISignaturePair[] = [];
  for (const signer of signers) {
    if (seen.has(signer)) continue;
    seen.add(signer);
    let pair = templatePairs.get(signer);
    if (pair === undefined) {
      pair = signatureMap(new Uint8Array(), [signer]).sigPair![0]!;
      templatePairs.set(signer, pair);
    }
    sigPair.push(pair);
  }
  return { sigPair };
}

/**
 * Deterministic ECDSA over secp256k1 (RFC 6979 nonces, low-s), for scenario keys of type ECDSA.
 *
 * `node:crypto` signs secp256k1 with a random nonce, which would make fixture bytes change on every build;
 * RFC 6979 derives the nonce from the key and the message instead. Hedera signs the Keccak-256 hash of the
 * body bytes and carries the signature as 64 bytes r ‖ s. Speed is not a concern here (a few per scenario).
 */
import { createHmac } from "node:crypto";

const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const GX = 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n;
const GY = 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n;

/** A point in Jacobian coordinates (x/z², y/z³); z = 0 is the point at infinity. */
type Jacobian = { x: bigint; y: bigint; z: bigint };

const mod = (a: bigint, m: bigint) => {
  const r = a % m;
  return r < 0n ? r + m : r;
};

function invert(a: bigint, m: bigint): bigint {
  let [low, high] = [mod(a, m), m];
  let [lm, hm] = [1n, 0n];
  while (low > 1n) {
    const q = high / low;
    [lm, hm] = [hm - lm * q, lm];
    [low, high] = [high - low * q, low];
  }
  return mod(lm, m);
}

function double(p: Jacobian): Jacobian {
  if (p.z === 0n || p.y === 0n) return { x: 0n, y: 1n, z: 0n };
  const ysq = mod(p.y * p.y, P);
  const s = mod(4n * p.x * ysq, P);
  const m = mod(3n * p.x * p.x, P); // a = 0 for secp256k1
  const x = mod(m * m - 2n * s, P);
  const y = mod(m * (s - x) - 8n * ysq * ysq, P);
  return { x, y, z: mod(2n * p.y * p.z, P) };
}

function add(p: Jacobian, q: Jacobian): Jacobian {
  if (p.z === 0n) return q;
  if (q.z === 0n) return p;
  const pz2 = mod(p.z * p.z, P);
  const qz2 = mod(q.z * q.z, P);
  const u1 = mod(p.x * qz2, P);
  const u2 = mod(q.x * pz2, P);
  const s1 = mod(p.y * qz2 * q.z, P);
  const s2 = mod(q.y * pz2 * p.z, P);
  if (u1 === u2) return s1 === s2 ? double(p) : { x: 0n, y: 1n, z: 0n };
  const h = mod(u2 - u1, P);
  const r = mod(s2 - s1, P);
  const h2 = mod(h * h, P);
  const h3 = mod(h * h2, P);
  const u1h2 = mod(u1 * h2, P);
  const x = mod(r * r - h3 - 2n * u1h2, P);
  const y = mod(r * (u1h2 - x) - s1 * h3, P);
  return { x, y, z: mod(h * p.z * q.z, P) };
}

function multiplyG(k: bigint): { x: bigint; y: bigint } {
  let result: Jacobian = { x: 0n, y: 1n, z: 0n };
  let addend: Jacobian = { x: GX, y: GY, z: 1n };
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = add(result, addend);
    addend = double(addend);
  }
  const zInv = invert(result.z, P);
  const zInv2 = mod(zInv * zInv, P);
  return { x: mod(result.x * zInv2, P), y: mod(result.y * zInv2 * zInv, P) };
}

function toBytes32(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, "0"), "hex");
}

function toBigint(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
}

/** RFC 6979 section 3.2 with HMAC-SHA256, for a 32-byte message hash. */
function deterministicNonce(privateKey: bigint, hash: Uint8Array): bigint {
  const x = toBytes32(privateKey);
  const h = toBytes32(mod(toBigint(hash), N));
  const hmac = (key: Uint8Array, ...parts: Uint8Array[]): Uint8Array => {
    const mac = createHmac("sha256", key);
    for (const part of parts) mac.update(part);
    return mac.digest();
  };
  let v: Uint8Array = Buffer.alloc(32, 0x01);
  let k: Uint8Array = Buffer.alloc(32, 0x00);
  k = hmac(k, v, Buffer.of(0x00), x, h);
  v = hmac(k, v);
  k = hmac(k, v, Buffer.of(0x01), x, h);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const candidate = toBigint(v);
    if (candidate >= 1n && candidate < N) return candidate;
    k = hmac(k, v, Buffer.of(0x00));
    v = hmac(k, v);
  }
}

/** Signs a 32-byte hash; returns r ‖ s (64 bytes) with s in the lower half of the order. */
export function signSecp256k1(privateKey: Uint8Array, hash: Uint8Array): Uint8Array {
  const d = toBigint(privateKey);
  if (d <= 0n || d >= N) throw new RangeError("secp256k1 private key out of range");
  const z = mod(toBigint(hash), N);
  const k = deterministicNonce(d, hash);
  const r = mod(multiplyG(k).x, N);
  let s = mod(invert(k, N) * (z + r * d), N);
  if (r === 0n || s === 0n) throw new Error("degenerate ECDSA signature");
  if (s > N / 2n) s = N - s;
  return new Uint8Array(Buffer.concat([toBytes32(r), toBytes32(s)]));
}

/**
 * XXH64 (seed 0), the checksum a zstd frame may end with (its low 32 bits). It runs over every byte of a
 * checksummed block, so 64-bit lanes are kept as pairs of 32-bit halves (no bigint): a 64-bit product is built
 * from 16-bit partial products of the low halves plus `Math.imul` of the cross terms.
 */

// The five primes, as high and low halves.
const P1_HI = 0x9e3779b1;
const P1_LO = 0x85ebca87;
const P2_HI = 0xc2b2ae3d;
const P2_LO = 0x27d4eb4f;
const P3_HI = 0x165667b1;
const P3_LO = 0x9e3779f9;
const P4_HI = 0x85ebca77;
const P4_LO = 0xc2b2ae63;
const P5_HI = 0x27d4eb2f;
const P5_LO = 0x165667c5;

/** The result of the last 64-bit operation (module scratch: the functions below are not reentrant). */
let hi = 0;
let lo = 0;

/** (aHi, aLo) × (bHi, bLo) mod 2^64 into (hi, lo). */
function mul(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  lo = ((mid << 16) | (p00 & 0xffff)) >>> 0;
  hi =
    (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(aHi, bLo) + Math.imul(aLo, bHi)) >>> 0;
}

/** (aHi, aLo) + (bHi, bLo) mod 2^64 into (hi, lo). */
function add(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const sum = aLo + bLo;
  lo = sum >>> 0;
  hi = (aHi + bHi + (sum > 0xffffffff ? 1 : 0)) >>> 0;
}

/** (aHi, aLo) rotated left by `n` (0 < n < 32) into (hi, lo). */
function rotl(aHi: number, aLo: number, n: number): void {
  hi = ((aHi << n) | (aLo >>> (32 - n))) >>> 0;
  lo = ((aLo << n) | (aHi >>> (32 - n))) >>> 0;
}

/** round(acc, input) = rotl(acc + input × P2, 31) × P1, into (hi, lo). */
function round(accHi: number, accLo: number, inHi: number, inLo: number): void {
  mul(inHi, inLo, P2_HI, P2_LO);
  add(accHi, accLo, hi, lo);
  rotl(hi, lo, 31);
  mul(hi, lo, P1_HI, P1_LO);
}

/**
 * One stripe lane, round(v, input), with lane `i` of `lanes` (high, low halves at 2i, 2i + 1) updated in place:
 * the loop over a block's bytes, so everything stays in locals (no shared scratch) and the two products are
 * written out.
 */
function stripeLane(lanes: Uint32Array, i: number, inHi: number, inLo: number): void {
  // input × P2
  let a0 = inLo & 0xffff;
  let a1 = inLo >>> 16;
  let p00 = a0 * (P2_LO & 0xffff);
  let p01 = a0 * (P2_LO >>> 16);
  let p10 = a1 * (P2_LO & 0xffff);
  let mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  let lo = ((mid << 16) | (p00 & 0xffff)) >>> 0;
  let hi =
    (a1 * (P2_LO >>> 16) +
      (p01 >>> 16) +
      (p10 >>> 16) +
      (mid >>> 16) +
      Math.imul(inHi, P2_LO) +
      Math.imul(inLo, P2_HI)) >>>
    0;
  // + v
  const vLo = lanes[2 * i + 1]!;
  const sum = vLo + lo;
  lo = sum >>> 0;
  hi = (lanes[2 * i]! + hi + (sum > 0xffffffff ? 1 : 0)) >>> 0;
  // rotl 31
  const rHi = ((hi << 31) | (lo >>> 1)) >>> 0;
  const rLo = ((lo << 31) | (hi >>> 1)) >>> 0;
  // × P1
  a0 = rLo & 0xffff;
  a1 = rLo >>> 16;
  p00 = a0 * (P1_LO & 0xffff);
  p01 = a0 * (P1_LO >>> 16);
  p10 = a1 * (P1_LO & 0xffff);
  mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  lanes[2 * i + 1] = ((mid << 16) | (p00 & 0xffff)) >>> 0;
  lanes[2 * i] =
    (a1 * (P1_LO >>> 16) +
      (p01 >>> 16) +
      (p10 >>> 16) +
      (mid >>> 16) +
      Math.imul(rHi, P1_LO) +
      Math.imul(rLo, P1_HI)) >>>
    0;
}

const lanes = new Uint32Array(8);

const readLo = (data: Uint8Array, at: number) =>
  (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;

/** XXH64 of `data` with seed 0, as [high 32 bits, low 32 bits]. */
export function xxhash64(data: Uint8Array): [number, number] {
  const length = data.length;
  let at = 0;
  let hHi: number;
  let hLo: number;
  if (length >= 32) {
    add(P1_HI, P1_LO, P2_HI, P2_LO);
    let v1Hi = hi;
    let v1Lo = lo;
    let v2Hi = P2_HI;
    let v2Lo = P2_LO;
    let v3Hi = 0;
    let v3Lo = 0;
    // 0 - P1
    let v4Lo = (0 - P1_LO) >>> 0;
    let v4Hi = ~P1_HI >>> 0; // no borrow into the high half: P1_LO is not 0
    lanes.set([v1Hi, v1Lo, v2Hi, v2Lo, v3Hi, v3Lo, v4Hi, v4Lo]);
    for (const limit = length - 32; at <= limit; at += 32) {
      stripeLane(lanes, 0, readLo(data, at + 4), readLo(data, at));
      stripeLane(lanes, 1, readLo(data, at + 12), readLo(data, at + 8));
      stripeLane(lanes, 2, readLo(data, at + 20), readLo(data, at + 16));
      stripeLane(lanes, 3, readLo(data, at + 28), readLo(data, at + 24));
    }
    v1Hi = lanes[0]!;
    v1Lo = lanes[1]!;
    v2Hi = lanes[2]!;
    v2Lo = lanes[3]!;
    v3Hi = lanes[4]!;
    v3Lo = lanes[5]!;
    v4Hi = lanes[6]!;
    v4Lo = lanes[7]!;
    rotl(v1Hi, v1Lo, 1);
    let sHi = hi;
    let sLo = lo;
    rotl(v2Hi, v2Lo, 7);
    add(sHi, sLo, hi, lo);
    sHi = hi;
    sLo = lo;
    rotl(v3Hi, v3Lo, 12);
    add(sHi, sLo, hi, lo);
    sHi = hi;
    sLo = lo;
    rotl(v4Hi, v4Lo, 18);
    add(sHi, sLo, hi, lo);
    hHi = hi;
    hLo = lo;
    for (const [vHi, vLo] of [
      [v1Hi, v1Lo],
      [v2Hi, v2Lo],
      [v3Hi, v3Lo],
      [v4Hi, v4Lo],
    ] as const) {
      round(0, 0, vHi, vLo);
      mul((hHi ^ hi) >>> 0, (hLo ^ lo) >>> 0, P1_HI, P1_LO);
      add(hi, lo, P4_HI, P4_LO);
      hHi = hi;
      hLo = lo;
    }
  } else {
    hHi = P5_HI;
    hLo = P5_LO;
  }
  // + length (below 2^53)
  add(hHi, hLo, Math.floor(length / 0x100000000) >>> 0, length >>> 0);
  hHi = hi;
  hLo = lo;
  for (; at + 8 <= length; at += 8) {
    round(0, 0, readLo(data, at + 4), readLo(data, at));
    rotl((hHi ^ hi) >>> 0, (hLo ^ lo) >>> 0, 27);
    mul(hi, lo, P1_HI, P1_LO);
    add(hi, lo, P4_HI, P4_LO);
    hHi = hi;
    hLo = lo;
  }
  if (at + 4 <= length) {
    mul(0, readLo(data, at), P1_HI, P1_LO);
    rotl((hHi ^ hi) >>> 0, (hLo ^ lo) >>> 0, 23);
    mul(hi, lo, P2_HI, P2_LO);
    add(hi, lo, P3_HI, P3_LO);
    hHi = hi;
    hLo = lo;
    at += 4;
  }
  for (; at < length; at++) {
    mul(0, data[at]!, P5_HI, P5_LO);
    rotl((hHi ^ hi) >>> 0, (hLo ^ lo) >>> 0, 11);
    mul(hi, lo, P1_HI, P1_LO);
    hHi = hi;
    hLo = lo;
  }
  // Avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32.
  mul(hHi, (hLo ^ (hHi >>> 1)) >>> 0, P2_HI, P2_LO);
  hHi = hi;
  hLo = lo;
  mul((hHi ^ (hHi >>> 29)) >>> 0, (hLo ^ ((hLo >>> 29) | (hHi << 3))) >>> 0, P3_HI, P3_LO);
  return [hi, (lo ^ hi) >>> 0];
}

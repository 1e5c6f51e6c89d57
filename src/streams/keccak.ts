/**
 * Keccak-256: the original Keccak padding that Ethereum uses (not FIPS SHA3-256, the only one `node:crypto`
 * offers). Block streams leave a contract log's bloom to the reader, and a bloom takes one Keccak-256 per log
 * address and topic, so this runs on the ingest path: 64-bit lanes are kept as pairs of 32-bit halves, never as
 * bigint.
 */

const RATE_BYTES = 136;
const ROUNDS = 24;

/** Round constants (ι), as low and high halves. */
const ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];
const RC_LO = Uint32Array.from(ROUND_CONSTANTS, (c) => Number(c & 0xffffffffn));
const RC_HI = Uint32Array.from(ROUND_CONSTANTS, (c) => Number(c >> 32n));

/** ρ rotation of lane x + 5y. */
const ROTATION = [
  0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];
/** π: where lane x + 5y goes, y + 5((2x + 3y) mod 5). */
const DESTINATION = Array.from({ length: 25 }, (_, i) => {
  const x = i % 5;
  const y = Math.floor(i / 5);
  return y + 5 * ((2 * x + 3 * y) % 5);
});

const state = new Uint32Array(50);
const moved = new Uint32Array(50);
const columns = new Uint32Array(10);

function permute(s: Uint32Array): void {
  for (let round = 0; round < ROUNDS; round++) {
    // θ
    for (let x = 0; x < 5; x++) {
      columns[2 * x] = s[2 * x]! ^ s[2 * x + 10]! ^ s[2 * x + 20]! ^ s[2 * x + 30]! ^ s[2 * x + 40]!;
      columns[2 * x + 1] = s[2 * x + 1]! ^ s[2 * x + 11]! ^ s[2 * x + 21]! ^ s[2 * x + 31]! ^ s[2 * x + 41]!;
    }
    for (let x = 0; x < 5; x++) {
      const next = ((x + 1) % 5) * 2;
      const previous = ((x + 4) % 5) * 2;
      const lo = columns[next]!;
      const hi = columns[next + 1]!;
      const dLo = columns[previous]! ^ ((lo << 1) | (hi >>> 31));
      const dHi = columns[previous + 1]! ^ ((hi << 1) | (lo >>> 31));
      for (let y = 0; y < 25; y += 5) {
        s[2 * (x + y)] = s[2 * (x + y)]! ^ dLo;
        s[2 * (x + y) + 1] = s[2 * (x + y) + 1]! ^ dHi;
      }
    }
    // ρ and π
    for (let i = 0; i < 25; i++) {
      const lo = s[2 * i]!;
      const hi = s[2 * i + 1]!;
      const n = ROTATION[i]!;
      const to = 2 * DESTINATION[i]!;
      if (n === 0) {
        moved[to] = lo;
        moved[to + 1] = hi;
      } else if (n < 32) {
        moved[to] = (lo << n) | (hi >>> (32 - n));
        moved[to + 1] = (hi << n) | (lo >>> (32 - n));
      } else if (n === 32) {
        moved[to] = hi;
        moved[to + 1] = lo;
      } else {
        const m = n - 32;
        moved[to] = (hi << m) | (lo >>> (32 - m));
        moved[to + 1] = (lo << m) | (hi >>> (32 - m));
      }
    }
    // χ
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        const at = 2 * (x + y);
        const a = 2 * (((x + 1) % 5) + y);
        const b = 2 * (((x + 2) % 5) + y);
        s[at] = moved[at]! ^ (~moved[a]! & moved[b]!);
        s[at + 1] = moved[at + 1]! ^ (~moved[a + 1]! & moved[b + 1]!);
      }
    }
    // ι
    s[0] = s[0]! ^ RC_LO[round]!;
    s[1] = s[1]! ^ RC_HI[round]!;
  }
}

/** XORs `length` bytes of `data` from `from` into the state, little-endian lanes. */
function absorb(data: Uint8Array, from: number, length: number): void {
  for (let i = 0; i < length; i++) {
    const at = i >>> 2;
    state[at] = state[at]! ^ (data[from + i]! << (8 * (i & 3)));
  }
}

/** Keccak-256 of `data` (32 bytes). */
export function keccak256(data: Uint8Array): Uint8Array {
  state.fill(0);
  let at = 0;
  for (; data.length - at >= RATE_BYTES; at += RATE_BYTES) {
    absorb(data, at, RATE_BYTES);
    permute(state);
  }
  const last = new Uint8Array(RATE_BYTES);
  last.set(data.subarray(at));
  last[data.length - at] = 0x01;
  last[RATE_BYTES - 1] = last[RATE_BYTES - 1]! | 0x80;
  absorb(last, 0, RATE_BYTES);
  permute(state);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = (state[i >>> 2]! >>> (8 * (i & 3))) & 0xff;
  return out;
}

/**
 * Keccak-256 (the original Keccak padding that Ethereum uses, not FIPS SHA3-256, which `node:crypto`
 * offers). The simulator needs it only to derive the EVM address of an ECDSA secp256k1 key, a handful of
 * times per scenario, so this favours brevity (64-bit lanes as bigint) over speed.
 */

const MASK_64 = (1n << 64n) - 1n;
const RATE_BYTES = 136;

const ROUND_CONSTANTS: bigint[] = [
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

// Rotation offsets r[x][y], indexed as x + 5 * y.
const ROTATIONS: number[] = [
  0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

function rotl(value: bigint, shift: number): bigint {
  if (shift === 0) return value;
  const s = BigInt(shift);
  return ((value << s) | (value >> (64n - s))) & MASK_64;
}

function keccakF(state: bigint[]): void {
  const c = new Array<bigint>(5);
  const b = new Array<bigint>(25);
  for (const rc of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++) {
      c[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!;
    }
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) state[x + y] = state[x + y]! ^ d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(state[x + 5 * y]!, ROTATIONS[x + 5 * y]!);
      }
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 25; y += 5) {
        state[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK_64 & b[((x + 2) % 5) + y]!);
      }
    }
    state[0] = state[0]! ^ rc;
  }
}

/** Keccak-256 of `data`: 32 bytes. */
export function keccak256(data: Uint8Array): Uint8Array {
  return sponge256(data, 0x01);
}

/**
 * The 256-bit Keccak sponge with the given domain padding byte: 0x01 is Keccak-256, 0x06 is FIPS SHA3-256
 * (which lets tests check the permutation against `node:crypto`).
 */
export function sponge256(data: Uint8Array, domainPad: number): Uint8Array {
  const padded = new Uint8Array(Math.ceil((data.length + 1) / RATE_BYTES) * RATE_BYTES);
  padded.set(data);
  padded[data.length] = domainPad;
  padded[padded.length - 1]! |= 0x80;
  const state = new Array<bigint>(25).fill(0n);
  const view = new DataView(padded.buffer);
  for (let block = 0; block < padded.length; block += RATE_BYTES) {
    for (let lane = 0; lane < RATE_BYTES / 8; lane++) {
      state[lane] = state[lane]! ^ view.getBigUint64(block + lane * 8, true);
    }
    keccakF(state);
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let lane = 0; lane < 4; lane++) outView.setBigUint64(lane * 8, state[lane]!, true);
  return out;
}

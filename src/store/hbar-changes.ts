/**
 * The blob of an `hbar_balance` row whose account changed more than once in one record file: every
 * (consensus_ns, balance) pair of the file in consensus order, each as two little-endian int64s (16 bytes), so a
 * lookup at T is a binary search without decoding the whole blob. Little-endian lets the writer fill it with one
 * native typed-array copy.
 */
const ENTRY_BYTES = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Encodes a flat [t0, b0, t1, b1, ...] list. */
export function encodeChanges(flat: readonly bigint[]): Uint8Array {
  const words = new BigInt64Array(flat.length);
  for (let i = 0; i < flat.length; i++) words[i] = flat[i] ?? 0n;
  // Typed arrays use the platform's byte order; write explicitly where it is not little-endian.
  if (!LITTLE_ENDIAN) {
    const view = new DataView(words.buffer);
    for (let i = 0; i < flat.length; i++) view.setBigInt64(i * 8, flat[i] ?? 0n, true);
  }
  return new Uint8Array(words.buffer);
}

/** The balance of the last pair at or before `atNs`, or null when every pair is later. */
export function balanceInChanges(blob: Uint8Array, atNs: bigint): bigint | null {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  let low = 0;
  let high = Math.floor(blob.byteLength / ENTRY_BYTES) - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (view.getBigInt64(mid * ENTRY_BYTES, true) <= atNs) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found < 0 ? null : view.getBigInt64(found * ENTRY_BYTES + 8, true);
}

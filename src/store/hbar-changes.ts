/**
 * The blob of an `hbar_balance` row whose account changed more than once in one record file: every
 * (consensus_ns, balance) pair of the file in consensus order, each as two big-endian int64s (16 bytes), so a
 * lookup at T is a binary search without decoding the whole blob.
 */
const ENTRY_BYTES = 16;

/** Encodes a flat [t0, b0, t1, b1, ...] list. */
export function encodeChanges(flat: readonly bigint[]): Uint8Array {
  const bytes = Buffer.alloc((flat.length / 2) * ENTRY_BYTES);
  for (let i = 0; i < flat.length; i += 2) {
    bytes.writeBigInt64BE(flat[i] ?? 0n, i * 8);
    bytes.writeBigInt64BE(flat[i + 1] ?? 0n, i * 8 + 8);
  }
  return bytes;
}

/** The balance of the last pair at or before `atNs`, or null when every pair is later. */
export function balanceInChanges(blob: Uint8Array, atNs: bigint): bigint | null {
  const view = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  let low = 0;
  let high = Math.floor(view.length / ENTRY_BYTES) - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (view.readBigInt64BE(mid * ENTRY_BYTES) <= atNs) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found < 0 ? null : view.readBigInt64BE(found * ENTRY_BYTES + 8);
}

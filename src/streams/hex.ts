/** Byte helpers for hashes: hex for messages, equality for checks. */

/** Lower-case hex of the bytes (no copy of the underlying memory). */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** True when both hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** True when every byte is zero (how a stream's first file marks "no previous hash"). */
export function isAllZero(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}

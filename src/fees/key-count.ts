import type { proto } from "../streams/proto.ts";

/**
 * The fee library's `countKeys`: an ED25519, ECDSA secp256k1 or ECDSA P-384 key counts 1; a key list or
 * threshold key counts the keys under it (the threshold is ignored); contract ids, RSA and unset keys count 0.
 * Iterative, so a hostile, deeply nested key cannot exhaust the stack.
 */
export function countKeys(key: proto.IKey | null | undefined): bigint {
  let count = 0n;
  const pending: Array<proto.IKey | null | undefined> = [key];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next == null) continue;
    if (hasBytes(next.ed25519) || hasBytes(next.ECDSASecp256k1) || hasBytes(next.ECDSA_384)) {
      count += 1n;
    } else if (next.keyList) {
      for (const child of next.keyList.keys ?? []) pending.push(child);
    } else if (next.thresholdKey) {
      for (const child of next.thresholdKey.keys?.keys ?? []) pending.push(child);
    }
  }
  return count;
}

/** A oneof bytes field that is set (protobufjs leaves unset ones null or absent). */
function hasBytes(value: Uint8Array | null | undefined): boolean {
  return value != null;
}

/** Σ countKeys over several optional keys. */
export function countAllKeys(keys: ReadonlyArray<proto.IKey | null | undefined>): bigint {
  let count = 0n;
  for (const key of keys) count += countKeys(key);
  return count;
}

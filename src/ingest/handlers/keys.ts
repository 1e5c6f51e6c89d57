import { proto } from "../../streams/proto.ts";

/** The protobuf `Key` bytes the mirror node stores for a key (null when the body sets none). */
export function keyBytes(key: proto.IKey | null | undefined): Uint8Array | null {
  if (key == null) return null;
  return proto.Key.encode(key).finish();
}

/**
 * The entity's `public_key`: lower-case hex of the one primitive key inside `key` when it is primitive, a
 * one-element key list, or a threshold key over a one-element list; otherwise null.
 */
export function publicKeyOf(key: proto.IKey | null | undefined): string | null {
  if (key == null) return null;
  const primitive = key.ed25519 ?? key.ECDSASecp256k1 ?? key.ECDSA_384 ?? key.RSA_3072;
  if (primitive != null && primitive.length > 0) return Buffer.from(primitive).toString("hex");
  const list = key.keyList?.keys ?? key.thresholdKey?.keys?.keys;
  if (list != null && list.length === 1) {
    const only = list[0];
    const inner = only?.ed25519 ?? only?.ECDSASecp256k1 ?? only?.ECDSA_384 ?? only?.RSA_3072;
    if (inner != null && inner.length > 0) return Buffer.from(inner).toString("hex");
  }
  return null;
}

/** `publicKeyOf` for protobuf `Key` bytes; null when they do not decode as a key. */
export function publicKeyOfBytes(bytes: Uint8Array | null): string | null {
  if (bytes === null || bytes.length === 0) return null;
  try {
    return publicKeyOf(proto.Key.decode(bytes));
  } catch {
    return null;
  }
}

/**
 * A protobuf `Key` as the mirror node prints it: `{_type, key}` with lower-case hex. A plain ED25519 or
 * ECDSA(secp256k1) key, or one wrapped in a one-element key list or a 1-of-1 threshold key, shows the raw
 * public key; the empty key list (an immutable entity's sentinel) shows null; anything else is
 * `ProtobufEncoded` with the full protobuf hex.
 */
export type KeyView = { _type: "ED25519" | "ECDSA_SECP256K1" | "ProtobufEncoded"; key: string } | null;

const ED25519_PREFIXES = ["1220", "32240a221220", "2a28080112240a221220"];
const ECDSA_PREFIXES = ["3a21", "32250a233a21", "2a29080112250a233a21"];
const EMPTY_KEY_LIST = "3200";

export function keyView(bytes: Uint8Array | null | undefined): KeyView {
  if (bytes == null) return null;
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  if (hex === EMPTY_KEY_LIST) return null;
  const ed = unwrap(hex, ED25519_PREFIXES, 64);
  if (ed !== null) return { _type: "ED25519", key: ed };
  const ecdsa = unwrap(hex, ECDSA_PREFIXES, 66);
  if (ecdsa !== null) return { _type: "ECDSA_SECP256K1", key: ecdsa };
  return { _type: "ProtobufEncoded", key: hex };
}

function unwrap(hex: string, prefixes: readonly string[], keyDigits: number): string | null {
  for (const prefix of prefixes) {
    if (hex.length === prefix.length + keyDigits && hex.startsWith(prefix)) return hex.slice(prefix.length);
  }
  return null;
}

/**
 * A key as the Java service prints it (`CommonMapper.mapKey`): the same shapes, except that the empty key list
 * is not null there but `{"_type":"ProtobufEncoded","key":"3200"}`.
 */
export function javaKeyView(bytes: Uint8Array | null | undefined): KeyView {
  if (bytes == null) return null;
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  return hex === EMPTY_KEY_LIST ? { _type: "ProtobufEncoded", key: hex } : keyView(bytes);
}

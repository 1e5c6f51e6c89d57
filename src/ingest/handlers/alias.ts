import { ECDH } from "node:crypto";
import { keccak256 } from "../../streams/keccak.ts";
import { proto } from "../../streams/proto.ts";

export const EVM_ADDRESS_BYTES = 20;

/**
 * The EVM address an account alias implies (upstream `Utility.aliasToEvmAddress`): a 20-byte alias is an
 * address itself; a protobuf `Key` holding one ECDSA secp256k1 key gives the last 20 bytes of the Keccak-256
 * hash of the uncompressed public key; any other alias (an ED25519 key) gives none.
 */
export function aliasToEvmAddress(alias: Uint8Array): Uint8Array | null {
  if (alias.length === EVM_ADDRESS_BYTES) return alias;
  let key: proto.Key;
  try {
    key = proto.Key.decode(alias);
  } catch {
    return null;
  }
  const compressed = key.ECDSASecp256k1;
  if (key.key !== "ECDSASecp256k1" || compressed == null || compressed.length !== 33) return null;
  try {
    const uncompressed = ECDH.convertKey(compressed, "secp256k1", undefined, undefined, "uncompressed");
    return keccak256((uncompressed as Buffer).subarray(1)).subarray(12);
  } catch {
    // Not a point on the curve.
    return null;
  }
}

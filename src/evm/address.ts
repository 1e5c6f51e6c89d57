import { decodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from "../ids.ts";

/**
 * Hedera's "long-zero" EVM address of an entity: 4 bytes of shard, 8 of realm, 8 of num (big-endian). Every
 * account, contract and token answers at it; contracts made by CREATE2 or an Ethereum transaction, and ECDSA
 * accounts with an EVM-address alias, also at their own 20 bytes.
 */
export function longZeroAddress(id: bigint): Uint8Array {
  const { shard, realm, num } = decodeEntityId(id);
  const bytes = new Uint8Array(20);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, Number(shard));
  view.setBigUint64(4, realm);
  view.setBigUint64(12, num);
  return bytes;
}

/** The shard, realm and num a 20-byte address spells as a long-zero address, or null when it cannot be one. */
export function longZeroParts(address: Uint8Array): { shard: bigint; realm: bigint; num: bigint } | null {
  if (address.length !== 20) return null;
  const view = new DataView(address.buffer, address.byteOffset, 20);
  const shard = BigInt(view.getUint32(0));
  const realm = view.getBigUint64(4);
  const num = view.getBigUint64(12);
  if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) return null;
  return { shard, realm, num };
}

/** 40 lower-case hex digits, no prefix. */
export function addressHex(address: Uint8Array): string {
  return Buffer.from(address.buffer, address.byteOffset, address.length).toString("hex");
}

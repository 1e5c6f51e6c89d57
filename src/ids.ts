import type Long from "long";
import { toBigInt } from "./streams/long.ts";

/**
 * Entity ids as the mirror node stores and sorts them: one signed int64 packing shard (10 bits), realm (16 bits)
 * and num (38 bits). Sorting the packed value sorts by (shard, realm, num) for shards below 512; above that the
 * value turns negative, exactly as upstream's does, so it always fits an SQLite INTEGER.
 */
const NUM_BITS = 38n;
const REALM_BITS = 16n;
const SHARD_BITS = 10n;
const NUM_MASK = (1n << NUM_BITS) - 1n;
const REALM_MASK = (1n << REALM_BITS) - 1n;
export const MAX_NUM = NUM_MASK;
export const MAX_REALM = REALM_MASK;
export const MAX_SHARD = (1n << SHARD_BITS) - 1n;

export type EntityIdParts = { readonly shard: bigint; readonly realm: bigint; readonly num: bigint };

/** Packs shard.realm.num; throws RangeError outside the 10/16/38-bit limits. */
export function encodeEntityId(shard: bigint, realm: bigint, num: bigint): bigint {
  if (shard < 0n || shard > MAX_SHARD || realm < 0n || realm > MAX_REALM || num < 0n || num > MAX_NUM) {
    throw new RangeError(`entity ID ${shard}.${realm}.${num} is outside 10/16/38-bit shard/realm/num`);
  }
  return BigInt.asIntN(64, (shard << (NUM_BITS + REALM_BITS)) | (realm << NUM_BITS) | num);
}

export function decodeEntityId(encoded: bigint): EntityIdParts {
  const shardRealm = encoded >> NUM_BITS;
  return {
    shard: BigInt.asUintN(Number(SHARD_BITS), shardRealm >> REALM_BITS),
    realm: shardRealm & REALM_MASK,
    num: encoded & NUM_MASK,
  };
}

/** `"shard.realm.num"`, or null for an unset id (upstream prints the all-zero id as null). */
export function formatEntityId(encoded: bigint | null | undefined): string | null {
  if (encoded == null || encoded === 0n) return null;
  const { shard, realm, num } = decodeEntityId(encoded);
  return `${shard}.${realm}.${num}`;
}

type ProtoNum = Long | number | null | undefined;
type ProtoEntityId = {
  shardNum?: ProtoNum;
  realmNum?: ProtoNum;
  accountNum?: ProtoNum;
  tokenNum?: ProtoNum;
  fileNum?: ProtoNum;
  contractNum?: ProtoNum;
  topicNum?: ProtoNum;
  scheduleNum?: ProtoNum;
};

/** Packs a HAPI AccountID/TokenID/FileID/... message; null when the message is absent or names no number. */
export function entityIdOf(id: ProtoEntityId | null | undefined): bigint | null {
  if (id == null) return null;
  const num = id.accountNum ?? id.tokenNum ?? id.fileNum ?? id.contractNum ?? id.topicNum ?? id.scheduleNum;
  if (num == null) return null;
  // Shard 0, realm 0 (every network so far): the packed id is the num itself.
  if (isZero(id.shardNum) && isZero(id.realmNum)) {
    const packed = toBigInt(num);
    if (packed >= 0n && packed <= MAX_NUM) return packed;
  }
  return encodeEntityId(toBigInt(id.shardNum), toBigInt(id.realmNum), toBigInt(num));
}

function isZero(value: ProtoNum): boolean {
  return value == null || (typeof value === "number" ? value === 0 : value.high === 0 && value.low === 0);
}

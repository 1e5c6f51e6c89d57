import type Long from "long";
import { toBigInt } from "./streams/long.ts";

/**
 * Entity ids as the mirror node stores and sorts them: one int64 packing shard (10 bits), realm (16 bits) and
 * num (38 bits). Sorting the packed value sorts by (shard, realm, num).
 */
const NUM_BITS = 38n;
const REALM_BITS = 16n;
const NUM_MASK = (1n << NUM_BITS) - 1n;
const REALM_MASK = (1n << REALM_BITS) - 1n;

export function encodeEntityId(shard: bigint, realm: bigint, num: bigint): bigint {
  return (shard << (NUM_BITS + REALM_BITS)) | (realm << NUM_BITS) | num;
}

/** `"shard.realm.num"`, or null for num 0 (the mirror node prints an unset id as null). */
export function formatEntityId(encoded: bigint | null | undefined): string | null {
  if (encoded == null) return null;
  const num = encoded & NUM_MASK;
  if (num === 0n) return null;
  const realm = (encoded >> NUM_BITS) & REALM_MASK;
  const shard = encoded >> (NUM_BITS + REALM_BITS);
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
  return encodeEntityId(toBigInt(id.shardNum), toBigInt(id.realmNum), toBigInt(num));
}

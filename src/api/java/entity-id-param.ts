/**
 * Entity ID path variables of the Java service (`EntityIdNumParameter`): `num`, `realm.num` or
 * `shard.realm.num`, at most 4 shard, 5 realm and 12 num digits, the configured shard and realm filling in what
 * is left out, then the 10/16/38-bit limits. Anything else does not convert (`Failed to convert '<name>'`).
 */
import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from "../../ids.ts";

const PART_DIGITS = [4, 5, 12] as const;

function isDigits(text: string, maxLength: number): boolean {
  if (text.length === 0 || text.length > maxLength) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** The packed ID a path variable names, or null when it does not convert. */
export function parseJavaEntityIdNum(
  value: string,
  config: { shard?: bigint; realm?: bigint } = {},
): bigint | null {
  const parts = value.split(".");
  if (parts.length > 3) return null;
  const num = parts[parts.length - 1]!;
  if (!isDigits(num, PART_DIGITS[2])) return null;
  let shard = config.shard ?? 0n;
  let realm = config.realm ?? 0n;
  if (parts.length === 3) {
    if (!isDigits(parts[0]!, PART_DIGITS[0]) || !isDigits(parts[1]!, PART_DIGITS[1])) return null;
    shard = BigInt(parts[0]!);
    realm = BigInt(parts[1]!);
  } else if (parts.length === 2) {
    // `(\d{1,4}\.)?(\d{1,5}\.)?`: a lone prefix of up to five digits is the realm.
    if (!isDigits(parts[0]!, PART_DIGITS[1])) return null;
    realm = BigInt(parts[0]!);
  }
  const n = BigInt(num);
  if (shard > MAX_SHARD || realm > MAX_REALM || n > MAX_NUM) return null;
  return encodeEntityId(shard, realm, n);
}

/**
 * Whether the public mirror node's ingress sends `/api/v1/topics/<value>` to the Java service: one to three
 * dot-separated runs of digits (`(\d+\.){0,2}\d+`). Other spellings reach the Node service, which has no such
 * route (404).
 */
export function isJavaTopicPath(value: string): boolean {
  const parts = value.split(".");
  return parts.length <= 3 && parts.every((part) => isDigits(part, Number.POSITIVE_INFINITY));
}

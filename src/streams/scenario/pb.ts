/**
 * Small constructors for the HAPI protobuf values the simulator writes. Zero-valued scalars are left out
 * of the objects, because protobufjs encodes every field that is set while a node (PBJ, proto3) omits
 * default values: leaving them out keeps our bytes in the canonical form nodes produce.
 */
import Long from "long";
import type { proto } from "../proto.ts";

const NANOS_PER_SECOND = 1_000_000_000n;

/** A signed int64 for protobufjs. */
export function long(value: bigint): Long {
  return Long.fromBigInt(value);
}

/** `0.0.num`; `0.0.0` becomes an empty message, as nodes write the "no account" sender of a mint. */
export function accountId(num: bigint): proto.IAccountID {
  return num === 0n ? {} : { accountNum: long(num) };
}

export function tokenId(num: bigint): proto.ITokenID {
  return num === 0n ? {} : { tokenNum: long(num) };
}

/** A `Timestamp` from nanoseconds since the epoch. */
export function timestamp(ns: bigint): proto.ITimestamp {
  const seconds = ns / NANOS_PER_SECOND;
  const nanos = Number(ns % NANOS_PER_SECOND);
  const out: proto.ITimestamp = {};
  if (seconds !== 0n) out.seconds = long(seconds);
  if (nanos !== 0) out.nanos = nanos;
  return out;
}

export function duration(seconds: bigint): proto.IDuration {
  return seconds === 0n ? {} : { seconds: long(seconds) };
}

/** `"<seconds>.<9-digit nanos>"`, the form the REST API prints. */
export function formatNs(ns: bigint): string {
  return `${ns / NANOS_PER_SECOND}.${(ns % NANOS_PER_SECOND).toString().padStart(9, "0")}`;
}

/** `0.0.<payer>-<seconds>-<nanos>`, the mirror node's transaction id form. */
export function formatTransactionId(payer: bigint, validStartNs: bigint): string {
  return `0.0.${payer}-${validStartNs / NANOS_PER_SECOND}-${validStartNs % NANOS_PER_SECOND}`;
}

/** `2022-07-13T08_46_08.041986003Z`: an ISO instant with nanoseconds and colons replaced, as stream files are named. */
export function streamFileStem(ns: bigint): string {
  const seconds = ns / NANOS_PER_SECOND;
  const iso = new Date(Number(seconds) * 1000).toISOString(); // whole seconds, so no precision is lost
  const nanos = (ns % NANOS_PER_SECOND).toString().padStart(9, "0");
  return `${iso.slice(0, 19).replaceAll(":", "_")}.${nanos}Z`;
}

/** Parses an ISO-8601 instant with up to nine fractional digits into nanoseconds since the epoch. */
export function parseInstant(text: string): bigint {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(text);
  if (match === null) throw new Error(`not an ISO instant like 2024-01-02T03:04:05.123Z: ${text}`);
  const millis = Date.parse(`${match[1]}Z`);
  if (Number.isNaN(millis)) throw new Error(`not a valid instant: ${text}`);
  const fraction = (match[2] ?? "").padEnd(9, "0");
  return BigInt(millis / 1000) * NANOS_PER_SECOND + BigInt(fraction);
}

const DURATION_UNITS_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  ms: 1_000_000n,
  s: NANOS_PER_SECOND,
  m: 60n * NANOS_PER_SECOND,
  h: 3_600n * NANOS_PER_SECOND,
  d: 86_400n * NANOS_PER_SECOND,
};

/** Parses `250ms`, `3s`, `90d`, `1h30m` into nanoseconds. */
export function parseDurationNs(text: string): bigint {
  const parts = [...text.matchAll(/(\d+)(ns|us|ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text.replaceAll(" ", "")) {
    throw new Error(`not a duration like 250ms, 3s, 90d: ${text}`);
  }
  return parts.reduce((sum, p) => sum + BigInt(p[1]!) * DURATION_UNITS_NS[p[2]!]!, 0n);
}

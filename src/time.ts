import type Long from "long";
import { toBigInt } from "./streams/long.ts";

const NANOS_PER_SECOND = 1_000_000_000n;

/** A HAPI `Timestamp` as int64 nanoseconds since the epoch. */
export function timestampToNs(
  ts: { seconds?: Long | number | null; nanos?: number | null } | null | undefined,
): bigint {
  if (ts == null) return 0n;
  return toBigInt(ts.seconds) * NANOS_PER_SECOND + BigInt(ts.nanos ?? 0);
}

/** `"<seconds>.<9-digit nanoseconds>"`, the REST API's timestamp form. */
export function formatTimestamp(ns: bigint): string {
  const negative = ns < 0n;
  const abs = negative ? -ns : ns;
  const seconds = abs / NANOS_PER_SECOND;
  const nanos = (abs % NANOS_PER_SECOND).toString().padStart(9, "0");
  return `${negative ? "-" : ""}${seconds}.${nanos}`;
}

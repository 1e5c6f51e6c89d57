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

/** `"<seconds>.<9-digit nanoseconds>"`, the REST API's timestamp form (5430n → `"0.000005430"`). */
export function formatTimestamp(ns: bigint): string {
  const digits = ns.toString();
  const seconds = digits.slice(0, Math.max(0, digits.length - 9)) || "0";
  return `${seconds}.${digits.slice(-9).padStart(9, "0")}`;
}

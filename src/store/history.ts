import { MAX_INT64 } from "../int64.ts";

/** The greatest int64: "as of now" for queries that take an instant. */
export const NOW = MAX_INT64;

/**
 * An instant bound: the version valid at T is the newest one that started at or before T (`lte`), or strictly
 * before T (`lt`). The mirror node treats `eq` as `lte`. Ranges are contiguous, so this is also the version with
 * `valid_from <= T < valid_to`.
 */
export type AsOf = { atNs: bigint; inclusive: boolean };

export const CURRENT: AsOf = { atNs: NOW, inclusive: true };

/**
 * The last nanosecond an `AsOf` includes. A 10-digit timestamp can name an instant past int64 (up to about
 * 10^19 ns), which SQLite cannot bind: such an instant is read as the greatest int64, which no stored time
 * reaches, so "as of" it is "as of now".
 */
export function upperBoundNs(asOf: AsOf): bigint {
  const last = asOf.inclusive ? asOf.atNs : asOf.atNs - 1n;
  return last > MAX_INT64 ? MAX_INT64 : last;
}

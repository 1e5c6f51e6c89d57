/** `2022-07-13T08_46_08.041986003Z.rcd.gz` → 1657701968041986003n: a record file's start, from its name. */
export function fileNameTimeNs(name: string): bigint | null {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d)_(\d\d)_(\d\d)(?:\.(\d{1,9}))?Z/.exec(name);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction = ""] = match;
  const ms = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  if (Number.isNaN(ms)) return null;
  return BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, "0"));
}

/**
 * How far the index is behind the folder, in seconds: the time between the newest complete record file on disk
 * and the last one applied (their names start with their consensus time). Before any file is applied (a fresh
 * index, or one resumed this run), from the oldest file waiting: at least that far behind. 0 when nothing is
 * pending; never NaN, so that an alert on `> N` fires.
 */
export function secondsBehind(
  lastFile: string | null,
  newestFile: string | null,
  oldestPendingFile: string | null = null,
): number {
  if (newestFile === null) return 0;
  const newest = fileNameTimeNs(newestFile);
  const from = lastFile ?? oldestPendingFile;
  const last = from === null ? null : fileNameTimeNs(from);
  if (newest === null || last === null) return 0;
  const behindNs = newest > last ? newest - last : 0n;
  // A gauge is a double: millisecond precision is all a lag needs.
  return Number(behindNs / 1_000_000n) / 1000;
}

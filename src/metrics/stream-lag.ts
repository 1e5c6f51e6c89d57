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
 * How far the index is behind the folders, in seconds: the consensus time between the newest complete file on
 * disk and the last one applied, from their starts. A record file's name starts with its time; a block's name
 * has none, so a newest block's start comes from its header (`starts.newest`) and the last applied file's from
 * what was applied (`starts.last`). Before any file is applied (a fresh index, or one resumed this run), from the
 * oldest file waiting: at least that far behind. 0 when nothing is pending; never NaN, so that an alert on `> N`
 * fires.
 */
export function secondsBehind(
  lastFile: string | null,
  newestFile: string | null,
  oldestPendingFile: string | null = null,
  starts: { last: bigint | null; newest: bigint | null } = { last: null, newest: null },
): number {
  if (newestFile === null || newestFile === lastFile) return 0;
  const newest = fileNameTimeNs(newestFile) ?? starts.newest;
  const from = lastFile ?? oldestPendingFile;
  const last = from === null ? null : (fileNameTimeNs(from) ?? (from === lastFile ? starts.last : null));
  if (newest === null || last === null) return 0;
  const behindNs = newest > last ? newest - last : 0n;
  // A gauge is a double: millisecond precision is all a lag needs.
  return Number(behindNs / 1_000_000n) / 1000;
}

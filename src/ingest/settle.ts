/**
 * When a stream file that carries no completion marker (no `_sig`, no `.mf`) is whole: once its size and
 * modification time have stayed the same for a quiet period. Two looks a few milliseconds apart prove nothing
 * (a writer may pause between two writes), so what counts is how long the file has looked the same, measured on
 * the caller's clock, or how long ago the file system says it was last written.
 */

/** How a file looked, and since when (on the caller's clock) it has looked so. */
export type Look = { size: number; modifiedMs: number | undefined; sinceMs: number };

export type Settling = {
  /** The looks of the previous listing, by file key (name or path). */
  looks: ReadonlyMap<string, Look>;
  nowMs: number;
  /** The quiet period: how long a file must look the same before it is taken as whole. */
  settleMs: number;
};

/** The default quiet period, in ms (`--settle-ms`). */
export const DEFAULT_SETTLE_MS = 1000;

function sameLook(look: Look | undefined, size: number, modifiedMs: number | undefined): look is Look {
  return look !== undefined && look.size === size && look.modifiedMs === modifiedMs;
}

/**
 * Whether a file of `size` bytes last modified at `modifiedMs` is whole: not empty, and unchanged for the quiet
 * period, by an earlier look or by its modification time.
 */
export function isSettled(
  key: string,
  size: number,
  modifiedMs: number | undefined,
  settling: Settling,
): boolean {
  if (size <= 0) return false;
  const { nowMs, settleMs } = settling;
  if (modifiedMs !== undefined && modifiedMs <= nowMs - settleMs) return true;
  const look = settling.looks.get(key);
  return sameLook(look, size, modifiedMs) && nowMs - look.sinceMs >= settleMs;
}

/**
 * The looks to keep after listing `entries` at `nowMs`: a file that looks as before keeps the instant it was
 * first seen so; any change starts the quiet period again.
 */
export function nextLooks(
  entries: Iterable<{ key: string; size: number; modifiedMs: number | undefined }>,
  previous: ReadonlyMap<string, Look>,
  nowMs: number,
): Map<string, Look> {
  const looks = new Map<string, Look>();
  for (const { key, size, modifiedMs } of entries) {
    const look = previous.get(key);
    looks.set(key, sameLook(look, size, modifiedMs) ? look : { size, modifiedMs, sinceMs: nowMs });
  }
  return looks;
}

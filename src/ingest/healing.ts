/**
 * What the ingest worker does when a pass fails. Two kinds of failure, told apart by the error:
 *
 * - a refusal: a complete file that is corrupt, out of chain or badly signed (or a balance snapshot that does not
 *   read). Trying again gives the same answer until someone changes the file, so the worker waits for the file's
 *   size or modification time to change (an operator replacing it) and then looks again;
 * - anything else (EIO, EMFILE, a full disk, a failed commit, a folder that went away): transient. The worker
 *   tries again after a delay that doubles from `baseMs` up to `maxMs`.
 *
 * Either way the index stays at the end of a whole file and the API keeps answering from it.
 */
import { statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { BalanceFileReadError, ChainBreakError, CorruptFileError, SignatureError } from "../errors.ts";

export type Trouble =
  | { kind: "refused"; file: string | null; reason: string; fingerprint: string }
  | { kind: "transient"; file: string | null; reason: string; attempts: number; retryAtMs: number };

/** The first delay before a transient failure is tried again, and the longest. */
export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 60_000;

export function isRefusal(error: unknown): boolean {
  return (
    error instanceof CorruptFileError ||
    error instanceof ChainBreakError ||
    error instanceof SignatureError ||
    error instanceof BalanceFileReadError
  );
}

/** The delay before attempt `attempts + 1`: `baseMs`, doubled per failed attempt, at most `maxMs`. */
export function retryDelayMs(attempts: number, baseMs = RETRY_BASE_MS, maxMs = RETRY_MAX_MS): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

/**
 * How a refused file looks now (size and modification time of each place it may be: file names are relative to
 * one of `folders`), so that a change to it can be noticed. A file that is gone looks different from one present.
 */
export function fingerprintOf(file: string | null, folders: ReadonlyArray<string | null>): string {
  if (file === null) return "";
  const paths = isAbsolute(file)
    ? [file]
    : folders.filter((folder): folder is string => folder !== null).map((folder) => join(folder, file));
  return paths
    .map((path) => {
      try {
        const stats = statSync(path);
        return `${stats.size}:${stats.mtimeMs}`;
      } catch {
        return "-";
      }
    })
    .join("|");
}

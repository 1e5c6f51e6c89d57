/**
 * The single executable writes its SQLite addon to a cache folder and then loads it as native code: whoever can
 * write that folder can make mirrorlite run their code. So the folder must be this user's alone (owned by it, not
 * a symbolic link, no write permission for group or others), and the addon's bytes are compared with the
 * executable's own copy right before they are loaded.
 */
import { lstatSync, mkdirSync, readFileSync } from "node:fs";

/** A folder or file mirrorlite must not trust; the message says which and why. */
export class UnsafeCacheError extends Error {
  override readonly name = "UnsafeCacheError";
}

/**
 * Creates `dir` (and missing parents) only this user can use, or checks the one that exists: throws
 * UnsafeCacheError when it is a symbolic link, not a folder, another user's, or writable by group or others.
 */
export function ensurePrivateFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // Something else by that name: the check says what.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  checkPrivateFolder(dir);
}

/** Throws UnsafeCacheError unless `dir` is a real folder owned by this user that nobody else may write. */
export function checkPrivateFolder(dir: string): void {
  const stats = lstatSync(dir);
  if (stats.isSymbolicLink()) throw new UnsafeCacheError(`cache folder ${dir} is a symbolic link`);
  if (!stats.isDirectory()) throw new UnsafeCacheError(`cache folder ${dir} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new UnsafeCacheError(`cache folder ${dir} belongs to user ${stats.uid}, not to this user (${uid})`);
  }
  if ((stats.mode & 0o022) !== 0) {
    throw new UnsafeCacheError(
      `cache folder ${dir} is writable by other users (mode ${(stats.mode & 0o777).toString(8)}); ` +
        "use a folder only this user can write (MIRRORLITE_CACHE_DIR)",
    );
  }
}

/** Throws UnsafeCacheError unless the file at `path` holds exactly `expected` (read now, just before use). */
export function verifyFileBytes(path: string, expected: Uint8Array): void {
  if (!readFileSync(path).equals(expected)) {
    throw new UnsafeCacheError(`${path} is not the file mirrorlite wrote there; refusing to load it`);
  }
}

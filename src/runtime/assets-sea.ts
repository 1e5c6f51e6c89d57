import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { getAsset } from "node:sea";
import { threadId } from "node:worker_threads";
import type { AssetName, WorkerSource } from "./assets.ts";
import { ensurePrivateFolder, UnsafeCacheError, verifyFileBytes } from "./private-folder.ts";

/**
 * `assets.ts` for the single executable (scripts/build-binary.mjs bundles this module in its place): every
 * asset is read from the executable. The native SQLite addon and the demo stream must exist as files (the
 * dynamic loader and the watcher want paths), so they are written once to a private cache folder (see
 * private-folder.ts: the addon is native code, loaded only from a folder no one else can write and only when its
 * bytes are the executable's own).
 */

/** Set by the bundler: the package version, the demo stream's file names, a digest of the embedded assets. */
declare const __MIRRORLITE_VERSION__: string;
declare const __MIRRORLITE_DEMO_FILES__: string[];
declare const __MIRRORLITE_ASSETS_DIGEST__: string;

export type { AssetName, WorkerSource };

export function ingestWorkerSource(): WorkerSource {
  return { kind: "eval", code: getAsset("worker.cjs", "utf8") };
}

export function blockReaderWorkerSource(): WorkerSource {
  return { kind: "eval", code: getAsset("block-reader.cjs", "utf8") };
}

export function readWorkerSource(): WorkerSource {
  return { kind: "eval", code: getAsset("read-worker.cjs", "utf8") };
}

/** The demo folder (record stream and balance snapshots), written to the cache folder on first use. */
function demoDir(): string {
  const dir = join(cacheDir(), "demo");
  for (const name of __MIRRORLITE_DEMO_FILES__) materialize(join(dir, name), `demo/${name}`);
  return dir;
}

export function demoRecordsDir(): string {
  return join(demoDir(), "record0.0.3");
}

export function demoBalancesDir(): string {
  return join(demoDir(), "balance0.0.3");
}

let addon: object | undefined;
/** The better-sqlite3 addon, loaded from its cached copy (each thread loads it once). */
export function sqliteNativeBinding(): object {
  if (addon === undefined) {
    const path = join(cacheDir(), "better_sqlite3.node");
    const bytes = materialize(path, "better_sqlite3.node");
    verifyFileBytes(path, bytes);
    const module = { exports: {} as object };
    process.dlopen(module, path);
    addon = module.exports;
  }
  return addon;
}

export function feeScheduleProtoText(): string {
  return getAsset("simple-fee-schedule.proto", "utf8");
}

export function mirrorliteVersion(): string {
  return __MIRRORLITE_VERSION__;
}

export async function readAsset(name: AssetName): Promise<Buffer | null> {
  return Buffer.from(getAsset(name));
}

let cache: string | undefined;
/**
 * A folder only this user can write, named after the embedded assets' digest so that two builds never share
 * files: `$MIRRORLITE_CACHE_DIR`, else `$XDG_CACHE_HOME/mirrorlite`, else `~/.cache/mirrorlite`, else the temp
 * folder (service users often have no home, or a read-only one). The first that can be created and is this
 * user's alone (it and its build subfolder) is used; `$MIRRORLITE_CACHE_DIR` has no fallback, and a temp folder
 * another user made first is refused rather than used.
 */
function cacheDir(): string {
  if (cache !== undefined) return cache;
  const candidates = [
    process.env.MIRRORLITE_CACHE_DIR,
    process.env.XDG_CACHE_HOME ? join(process.env.XDG_CACHE_HOME, "mirrorlite") : undefined,
    homeCache(),
    join(tmpdir(), `mirrorlite-${userInfo().uid}`),
  ].filter((dir): dir is string => Boolean(dir));
  let lastError: unknown;
  for (const base of candidates) {
    const dir = join(base, `${__MIRRORLITE_VERSION__}-${__MIRRORLITE_ASSETS_DIGEST__}`);
    try {
      ensurePrivateFolder(base);
      ensurePrivateFolder(dir);
      cache = dir;
      return dir;
    } catch (error) {
      lastError = error;
      if (base === process.env.MIRRORLITE_CACHE_DIR) break; // asked for explicitly: no silent fallback
    }
  }
  if (lastError instanceof UnsafeCacheError) throw lastError;
  throw new Error(`no writable cache folder for mirrorlite's files: ${(lastError as Error).message}`);
}

function homeCache(): string {
  try {
    const home = homedir();
    // Never create a home folder that is not there (service users often point at a missing one).
    return home && home !== "/" && existsSync(home) ? join(home, ".cache", "mirrorlite") : "";
  } catch {
    return "";
  }
}

/**
 * Makes `path` hold exactly the asset's bytes, and returns them. An existing copy is compared byte for byte (a
 * truncated or altered file is replaced); a new one is written beside it and renamed into place, so concurrent
 * starts never see half a file. Folders on the way are made private (see `ensurePrivateFolder`).
 */
function materialize(path: string, asset: string): Buffer {
  const bytes = Buffer.from(getAsset(asset));
  try {
    if (readFileSync(path).equals(bytes)) return bytes;
  } catch {
    // missing: written below
  }
  ensurePrivateFolder(join(path, ".."));
  const temp = `${path}.${process.pid}-${threadId}.tmp`;
  writeFileSync(temp, bytes, { mode: 0o600 });
  renameSync(temp, path);
  return bytes;
}

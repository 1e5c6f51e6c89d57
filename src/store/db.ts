import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { sqliteNativeBinding } from "../runtime/assets.ts";
import { migrate } from "./migrations.ts";

export type Db = Database.Database;

/**
 * Where the index lives. `:memory:` is mapped to a fresh file on a RAM-backed file system (`/dev/shm`), not to
 * SQLite's per-connection memory database: the ingest worker's writer and the HTTP side's reader must share one
 * database, and a real file there gives them WAL (readers never wait for a file being applied) at memory speed.
 */
export type DbLocation = { path: string; inMemory: boolean; dispose: () => void };

export function resolveDbLocation(db: string): DbLocation {
  if (db !== ":memory:") return { path: db, inMemory: false, dispose: () => {} };
  const base = ramDir();
  removeStaleMemoryDirs(base);
  // The owner's pid in the name lets a later start tell a dead process's leftovers from a live one's index.
  const dir = mkdtempSync(join(base, `mirrorlite-${process.pid}-`));
  // Every way out of the process that runs JavaScript (a fatal error, process.exit) still removes the folder;
  // only SIGKILL and power loss leave it, and the next start removes it then.
  const onExit = () => rmSync(dir, { recursive: true, force: true });
  process.once("exit", onExit);
  return {
    path: join(dir, "index.db"),
    inMemory: true,
    dispose: () => {
      process.removeListener("exit", onExit);
      onExit();
    },
  };
}

const MEMORY_DIR = /^mirrorlite-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Removes the in-memory index folders in `base` whose owning process no longer exists (killed with SIGKILL, or
 * the machine's power failed while /dev/shm survived). Returns the folders removed. A folder of a live process,
 * or of one this user may not signal, is left alone.
 */
export function removeStaleMemoryDirs(base: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(MEMORY_DIR.exec(name)?.[1] ?? 0);
    if (pid === 0 || pid === process.pid || isAlive(pid)) continue;
    try {
      rmSync(join(base, name), { recursive: true, force: true });
      removed.push(join(base, name));
    } catch {
      // another user's folder, or removed meanwhile: not ours to worry about
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Where `:memory:` indexes live: /dev/shm where writable, else the temp folder. */
export function ramDir(): string {
  try {
    // Probe rather than assume: containers sometimes mount /dev/shm read-only or not at all.
    const probe = mkdtempSync("/dev/shm/mirrorlite-probe-");
    rmSync(probe, { recursive: true, force: true });
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

/**
 * Opens the single write connection (owned by the ingest worker) and brings the schema up to date.
 * `durable: false` (in-memory indexes) skips fsync, which a RAM disk does not need.
 */
export function openWriter(path: string, options: { durable: boolean }): Db {
  const db = new Database(path, nativeOptions());
  db.defaultSafeIntegers(true);
  db.pragma("journal_mode = WAL");
  db.pragma(options.durable ? "synchronous = NORMAL" : "synchronous = OFF");
  db.pragma("busy_timeout = 5000");
  db.pragma("cache_size = -524288");
  db.pragma("temp_store = MEMORY");
  // A larger checkpoint threshold than the default keeps checkpoints off the hot path during bulk replays.
  db.pragma("wal_autocheckpoint = 10000");
  // Once a checkpoint starts the log over, the file is cut back to this size (wal-guard.ts keeps it from growing
  // while readers never stop).
  db.pragma("journal_size_limit = 67108864");
  migrate(db);
  return db;
}

/** Opens a read-only connection for the HTTP side. The writer must have created the schema first. */
export function openReader(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true, ...nativeOptions() });
  db.defaultSafeIntegers(true);
  db.pragma("busy_timeout = 5000");
  db.pragma("cache_size = -65536");
  return db;
}

/** The single executable loads SQLite's addon from its own assets; otherwise better-sqlite3 finds it. */
export function nativeOptions(): Database.Options {
  const binding = sqliteNativeBinding();
  // The typings allow only a path; better-sqlite3 also takes the loaded addon object.
  return binding === undefined ? {} : { nativeBinding: binding as unknown as string };
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
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
  const dir = mkdtempSync(join(base, "mirrorlite-"));
  return {
    path: join(dir, "index.db"),
    inMemory: true,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function ramDir(): string {
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
  const db = new Database(path);
  db.defaultSafeIntegers(true);
  db.pragma("journal_mode = WAL");
  db.pragma(options.durable ? "synchronous = NORMAL" : "synchronous = OFF");
  db.pragma("busy_timeout = 5000");
  db.pragma("cache_size = -524288");
  db.pragma("temp_store = MEMORY");
  // A larger checkpoint threshold than the default keeps checkpoints off the hot path during bulk replays.
  db.pragma("wal_autocheckpoint = 10000");
  migrate(db);
  return db;
}

/** Opens a read-only connection for the HTTP side. The writer must have created the schema first. */
export function openReader(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.defaultSafeIntegers(true);
  db.pragma("busy_timeout = 5000");
  db.pragma("cache_size = -65536");
  return db;
}

/**
 * One process at a time writes an index: the ingest worker assumes it is the only writer (its caches, the
 * cursor, the chain), so a second `serve` or `ingest` on the same file must not start.
 *
 * The lock is the operating system's, taken through SQLite on a small file beside the index (`<index>.lock`):
 * the holder keeps a write transaction open on it (SQLite's RESERVED lock, a POSIX record lock), which the
 * kernel releases when the process ends, however it ends, so a crashed holder never leaves a stale lock. Others
 * may still read the file, where the holder wrote who it is. The file is never removed: a process that opened
 * it must lock the same file a later process opens.
 */
import { hostname } from "node:os";
import Database from "better-sqlite3";
import { nativeOptions } from "./db.ts";

/** Who holds an index: what `mirrorlite` command, which process, since when. */
export type LockHolder = { command: string; pid: number; host: string; since: string };

/** The index is locked by another process; the message names it, as one line. */
export class IndexInUseError extends Error {
  override readonly name = "IndexInUseError";
  readonly holder: LockHolder | null;
  constructor(dbPath: string, holder: LockHolder | null) {
    super(
      holder === null
        ? `the index ${dbPath} is in use by another process`
        : `the index ${dbPath} is in use by mirrorlite ${holder.command} (pid ${holder.pid}, since ${holder.since}` +
            `${holder.host === hostname() ? "" : `, on ${holder.host}`})`,
    );
    this.holder = holder;
  }
}

export type WriterLock = {
  /** Lets the index go (closing the lock file releases the lock). Idempotent. */
  release(): void;
};

/** The file whose lock stands for the index's. */
export function lockPathOf(dbPath: string): string {
  return `${dbPath}.lock`;
}

/**
 * Takes the index's lock for this process (`command` is what it runs: `serve`, `ingest`), or throws
 * IndexInUseError naming the process that has it. Other failures (a folder that does not exist) are SQLite's.
 */
export function acquireWriterLock(dbPath: string, command: string): WriterLock {
  const db = new Database(lockPathOf(dbPath), nativeOptions());
  try {
    const take = () => {
      // No waiting: the holder keeps it for as long as it runs.
      db.pragma("busy_timeout = 0");
      try {
        db.exec("BEGIN IMMEDIATE");
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        throw new IndexInUseError(dbPath, readHolder(db));
      }
    };
    take();
    // Say who holds it (committed, so that others can read it), then hold it again. A process that takes it in
    // between holds it, and this one reports that one.
    db.exec(
      "CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), command TEXT NOT NULL, " +
        "pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL)",
    );
    db.prepare("INSERT OR REPLACE INTO holder (id, command, pid, host, since) VALUES (1, ?, ?, ?, ?)").run(
      command,
      process.pid,
      hostname(),
      new Date().toISOString(),
    );
    // The commit waits for a reader of the holder row to finish.
    db.pragma("busy_timeout = 2000");
    db.exec("COMMIT");
    take();
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    release() {
      if (db.open) db.close();
    },
  };
}

function readHolder(db: Database.Database): LockHolder | null {
  try {
    // The holder may be committing its row this instant.
    db.pragma("busy_timeout = 1000");
    const row = db.prepare("SELECT command, pid, host, since FROM holder WHERE id = 1").get() as
      | { command: string; pid: number; host: string; since: string }
      | undefined;
    return row === undefined ? null : { ...row, pid: Number(row.pid) };
  } catch {
    return null; // not written yet
  }
}

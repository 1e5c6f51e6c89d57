import { statSync } from "node:fs";
import type { Db } from "./db.ts";

/**
 * Keeps the write-ahead log bounded while readers never stop. SQLite's automatic checkpoint copies pages back to
 * the database but can only start the log over when no reader still uses it; with reads always in flight that
 * moment may never come and the log grows without end (a soak showed a RESTART checkpoint succeeding and the log
 * still not starting over under constant reads). Past `limitBytes`, a TRUNCATE checkpoint waits (at most
 * `waitMs`) for the readers that started before it copied everything (readers that start after it read from the
 * database file, so the wait is about one query long), then empties the log file itself.
 */
export type WalGuard = {
  /** After a commit: checkpoints when the log has grown past the limit. Returns whether it restarted it. */
  committed(): boolean;
};

export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;
const CHECKPOINT_WAIT_MS = 1000;

export function createWalGuard(
  db: Db,
  dbPath: string,
  options: { limitBytes?: number; waitMs?: number } = {},
): WalGuard {
  const limitBytes = options.limitBytes ?? WAL_LIMIT_BYTES;
  const waitMs = options.waitMs ?? CHECKPOINT_WAIT_MS;
  const walPath = `${dbPath}-wal`;
  const busyTimeout = Number(db.pragma("busy_timeout", { simple: true }));
  /** The log's size at the last checkpoint: it stays so until the next write starts it over. */
  let checkpointedAt = -1;
  return {
    committed() {
      let size: number;
      try {
        size = statSync(walPath).size;
      } catch {
        return false;
      }
      if (size <= limitBytes || size === checkpointedAt) return false;
      checkpointedAt = size;
      db.pragma(`busy_timeout = ${waitMs}`);
      try {
        const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number | bigint }>;
        return Number(result?.busy ?? 1) === 0;
      } finally {
        db.pragma(`busy_timeout = ${busyTimeout}`);
      }
    },
  };
}

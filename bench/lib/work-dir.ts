import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Child, freePort, REPO, startMirrorlite } from "./processes.ts";

export type WorkDir = { work: string; recordsDir: string; dbFile: string };

/**
 * Runs `body` with a fresh scratch directory for one stream (`record0.0.3/`) and its index (`index.db`), and
 * removes the directory afterwards, also when `body` throws.
 */
export async function withWorkDir<T>(prefix: string, body: (dir: WorkDir) => Promise<T>): Promise<T> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await body({ work, recordsDir: join(work, "record0.0.3"), dbFile: join(work, "index.db") });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Copies the bundled demo stream (generated from `fixtures/scenarios/demo.yaml`, signatures included). */
export function copyDemoStream(recordsDir: string): void {
  cpSync(join(REPO, "fixtures/streams/demo/record0.0.3"), recordsDir, { recursive: true });
}

/**
 * Arguments of `mirrorlite ingest` for a stream the benches generate: it has no signature files, so the
 * watcher must not wait for them.
 */
export function ingestGeneratedArgs(recordsDir: string, dbFile: string, logLevel = "warn"): string[] {
  return ["ingest", "--records", recordsDir, "--db", dbFile, "--no-wait-signatures", "--log-level", logLevel];
}

/** Serves an ingested index with `mirrorlite serve` (in a child process) while `body` runs, then stops it. */
export async function withMirrorlite<T>(
  recordsDir: string,
  dbFile: string,
  body: (server: Child) => Promise<T>,
): Promise<T> {
  const server = await startMirrorlite(recordsDir, dbFile, await freePort());
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

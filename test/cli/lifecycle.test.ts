import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { ramDir, removeStaleMemoryDirs } from "../../src/store/db.ts";
import { runCli, startCli } from "../helpers/cli.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { FIXTURE_STREAMS, tempDir } from "../helpers/service.ts";

const TX_PER_FILE = 10_000;

/** Blocks, transactions and the cursor of an index file. */
function indexState(dbFile: string): { blocks: bigint; transactions: bigint; cursor: bigint | null } {
  const db = new Database(dbFile, { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    return {
      blocks: db.prepare("SELECT count(*) FROM record_file").pluck().get() as bigint,
      transactions: db.prepare('SELECT count(*) FROM "transaction"').pluck().get() as bigint,
      cursor:
        (db.prepare("SELECT block_number FROM ingest_cursor").pluck().get() as bigint | undefined) ?? null,
    };
  } finally {
    db.close();
  }
}

/** In-memory index folders a process left in the RAM disk. */
function memoryDirsOf(pid: number | undefined): string[] {
  return readdirSync(ramDir()).filter((name) => name.startsWith(`mirrorlite-${pid}-`));
}

describe("stopping and failing like a service", () => {
  let temp: { dir: string; remove: () => void };
  let records: string;
  let lastBlock: bigint;
  beforeAll(() => {
    temp = tempDir();
    records = join(temp.dir, "record0.0.3");
    // Few, large files: applying one takes long enough that a signal lands inside a catch-up.
    lastBlock = generateBulkStream({
      dir: records,
      tokens: 50,
      transactions: 6 * TX_PER_FILE,
      transactionsPerFile: TX_PER_FILE,
      signatures: false,
      signingKey: null,
    }).lastBlock;
  }, 120_000);
  afterAll(() => temp?.remove());

  it("SIGTERM in the middle of a catch-up: exit 0 with whole files only, and a restart finishes the job", async () => {
    const db = join(temp.dir, "sigterm.db");
    const args = ["serve", "--records", records, "--db", db, "--port", "0", "--no-wait-signatures"];
    const cli = startCli(args);
    const port = await cli.port();
    // While catching up, readiness says so, with the pace and what is left: asked until a file is applied
    // (the answer is the main thread's own state, so no log line has to arrive first).
    type Readiness = { status: string; progress: Record<string, number | null> };
    let readiness: Response;
    let body: Readiness;
    do {
      readiness = await fetch(`http://127.0.0.1:${port}/health/readiness`);
      body = (await readiness.json()) as Readiness;
    } while (readiness.status === 503 && (body.progress.filesApplied ?? 0) === 0);
    expect(readiness.status).toBe(503);
    validateResponse({ path: "/health/readiness", status: 503, body });
    expect(body.status).toBe("catching-up");
    expect(body.progress.filesApplied).toBeGreaterThanOrEqual(1);
    expect(body.progress.transactionsApplied).toBe(body.progress.filesApplied! * TX_PER_FILE);
    expect(body.progress.filesLeft).toBeGreaterThanOrEqual(1);
    expect(body.progress.filesLeft! + body.progress.filesApplied!).toBe(Number(lastBlock) + 1);
    cli.child.kill("SIGTERM");
    const exit = await cli.exited;
    expect(exit, cli.stderr()).toEqual({ code: 0, signal: null });
    expect(cli.logs.some((line) => line.msg === "stopped")).toBe(true);

    const stopped = indexState(db);
    // Stopped part way: the catch-up was really interrupted...
    expect(stopped.cursor).not.toBeNull();
    expect(stopped.cursor!).toBeLessThan(lastBlock);
    // ...at a file boundary: every block present is whole (no transactions of a half-applied file).
    expect(stopped.blocks).toBe(stopped.cursor! + 1n);
    expect(stopped.transactions).toBe(stopped.blocks * BigInt(TX_PER_FILE));

    const resumed = runCli(["ingest", "--records", records, "--db", db, "--no-wait-signatures"]);
    expect(resumed.status, resumed.stderr).toBe(0);
    const done = indexState(db);
    expect(done.cursor).toBe(lastBlock);
    expect(done.transactions).toBe((lastBlock + 1n) * BigInt(TX_PER_FILE));
    // A catch-up, a stop and a whole second ingest of large files: generous for a loaded machine.
  }, 180_000);

  it("SIGTERM during `mirrorlite ingest`: exit 1 saying so, whole files only", async () => {
    const db = join(temp.dir, "ingest-sigterm.db");
    const cli = startCli(["ingest", "--records", records, "--db", db, "--no-wait-signatures"]);
    // The worker writes each line as it logs it, so this arrives while the next file is being applied.
    await cli.waitForLog((line) => line.msg === "ingested record file");
    cli.child.kill("SIGTERM");
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr()).toBe(
      "mirrorlite: ingestion stopped: interrupted by SIGTERM; the index ends at a whole file\n",
    );
    const stopped = indexState(db);
    expect(stopped.cursor!).toBeLessThan(lastBlock);
    expect(stopped.transactions).toBe((stopped.cursor! + 1n) * BigInt(TX_PER_FILE));
  });

  it("a second signal exits at once", async () => {
    const cli = startCli([
      "serve",
      "--records",
      records,
      "--db",
      ":memory:",
      "--port",
      "0",
      "--no-wait-signatures",
    ]);
    await cli.port();
    await cli.waitForLog((line) => line.msg === "ingested record file");
    // Two different signals (two of the same kind may reach the process as one).
    cli.child.kill("SIGINT");
    cli.child.kill("SIGTERM");
    const exit = await cli.exited;
    // 128 + SIGTERM, as a shell reports a process killed by it; the in-memory index is removed all the same.
    expect(exit.code, cli.stderr()).toBe(143);
    expect(cli.stderr()).toBe("mirrorlite: SIGTERM again, exiting now\n");
    expect(memoryDirsOf(cli.child.pid)).toEqual([]);
  });

  it("a crashed ingest worker: one line, exit 1, nothing left in /dev/shm", async () => {
    // A heap far too small for a 10,000-transaction file: the worker runs out of memory while serving.
    const cli = startCli([
      "serve",
      "--records",
      records,
      "--db",
      join(temp.dir, "crashed-worker.db"),
      "--port",
      "0",
      "--no-wait-signatures",
      "--worker-heap-mb",
      "24",
    ]);
    const exit = await cli.exited;
    expect(exit.code).toBe(1);
    expect(cli.stderr()).toMatch(/^mirrorlite: ingest worker crashed.*out of memory\n$/);
    expect(memoryDirsOf(cli.child.pid)).toEqual([]);
  });

  it("a database that cannot be opened: one line, exit 1", () => {
    const missing = join(temp.dir, "no-such-folder", "index.db");
    const result = runCli(["serve", "--records", records, "--db", missing, "--port", "0"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `mirrorlite: cannot open the database ${missing}: Cannot open database because the directory does not exist\n`,
    );
  });

  it("a port in use: one line, exit 1, nothing left in /dev/shm", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const cli = startCli(["serve", "--port", String(port)]);
      const exit = await cli.exited;
      expect(exit.code).toBe(1);
      expect(cli.stderr()).toBe(`mirrorlite: port ${port} on 127.0.0.1 is in use\n`);
      expect(memoryDirsOf(cli.child.pid)).toEqual([]);
    } finally {
      blocker.close();
    }
  });
});

describe("in-memory indexes of dead processes", () => {
  it("are removed at start-up; a live process's are kept", () => {
    const base = ramDir();
    // A pid that certainly belonged to a process that has exited.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const stale = join(base, `mirrorlite-${dead}-Ab12Cd`);
    const live = join(base, `mirrorlite-${process.ppid}-Ef34Gh`);
    mkdirSync(stale);
    mkdirSync(live);
    try {
      const removed = removeStaleMemoryDirs(base);
      expect(removed).toContain(stale);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      for (const dir of [stale, live]) spawnSync("rm", ["-rf", dir]);
    }
  });

  it("a `serve` start removes them", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const stale = join(ramDir(), `mirrorlite-${dead}-Zz99Yy`);
    mkdirSync(stale);
    const demo = join(FIXTURE_STREAMS, "demo", "record0.0.3");
    const cli = startCli(["serve", "--records", demo, "--db", ":memory:", "--port", "0"]);
    await cli.port();
    expect(existsSync(stale)).toBe(false);
    cli.child.kill("SIGTERM");
    expect((await cli.exited).code).toBe(0);
  });
});

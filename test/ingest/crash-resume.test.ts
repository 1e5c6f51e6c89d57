import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { runCli } from "../helpers/cli.ts";
import { dumpIndex as dump } from "../helpers/index-dump.ts";
import { REPO_ROOT, tempDir } from "../helpers/service.ts";

/** The schema as SQLite keeps it: every table and index with the statement that made it. */
function schema(dbFile: string): unknown[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").all();
  } finally {
    db.close();
  }
}

function cursor(dbFile: string): bigint | null {
  try {
    const db = new Database(dbFile, { readonly: true });
    db.defaultSafeIntegers(true);
    try {
      return (
        (db.prepare("SELECT block_number FROM ingest_cursor").pluck().get() as bigint | undefined) ?? null
      );
    } finally {
      db.close();
    }
  } catch {
    return null; // not created yet
  }
}

/**
 * Starts `mirrorlite ingest` and, once it has committed `files` more record files, kills it with SIGKILL after a
 * further `delayMs` (so the kill lands inside or between file transactions). Resolves with the exit code (null
 * when killed).
 */
function ingestAndKill(records: string, db: string, files: number, delayMs: number): Promise<number | null> {
  const start = cursor(db) ?? -1n;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        `${REPO_ROOT}bin/mirrorlite.js`,
        "ingest",
        "--records",
        records,
        "--db",
        db,
        "--log-level",
        "silent",
        "--no-wait-signatures",
        "--poll-ms",
        "20",
        // Several files (200 transactions each) per commit, as when catching up, but small enough that the
        // cursor moves many times in this stream: kills land inside and between multi-file commits.
        "--commit-transactions",
        "500",
      ],
      { stdio: "ignore" },
    );
    const watch = setInterval(() => {
      const now = cursor(db);
      if (now !== null && now - start >= BigInt(files)) {
        clearInterval(watch);
        setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    }, 5);
    child.once("exit", (code) => {
      clearInterval(watch);
      resolve(code);
    });
  });
}

describe("a process killed at any moment resumes to exactly the same index", () => {
  let temp: { dir: string; remove: () => void };
  let records: string;
  let lastBlock: bigint;
  beforeAll(() => {
    temp = tempDir();
    records = join(temp.dir, "record0.0.3");
    const result = generateBulkStream({
      dir: records,
      tokens: 300,
      transactions: 8_000,
      transactionsPerFile: 200,
      signatures: false,
      signingKey: null,
    });
    lastBlock = result.lastBlock;
  }, 120_000);
  afterAll(() => temp?.remove());

  it("SIGKILL during ingestion, restart, repeat: same rows as an uninterrupted run", async () => {
    const reference = join(temp.dir, "reference.db");
    const clean = runCli([
      "ingest",
      "--records",
      records,
      "--db",
      reference,
      "--log-level",
      "silent",
      "--no-wait-signatures",
    ]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(cursor(reference)).toBe(lastBlock);

    const crashed = join(temp.dir, "crashed.db");
    const progress: Array<bigint | null> = [];
    let kills = 0;
    // Kill after a varying number of files and a varying delay, so that kills land inside and between files.
    for (let attempt = 0; attempt < 40; attempt++) {
      const code = await ingestAndKill(records, crashed, 1 + (attempt % 4), (attempt * 7) % 23);
      progress.push(cursor(crashed));
      if (code === 0) break;
      kills += 1;
    }
    expect(cursor(crashed)).toBe(lastBlock);
    // The test only proves something if some kills interrupted ingestion part way.
    const partial = progress.filter((block) => block !== null && block < lastBlock);
    expect(kills).toBeGreaterThanOrEqual(2);
    expect(partial.length).toBeGreaterThanOrEqual(2);
    expect(dump(crashed)).toEqual(dump(reference));
    // A one-shot ingest of this backlog drops the read-only indexes while it applies files (kills land while
    // they are gone) and builds them at the end: the schema is the one the migrations make.
    const fresh = join(temp.dir, "fresh.db");
    new Database(fresh).close();
    const empty = join(temp.dir, "empty");
    mkdirSync(empty);
    expect(runCli(["ingest", "--records", empty, "--db", fresh, "--log-level", "silent"]).status).toBe(0);
    expect(schema(crashed)).toEqual(schema(fresh));
    expect(schema(reference)).toEqual(schema(fresh));
  }, 300_000);
});

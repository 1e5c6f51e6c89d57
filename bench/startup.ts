/**
 * `npm run bench -- startup`: time from starting `mirrorlite serve` on an existing index to its first HTTP
 * answer and to readiness (200), for an index of about 1 GB. Start-up must not depend on the index's size: it
 * opens SQLite (no scan), reads the one-row resume cursor and lists the stream folder. So the index is a real
 * ingested stream plus a padding table that brings the file to the size asked, which costs seconds to write
 * where ingesting 1 GB of transactions would take the better part of an hour here.
 *
 * Run alone: `node --import tsx bench/startup.ts [--transactions N] [--pad-mb MB] [--runs N]`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { freePort, REPO, runMirrorlite } from "./lib/processes.ts";

export type StartupResult = { indexBytes: number; files: number; listeningMs: number[]; readyMs: number[] };

export async function benchStartup(
  options: { transactions?: number; padMb?: number; runs?: number; executable?: string } = {},
): Promise<StartupResult> {
  const transactions = options.transactions ?? 50_000;
  const padMb = options.padMb ?? 1024;
  const runs = options.runs ?? 5;
  const work = mkdtempSync(join(tmpdir(), "mirrorlite-bench-startup-"));
  try {
    const records = join(work, "record0.0.3");
    const db = join(work, "index.db");
    generateBulkStream({
      dir: records,
      tokens: 200,
      transactions,
      transactionsPerFile: 100,
      signatures: false,
      signingKey: null,
    });
    await runMirrorlite([
      "ingest",
      "--records",
      records,
      "--db",
      db,
      "--no-wait-signatures",
      "--log-level",
      "warn",
    ]);
    // A node signs each file: with signatures present, `serve` takes them as complete at first sight.
    const names = readdirSync(records).filter((name) => name.endsWith(".rcd.gz"));
    for (const name of names) writeFileSync(join(records, `${name.replace(/\.gz$/, "")}_sig`), "");
    pad(db, padMb);
    const indexBytes = statSync(db).size;
    console.log(
      `index: ${(indexBytes / 2 ** 20).toFixed(0)} MB, ${names.length} record files, ${transactions} transactions`,
    );

    const listeningMs: number[] = [];
    const readyMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const timing = await timeStartup(records, db, options.executable);
      listeningMs.push(timing.listeningMs);
      readyMs.push(timing.readyMs);
      console.log(
        `run ${run + 1}: listening after ${timing.listeningMs.toFixed(0)} ms, ready after ${timing.readyMs.toFixed(0)} ms`,
      );
    }
    return { indexBytes, files: names.length, listeningMs, readyMs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Grows the index file by `mb` MiB of zero-filled rows in a table of its own (read by nothing). */
function pad(dbFile: string, mb: number): void {
  const db = new Database(dbFile);
  try {
    db.exec("CREATE TABLE IF NOT EXISTS bench_padding (bytes BLOB NOT NULL)");
    const insert = db.prepare("INSERT INTO bench_padding (bytes) VALUES (zeroblob(1048576))");
    db.transaction(() => {
      for (let i = 0; i < mb; i++) insert.run();
    })();
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** Starts serve, polls readiness every few ms, stops it with SIGTERM; times are from the spawn. */
async function timeStartup(
  records: string,
  db: string,
  executable?: string,
): Promise<{ listeningMs: number; readyMs: number }> {
  const port = await freePort();
  const command = executable ?? process.execPath;
  const args = [
    ...(executable ? [] : [`${REPO}bin/mirrorlite.js`]),
    ...["serve", "--records", records, "--db", db, "--port", String(port), "--log-level", "warn"],
  ];
  const started = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
  let listeningMs: number | null = null;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`mirrorlite exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error("not ready within 60 s");
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health/readiness`);
        listeningMs ??= performance.now() - started;
        if (response.status === 200) return { listeningMs, readyMs: performance.now() - started };
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export function summarize(result: StartupResult): string {
  return `start-up to ready on a ${(result.indexBytes / 2 ** 30).toFixed(2)} GB index: median ${median(result.readyMs).toFixed(0)} ms (listening ${median(result.listeningMs).toFixed(0)} ms)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      transactions: { type: "string" },
      "pad-mb": { type: "string" },
      runs: { type: "string" },
      executable: { type: "string" },
    },
  });
  const result = await benchStartup({
    transactions: values.transactions ? Number(values.transactions) : undefined,
    padMb: values["pad-mb"] ? Number(values["pad-mb"]) : undefined,
    runs: values.runs ? Number(values.runs) : undefined,
    executable: values.executable,
  });
  console.log(summarize(result));
}

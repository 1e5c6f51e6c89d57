/**
 * The transactions group (issue 15): on a mainnet-like stream (mostly ConsensusSubmitMessage and hbar transfers,
 * bench/ingest-speed.ts's mix), generated once:
 *
 * - ingest speed: `mirrorlite ingest` into a fresh file, process start included, `rounds` times (default 5);
 *   with `--baseline REF` the same stream is also ingested by the build of git ref REF (exported to a temporary
 *   folder, node_modules linked, built), alternating with this one (A/B/A/B: both see the same moments of a
 *   shared machine), and the medians of wall time and of CPU time (user + system, all threads) printed with
 *   the slowdown (target: at most 15% slower than before the transaction index, i.e. `--baseline` the commit
 *   before it);
 * - the size of the transaction index: bytes per transaction of the transaction table, its indexes, the account
 *   rows, token and NFT transfers (and the topics group's message table, less the message payloads, where it
 *   exists), read with SQLite's `dbstat` (target: at most 400);
 * - `GET /api/v1/transactions?account.id=…` with a new URL every request (an account and a `timestamp=lt:` bound
 *   never asked before: no answer comes from the response cache), next to a bare `node:http` server answering
 *   a body of the same size (target 0.2); for information, the same without `account.id`, and lookups by id.
 *
 * Run alone: `node --import tsx bench/transactions.ts [--transactions N] [--rounds N] [--seconds S] [--baseline REF]`.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { BULK_FIRST_ENTITY, bulkAccountCount, generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { type BareComparison, compareWithBare } from "./lib/load.ts";
import { REPO } from "./lib/processes.ts";
import { ingestGeneratedArgs, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

/** Objects of the transaction index (tables and their indexes). */
const INDEX_OBJECTS = [
  "transaction",
  "transaction_kind",
  "transaction_id",
  "transaction_hash",
  "account_transaction",
  "token_transfer",
  "token_transfer_consensus",
  "nft_transfer",
  "nft_transfer_consensus",
];
/** The topics group's message table and indexes, counted without the message payloads where they exist. */
const MESSAGE_OBJECTS = ["topic_message", "topic_message_by_topic", "topic_message_by_sequence"];

export type TransactionsBenchOptions = {
  transactions?: number;
  rounds?: number;
  seconds?: number;
  /** A git ref whose build ingests the same stream for comparison (e.g. the commit before the index). */
  baseline?: string;
};

export type IngestFigures = {
  transactions: number;
  /** Medians over the rounds: wall-clock seconds and CPU seconds (user + system) of the process. */
  seconds: number;
  cpuSeconds: number;
  baselineSeconds: number | null;
  baselineCpuSeconds: number | null;
  /** This build's median wall time over the baseline's, minus one (0.15: 15% slower). */
  slowdown: number | null;
  /** The same for CPU time. */
  cpuSlowdown: number | null;
};

export type SizeFigures = {
  transactionIndexBytes: number;
  messageIndexBytes: number;
  bytesPerTransaction: number;
};

type Timed = { seconds: number; cpuSeconds: number };

/**
 * Runs a node script to completion and returns its wall-clock seconds and the CPU seconds (user + system) it
 * used: a POSIX shell runs it and prints its children's times (`times`) after it exits.
 */
function timedRun(script: string, args: readonly string[]): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("sh", ["-c", '"$@" >/dev/null && times', "sh", process.execPath, script, ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      // The second line holds the children's user and system times, as `1m2.345s 0m0.678s`.
      const children = out.trim().split("\n").at(-1) ?? "";
      const cpuSeconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
        (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
        0,
      );
      resolve({ seconds: (performance.now() - started) / 1000, cpuSeconds });
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Exports git ref `ref` into a temporary folder, links this checkout's node_modules and builds it. */
function buildBaseline(ref: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "mirrorlite-baseline-"));
  execFileSync("sh", ["-c", `git -C "${REPO}" archive "${ref}" | tar -x -C "${dir}"`]);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  execFileSync(process.execPath, [join(dir, "scripts/build.mjs")], { stdio: "ignore" });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bytes of the transaction index (and of the message index, payloads excluded), per transaction. */
export function indexSize(dbFile: string, transactions: number): SizeFigures {
  const db = new Database(dbFile, { readonly: true });
  try {
    const pages = (names: readonly string[]) =>
      Number(
        db
          .prepare(
            `SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name IN (${names.map(() => "?").join(", ")})`,
          )
          .pluck()
          .get(...names),
      );
    const hasMessages =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'topic_message'").get() !==
      undefined;
    const payload = hasMessages
      ? Number(db.prepare("SELECT COALESCE(SUM(LENGTH(message_base64)), 0) FROM topic_message").pluck().get())
      : 0;
    const transactionIndexBytes = pages(INDEX_OBJECTS);
    const messageIndexBytes = hasMessages ? pages(MESSAGE_OBJECTS) - payload : 0;
    return {
      transactionIndexBytes,
      messageIndexBytes,
      bytesPerTransaction: (transactionIndexBytes + messageIndexBytes) / transactions,
    };
  } finally {
    db.close();
  }
}

export async function benchTransactions(options: TransactionsBenchOptions = {}) {
  const count = options.transactions ?? 200_000;
  const rounds = options.rounds ?? 5;
  const seconds = options.seconds ?? 10;
  return withWorkDir("mirrorlite-bench-transactions-", async ({ work, recordsDir, dbFile }) => {
    const generated = generateBulkStream({
      dir: recordsDir,
      tokens: count / 1000,
      transactions: count,
      transactionsPerFile: 500,
      signatures: false,
      signingKey: null,
      mix: "mainnet",
    });
    console.log(
      `transactions: ${generated.transactions} mainnet-like transactions in ${generated.files} files, generated in ${(generated.durationMs / 1000).toFixed(1)} s`,
    );

    const baseline = options.baseline === undefined ? null : buildBaseline(options.baseline);
    let ingest: IngestFigures;
    try {
      const ours: Timed[] = [];
      const theirs: Timed[] = [];
      for (let round = 0; round < rounds; round++) {
        if (baseline !== null) {
          const file = join(work, "baseline.db");
          theirs.push(
            await timedRun(join(baseline.dir, "bin/mirrorlite.js"), ingestGeneratedArgs(recordsDir, file)),
          );
          for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
        }
        for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
        ours.push(await timedRun(join(REPO, "bin/mirrorlite.js"), ingestGeneratedArgs(recordsDir, dbFile)));
        const last = ours.at(-1)!;
        const their = theirs.at(-1);
        console.log(
          `transactions: round ${round + 1}: ${last.seconds.toFixed(2)} s (CPU ${last.cpuSeconds.toFixed(2)} s)` +
            (their === undefined
              ? ""
              : `; ${options.baseline} ${their.seconds.toFixed(2)} s (CPU ${their.cpuSeconds.toFixed(2)} s)`),
        );
      }
      const seconds = median(ours.map((r) => r.seconds));
      const cpuSeconds = median(ours.map((r) => r.cpuSeconds));
      const baselineSeconds = baseline === null ? null : median(theirs.map((r) => r.seconds));
      const baselineCpuSeconds = baseline === null ? null : median(theirs.map((r) => r.cpuSeconds));
      ingest = {
        transactions: generated.transactions,
        seconds,
        cpuSeconds,
        baselineSeconds,
        baselineCpuSeconds,
        slowdown: baselineSeconds === null ? null : seconds / baselineSeconds - 1,
        cpuSlowdown: baselineCpuSeconds === null ? null : cpuSeconds / baselineCpuSeconds - 1,
      };
    } finally {
      baseline?.remove();
    }
    const rate = (s: number) => Math.round(generated.transactions / s);
    const percent = (value: number | null) => `${((value ?? 0) * 100).toFixed(1)}%`;
    console.log(
      `transactions: mirrorlite ingest ${rate(ingest.seconds)} tx/s, CPU ${ingest.cpuSeconds.toFixed(2)} s (median of ${rounds}, process start included)` +
        (ingest.baselineSeconds === null
          ? ""
          : `; ${options.baseline} ${rate(ingest.baselineSeconds)} tx/s, CPU ${ingest.baselineCpuSeconds?.toFixed(2)} s; ` +
            `${percent(ingest.slowdown)} slower (target at most 15%), ${percent(ingest.cpuSlowdown)} more CPU`),
    );
    const size = indexSize(dbFile, generated.transactions);
    console.log(
      `transactions: index ${size.bytesPerTransaction.toFixed(0)} bytes per transaction (transaction index ` +
        `${(size.transactionIndexBytes / generated.transactions).toFixed(0)}, message index ` +
        `${(size.messageIndexBytes / generated.transactions).toFixed(0)} less payloads; target at most 400)`,
    );

    const db = new Database(dbFile, { readonly: true });
    db.defaultSafeIntegers(true);
    const [first, last] = db
      .prepare('SELECT MIN(consensus_ns), MAX(consensus_ns) FROM "transaction"')
      .raw()
      .get() as [bigint, bigint];
    const ids = db
      .prepare(
        `SELECT payer_id, valid_start_ns FROM "transaction" WHERE consensus_ns >= ? ORDER BY consensus_ns LIMIT 20000`,
      )
      .raw()
      .all(first) as [bigint, bigint][];
    db.close();
    const accounts = bulkAccountCount(count);
    const span = last - first;
    // A distinct (account, bound) for every request: never a cached answer.
    const bound = (index: number) => {
      const ns = last - (span * BigInt(index % 9973)) / 9973n - BigInt(index);
      return `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`;
    };
    const byAccount = (index: number) =>
      `/api/v1/transactions?account.id=0.0.${BULK_FIRST_ENTITY + ((index * 7919) % accounts)}&timestamp=lt:${bound(index)}`;
    const newest = (index: number) => `/api/v1/transactions?timestamp=lt:${bound(index)}`;
    const byId = (index: number) => {
      const [payer, start] = ids[(index * 7919) % ids.length]!;
      return `/api/v1/transactions/0.0.${payer}-${start / 1_000_000_000n}-${(start % 1_000_000_000n).toString().padStart(9, "0")}`;
    };
    const results: BareComparison[] = [];
    await withMirrorlite(recordsDir, dbFile, async (server) => {
      const cases = [
        {
          name: "GET /transactions?account.id=&timestamp=lt: (a new URL every request)",
          paths: byAccount,
          target: 0.2,
        },
        { name: "GET /transactions?timestamp=lt: (a new URL every request)", paths: newest, target: null },
        { name: `GET /transactions/{id} (${ids.length} ids)`, paths: byId, target: null },
      ];
      for (const { name, paths, target } of cases) {
        results.push(
          await compareWithBare({ port: server.port, name, paths, target, seconds, warmUp: false }),
        );
      }
    });
    return { ingest, size, results };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      transactions: { type: "string" },
      rounds: { type: "string" },
      seconds: { type: "string" },
      baseline: { type: "string" },
    },
  });
  const { results } = await benchTransactions({
    ...(values.transactions === undefined ? {} : { transactions: Number(values.transactions) }),
    ...(values.rounds === undefined ? {} : { rounds: Number(values.rounds) }),
    ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
  });
  for (const { name, ratio, target } of results) {
    const verdict =
      target === null ? "(no target)" : `target ${target.toFixed(2)} ${ratio >= target ? "met" : "MISSED"}`;
    console.log(`${name}: ratio ${ratio.toFixed(2)}, ${verdict}`);
  }
}

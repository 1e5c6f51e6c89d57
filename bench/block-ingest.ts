/**
 * `npm run bench -- block-ingest`: the same mainnet-like ledger (bulk.ts, mostly consensus messages and hbar
 * transfers) ingested by `mirrorlite ingest` as record files and as block stream blocks (one block per record
 * file, written by fixtures/writer/write-block-stream.ts as zstd frames of stored blocks), each in its own
 * process into a fresh index. The formats take turns for several rounds, so that a shared machine's load falls
 * on both alike; the medians are compared (target: blocks at least as fast as records). Beside wall-clock time,
 * which a loaded machine blurs, each run's CPU seconds (all threads) and its busiest thread's CPU seconds (the
 * critical path: what the run takes at least, given a free core for each other thread). `--baseline=REF`: the
 * build of git ref REF ingests the blocks too, in the same rounds (before and after a change, on the same load).
 *
 * Nodes write compressed zstd frames, which cost a zstd decoder more than stored ones: when the `zstd` command is
 * installed, the same blocks compressed by it (level 3) are timed too, for information.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { writeBlockStream } from "../fixtures/writer/write-block-stream.ts";
import { readRecordFile } from "../src/streams/read-record-file.ts";
import { REPO } from "./lib/processes.ts";
import { withWorkDir } from "./lib/work-dir.ts";

export type BlockIngestFigures = {
  transactions: number;
  recordsPerSecond: number;
  blocksPerSecond: number;
  /** Blocks compressed by the `zstd` command (null: not installed). */
  compressedBlocksPerSecond: number | null;
  ratio: number;
};

export type BlockIngestOptions = {
  transactions?: number;
  rounds?: number;
  /** A git ref whose build ingests the blocks too, taking its turn in each round (e.g. the commit before a change). */
  baseline?: string;
};

/** One way of ingesting the ledger: its times and CPU seconds over the rounds. */
type Variant = {
  label: string;
  script: string;
  source: string[];
  seconds: number[];
  cpu: number[];
  /** CPU seconds of the process's busiest thread: the critical path, which a free core cannot shorten. */
  busiest: number[];
};

export async function benchBlockIngest(options: BlockIngestOptions = {}): Promise<BlockIngestFigures> {
  const transactions = options.transactions ?? 100_000;
  const rounds = options.rounds ?? 5;
  return withWorkDir("mirrorlite-bench-blocks-", async ({ work, recordsDir }) => {
    const generated = generateBulkStream({
      dir: recordsDir,
      tokens: transactions / 1000,
      transactions,
      transactionsPerFile: 500,
      signatures: false,
      signingKey: null,
      mix: "mainnet",
    });
    const names = readdirSync(recordsDir)
      .filter((n) => n.endsWith(".rcd.gz"))
      .sort();
    const files = names.map((name) => readRecordFile(name, readFileSync(join(recordsDir, name))));
    const blocksDir = join(work, "block-0.0.3");
    const numbers = files.map((f, i) => f.blockNumber ?? BigInt(i));
    const hapi = files[0]!.hapiVersion!;
    writeBlockStream(files, hapi, numbers, blocksDir, { compression: "zstd", layout: "flat", markers: true });
    const compressedDir = compressWithZstdCommand(work, files, hapi, numbers);
    const baseline = options.baseline === undefined ? null : buildBaseline(options.baseline);
    const here = join(REPO, "bin/mirrorlite.js");
    const variant = (label: string, script: string, source: string[]): Variant => ({
      label,
      script,
      source,
      seconds: [],
      cpu: [],
      busiest: [],
    });
    const records = variant("record files", here, ["--records", recordsDir]);
    const blocks = variant("blocks", here, ["--blocks", blocksDir]);
    const compressed =
      compressedDir === null ? null : variant("blocks (zstd -3)", here, ["--blocks", compressedDir]);
    const variants = [records, blocks];
    if (baseline !== null)
      variants.push(variant(`blocks, ${options.baseline}`, baseline.script, ["--blocks", blocksDir]));
    if (compressed !== null) variants.push(compressed);
    if (baseline !== null && compressedDir !== null)
      variants.push(
        variant(`blocks (zstd -3), ${options.baseline}`, baseline.script, ["--blocks", compressedDir]),
      );
    const db = join(work, "bench.db");
    try {
      for (let round = 0; round < rounds; round++) {
        for (const v of variants) {
          for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
          const started = performance.now();
          const cpuBefore = childrenCpuSeconds();
          const busiest = await runWatchingThreads(v.script, [
            "ingest",
            ...v.source,
            "--db",
            db,
            "--no-wait-signatures",
            "--log-level",
            "warn",
          ]);
          const cpuAfter = childrenCpuSeconds();
          v.seconds.push((performance.now() - started) / 1000);
          if (cpuBefore !== null && cpuAfter !== null) v.cpu.push(cpuAfter - cpuBefore);
          if (busiest !== null) v.busiest.push(busiest);
        }
      }
    } finally {
      baseline?.remove();
    }
    const n = generated.transactions;
    const rate = (s: number[]) => n / median(s);
    const list = (s: number[]) => s.map((x) => x.toFixed(1)).join(", ");
    console.log(
      `block-ingest: ${n} tx, medians of ${rounds} interleaved rounds (wall clock; CPU seconds of all threads)`,
    );
    for (const v of variants) {
      const cpu = v.cpu.length === rounds ? `, CPU ${median(v.cpu).toFixed(2)} s (${list(v.cpu)})` : "";
      const busiest = v.busiest.length === rounds ? `, busiest thread ${median(v.busiest).toFixed(2)} s` : "";
      const against =
        v === records
          ? ""
          : `; /records: wall ${(median(records.seconds) / median(v.seconds)).toFixed(2)}` +
            (cpu === "" ? "" : `, CPU ${(median(records.cpu) / median(v.cpu)).toFixed(2)}`) +
            (busiest === ""
              ? ""
              : `, busiest thread ${(median(records.busiest) / median(v.busiest)).toFixed(2)}`);
      console.log(
        `block-ingest:   ${v.label.padEnd(28)} ${rate(v.seconds).toFixed(0)} tx/s (${list(v.seconds)} s)${cpu}${busiest}${against}`,
      );
    }
    return {
      transactions: n,
      recordsPerSecond: rate(records.seconds),
      blocksPerSecond: rate(blocks.seconds),
      compressedBlocksPerSecond: compressed === null ? null : rate(compressed.seconds),
      ratio: median(records.seconds) / median(blocks.seconds),
    };
  });
}

/**
 * Runs `node script args` to completion (output inherited) and returns the CPU seconds of its busiest thread,
 * from Linux's /proc/<pid>/task/<tid>/stat sampled every 100 ms (null elsewhere). A thread's last sample may
 * miss up to 100 ms of its time; the ingest thread, the longest-lived, loses little.
 */
function runWatchingThreads(script: string, args: readonly string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: "inherit" });
    const ticks = new Map<string, number>();
    let readable = true;
    const sample = () => {
      try {
        for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
          try {
            const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, "utf8");
            const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
            // utime and stime: fields 14 and 15 of stat(5), counted from the state field (3).
            ticks.set(tid, Number(fields[11]) + Number(fields[12]));
          } catch {
            // The thread ended between the listing and the read.
          }
        }
      } catch {
        readable = ticks.size > 0;
      }
    };
    const timer = setInterval(sample, 100);
    child.once("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`mirrorlite ${args[0]} exited with ${code}`));
      else resolve(readable && ticks.size > 0 ? Math.max(...ticks.values()) / 100 : null);
    });
  });
}

/** Exports git ref `ref` into a temporary folder, links this checkout's node_modules and builds it. */
export function buildBaseline(ref: string): { script: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "mirrorlite-baseline-"));
  execFileSync("sh", ["-c", `git -C "${REPO}" archive "${ref}" | tar -x -C "${dir}"`]);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  execFileSync(process.execPath, [join(dir, "scripts/build.mjs")], { stdio: "ignore" });
  return {
    script: join(dir, "bin/mirrorlite.js"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The blocks written again as frames the `zstd` command compresses; null when it is not installed. */
function compressWithZstdCommand(
  work: string,
  files: Parameters<typeof writeBlockStream>[0],
  hapi: Parameters<typeof writeBlockStream>[1],
  numbers: readonly bigint[],
): string | null {
  if (spawnSync("zstd", ["--version"]).status !== 0) return null;
  const dir = join(work, "block-zstd");
  writeBlockStream(files, hapi, numbers, dir, { compression: "none", layout: "flat", markers: true });
  const blocks = readdirSync(dir).filter((name) => name.endsWith(".blk"));
  // `zstd -3 --rm` turns each `N.blk` into `N.blk.zst`, a suffix the reader takes.
  const result = spawnSync("zstd", ["-q", "-3", "--rm", ...blocks], { cwd: dir });
  return result.status === 0 ? dir : null;
}

/**
 * CPU seconds (user and system) of this process's finished children, from Linux's /proc/self/stat (in clock
 * ticks of 1/100 s); null elsewhere.
 */
function childrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of stat(5) (cutime, cstime), counted from the state field (3) after the command name.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

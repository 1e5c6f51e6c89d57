/**
 * `npm run bench -- block-ingest`: the same mainnet-like ledger (bulk.ts, mostly consensus messages and hbar
 * transfers) ingested by `mirrorlite ingest` as record files and as block stream blocks (one block per record
 * file, written by fixtures/writer/write-block-stream.ts as zstd frames of stored blocks), each in its own
 * process into a fresh index. The formats take turns for several rounds, so that a shared machine's load falls
 * on both alike; the medians are compared (target: blocks at least as fast as records).
 *
 * Nodes write compressed zstd frames, which cost a zstd decoder more than stored ones: when the `zstd` command is
 * installed, the same blocks compressed by it (level 3) are timed too, for information.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { writeBlockStream } from "../fixtures/writer/write-block-stream.ts";
import { readRecordFile } from "../src/streams/read-record-file.ts";
import { runMirrorlite } from "./lib/processes.ts";
import { withWorkDir } from "./lib/work-dir.ts";

export type BlockIngestFigures = {
  transactions: number;
  recordsPerSecond: number;
  blocksPerSecond: number;
  /** Blocks compressed by the `zstd` command (null: not installed). */
  compressedBlocksPerSecond: number | null;
  ratio: number;
};

const ROUNDS = 3;

export async function benchBlockIngest(transactions = 100_000): Promise<BlockIngestFigures> {
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
    const db = join(work, "bench.db");
    const cpu = { records: [] as number[], blocks: [] as number[], compressed: [] as number[] };
    const time = async (source: string[], cpuSeconds: number[]): Promise<number> => {
      for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
      const started = performance.now();
      const cpuBefore = childrenCpuSeconds();
      await runMirrorlite(["ingest", ...source, "--db", db, "--no-wait-signatures", "--log-level", "warn"]);
      const cpuAfter = childrenCpuSeconds();
      if (cpuBefore !== null && cpuAfter !== null) cpuSeconds.push(cpuAfter - cpuBefore);
      return (performance.now() - started) / 1000;
    };
    const seconds = { records: [] as number[], blocks: [] as number[], compressed: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      seconds.records.push(await time(["--records", recordsDir], cpu.records));
      seconds.blocks.push(await time(["--blocks", blocksDir], cpu.blocks));
      if (compressedDir !== null)
        seconds.compressed.push(await time(["--blocks", compressedDir], cpu.compressed));
    }
    const n = generated.transactions;
    const rate = (s: number[]) => n / median(s);
    const figures = {
      transactions: n,
      recordsPerSecond: rate(seconds.records),
      blocksPerSecond: rate(seconds.blocks),
      compressedBlocksPerSecond: compressedDir === null ? null : rate(seconds.compressed),
      ratio: median(seconds.records) / median(seconds.blocks),
    };
    const list = (s: number[]) => s.map((x) => x.toFixed(1)).join(", ");
    console.log(
      `block-ingest: ${n} tx, medians of ${ROUNDS} interleaved rounds: record files ${figures.recordsPerSecond.toFixed(0)} tx/s ` +
        `(${list(seconds.records)} s), blocks ${figures.blocksPerSecond.toFixed(0)} tx/s (${list(seconds.blocks)} s); ` +
        `blocks/records ${figures.ratio.toFixed(2)}`,
    );
    if (cpu.records.length === ROUNDS) {
      // CPU time is what a loaded machine disturbs least: the process's threads, all of them, while it ran.
      console.log(
        `block-ingest: CPU seconds (median): record files ${median(cpu.records).toFixed(2)}, blocks ${median(cpu.blocks).toFixed(2)}` +
          (compressedDir === null ? "" : `, compressed blocks ${median(cpu.compressed).toFixed(2)}`) +
          `; blocks/records ${(median(cpu.records) / median(cpu.blocks)).toFixed(2)}`,
      );
    }
    if (compressedDir !== null) {
      console.log(
        `block-ingest: blocks compressed by zstd -3 ${figures.compressedBlocksPerSecond!.toFixed(0)} tx/s ` +
          `(${list(seconds.compressed)} s); compressed blocks/records ${(median(seconds.records) / median(seconds.compressed)).toFixed(2)}`,
      );
    }
    return figures;
  });
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

/**
 * Ingest speed next to decode-only speed (issues 11 and 26): `mirrorlite ingest` should run at half the speed of
 * merely reading the same stream, process start included, in at most 256 MB, and blocks at least as fast as
 * record files.
 *
 * For each stream (the token-heavy mix: 500 transactions per file, one token per ten transactions; and a
 * mainnet-like mix: mostly ConsensusSubmitMessage and hbar transfers), written as record files and as block stream
 * blocks (one block per record file), it runs, each in its own process:
 *   - decode-only (bench/lib/decode-only.mjs): gunzip every record file and decode RecordStreamFile,
 *     SignedTransaction and TransactionBody with @hiero-ledger/proto;
 *   - `mirrorlite ingest` of the record files into a fresh SQLite file;
 *   - `mirrorlite ingest` of the blocks into a fresh SQLite file;
 *   - with `--baseline=REF`, the same two ingests by the build of git ref REF (before and after a change, under
 *     the same load);
 * and prints, side by side, transactions per second (wall clock, start to exit), the ratio to decode-only, the CPU
 * seconds of the busiest threads and the peak RSS. Each is measured `rounds` times and the fastest kept: on a
 * shared machine the fastest run is the one least disturbed by others. The load average is printed with them.
 *
 * Default: 20,000 transactions per mix (under a minute); `--full`: 200,000 (the figures); `--large` adds
 * the token-heavy 1,000,000.
 *
 * Run alone: `node --import tsx bench/ingest-speed.ts [--full] [--large] [--rounds N] [--baseline REF]`.
 */

import { readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { writeBlockStream } from "../fixtures/writer/write-block-stream.ts";
import { readRecordFile } from "../src/streams/read-record-file.ts";
import { buildBaseline } from "./block-ingest.ts";
import { REPO } from "./lib/processes.ts";
import { describeThreads, runWatched, type Watched } from "./lib/thread-watch.ts";
import { withWorkDir } from "./lib/work-dir.ts";

export type SpeedFigures = {
  name: string;
  transactions: number;
  decodeSeconds: number;
  decodeRssMb: number | null;
  ingestSeconds: number;
  ingestRssMb: number | null;
  blocksSeconds: number;
  blocksRssMb: number | null;
  /** Record ingest transactions per second over decode-only transactions per second. */
  ratio: number;
  /** The same for blocks. */
  blocksRatio: number;
};

export type SpeedOptions = { full?: boolean; large?: boolean; rounds?: number; baseline?: string };

type Variant = { label: string; args: (db: string) => string[]; script: string; best: Watched | null };

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

export async function benchIngestSpeed(options: SpeedOptions = {}): Promise<SpeedFigures[]> {
  const rounds = options.rounds ?? 1;
  const size = options.full ? 200_000 : 20_000;
  const streams: Array<{ name: string; transactions: number; mix: "tokens" | "mainnet" }> = [
    { name: `token-heavy, ${size / 1000}k tx`, transactions: size, mix: "tokens" },
    { name: `mainnet-like, ${size / 1000}k tx`, transactions: size, mix: "mainnet" },
  ];
  if (options.large)
    streams.push({ name: "token-heavy, 1M tx (scaling)", transactions: 1_000_000, mix: "tokens" });
  const baseline = options.baseline === undefined ? null : buildBaseline(options.baseline);
  const results: SpeedFigures[] = [];
  console.log(`ingest-speed: load average at start ${load()} (2 cores shared: figures are indicative)`);
  try {
    for (const stream of streams) {
      results.push(
        await withWorkDir("mirrorlite-bench-speed-", async ({ work, recordsDir }) => {
          const generated = generateBulkStream({
            dir: recordsDir,
            // Token-heavy: a token per ten transactions; mainnet-like: few tokens, many messages.
            tokens: stream.mix === "tokens" ? stream.transactions / 10 : stream.transactions / 1000,
            transactions: stream.transactions,
            transactionsPerFile: 500,
            signatures: false,
            signingKey: null,
            mix: stream.mix,
          });
          const blocksDir = join(work, "block-0.0.3");
          writeBlocks(recordsDir, blocksDir);
          return measure(stream.name, generated.transactions, recordsDir, blocksDir, work, rounds, baseline);
        }),
      );
    }
  } finally {
    baseline?.remove();
  }
  console.log(`ingest-speed: load average at end ${load()}`);
  return results;
}

/** The record files of `recordsDir` written again as a block stream (one block per file). */
function writeBlocks(recordsDir: string, blocksDir: string): void {
  const names = readdirSync(recordsDir)
    .filter((n) => n.endsWith(".rcd.gz"))
    .sort();
  const files = names.map((name) => readRecordFile(name, readFileSync(join(recordsDir, name))));
  const numbers = files.map((f, i) => f.blockNumber ?? BigInt(i));
  writeBlockStream(files, files[0]!.hapiVersion!, numbers, blocksDir, {
    compression: "zstd",
    layout: "flat",
    markers: true,
  });
}

async function measure(
  name: string,
  transactions: number,
  recordsDir: string,
  blocksDir: string,
  work: string,
  rounds: number,
  baseline: { script: string } | null,
): Promise<SpeedFigures> {
  const here = join(REPO, "bin/mirrorlite.js");
  const ingest = (source: string[]) => (db: string) => [
    "ingest",
    ...source,
    "--db",
    db,
    "--no-wait-signatures",
    "--log-level",
    "warn",
  ];
  const variants: Variant[] = [
    {
      label: "decode-only",
      script: join(REPO, "bench/lib/decode-only.mjs"),
      args: () => [recordsDir],
      best: null,
    },
    { label: "ingest records", script: here, args: ingest(["--records", recordsDir]), best: null },
    { label: "ingest blocks", script: here, args: ingest(["--blocks", blocksDir]), best: null },
  ];
  if (baseline !== null) {
    variants.push(
      {
        label: "records (baseline)",
        script: baseline.script,
        args: ingest(["--records", recordsDir]),
        best: null,
      },
      {
        label: "blocks (baseline)",
        script: baseline.script,
        args: ingest(["--blocks", blocksDir]),
        best: null,
      },
    );
  }
  const db = join(work, "bench.db");
  for (let round = 0; round < rounds; round++) {
    for (const variant of variants) {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(db + suffix, { force: true });
      const watched = await runWatched(variant.script, variant.args(db));
      if (variant.best === null || watched.seconds < variant.best.seconds) variant.best = watched;
    }
  }
  const decode = variants[0]!.best!;
  const rate = (seconds: number) => transactions / seconds;
  console.log(
    `ingest-speed: ${name} (fastest of ${rounds}; CPU seconds of the busiest threads; load ${load()})`,
  );
  for (const variant of variants) {
    const best = variant.best!;
    const ratio =
      variant === variants[0] ? "" : ` | ${(decode.seconds / best.seconds).toFixed(2)}× decode-only`;
    const rss = best.peakRssMb === null ? "n/a" : `${Math.round(best.peakRssMb)} MB`;
    console.log(
      `ingest-speed:   ${variant.label.padEnd(20)} ${Math.round(rate(best.seconds)).toString().padStart(7)} tx/s` +
        `${ratio} | peak RSS ${rss} | CPU ${describeThreads(best.threads)}`,
    );
  }
  const records = variants[1]!.best!;
  const blocks = variants[2]!.best!;
  return {
    name,
    transactions,
    decodeSeconds: decode.seconds,
    decodeRssMb: decode.peakRssMb,
    ingestSeconds: records.seconds,
    ingestRssMb: records.peakRssMb,
    blocksSeconds: blocks.seconds,
    blocksRssMb: blocks.peakRssMb,
    ratio: decode.seconds / records.seconds,
    blocksRatio: decode.seconds / blocks.seconds,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      full: { type: "boolean" },
      large: { type: "boolean" },
      rounds: { type: "string" },
      baseline: { type: "string" },
    },
  });
  await benchIngestSpeed({
    ...(values.full ? { full: true } : {}),
    ...(values.large ? { large: true } : {}),
    ...(values.rounds ? { rounds: Number(values.rounds) } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
  });
}

/**
 * Ingest speed next to decode-only speed (issue 11): `mirrorlite ingest` must run at half the speed of merely
 * reading the same stream, process start included, in at most 256 MB.
 *
 * For each stream (the token-heavy mix of the issue: 500 transactions per file, one token per ten
 * transactions; and a mainnet-like mix: mostly ConsensusSubmitMessage and hbar transfers), it runs, back to back
 * and each in its own process:
 *   - decode-only (bench/lib/decode-only.mjs): gunzip every file and decode RecordStreamFile, SignedTransaction
 *     and TransactionBody with @hiero-ledger/proto;
 *   - `mirrorlite ingest` into a fresh SQLite file;
 * and prints both in transactions per second (wall clock, start to exit), their ratio and each peak RSS. The
 * pair is measured `rounds` times and the best of each is kept: on a shared machine the best run is the one
 * least disturbed by others. Scaling: the token-heavy mix at 50k and 200k transactions (1M with --large, which
 * takes several minutes), so a slowdown as the index grows shows.
 *
 * Run alone: `node --import tsx bench/ingest-speed.ts [--large] [--rounds N]`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { REPO } from "./lib/processes.ts";
import { ingestGeneratedArgs } from "./lib/work-dir.ts";

export type SpeedFigures = {
  name: string;
  transactions: number;
  decodeSeconds: number;
  decodeRssMb: number | null;
  ingestSeconds: number;
  ingestRssMb: number | null;
  /** Ingest transactions per second over decode-only transactions per second. */
  ratio: number;
};

const TIME = "/usr/bin/time";

/** Runs a node script to completion; wall seconds and, where /usr/bin/time exists, the peak RSS in MB. */
function timed(args: readonly string[], work: string): Promise<{ seconds: number; rssMb: number | null }> {
  const rssFile = join(work, "rss.txt");
  rmSync(rssFile, { force: true });
  const withTime = existsSync(TIME);
  const command = withTime ? TIME : process.execPath;
  const argv = withTime ? ["-f", "%M", "-o", rssFile, process.execPath, ...args] : [...args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`${args.join(" ")} exited with ${code}`));
      const kb = withTime
        ? Number.parseInt(readFileSync(rssFile, "utf8").trim().split("\n").at(-1) ?? "", 10)
        : NaN;
      resolve({ seconds, rssMb: Number.isFinite(kb) ? kb / 1024 : null });
    });
  });
}

async function measure(name: string, recordsDir: string, transactions: number, rounds: number, work: string) {
  let decode = { seconds: Number.POSITIVE_INFINITY, rssMb: null as number | null };
  let ingest = { seconds: Number.POSITIVE_INFINITY, rssMb: null as number | null };
  for (let round = 0; round < rounds; round++) {
    const d = await timed([`${REPO}bench/lib/decode-only.mjs`, recordsDir], work);
    const dbFile = join(work, `index-${round}.db`);
    const i = await timed([`${REPO}bin/mirrorlite.js`, ...ingestGeneratedArgs(recordsDir, dbFile)], work);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
    if (d.seconds < decode.seconds) decode = d;
    if (i.seconds < ingest.seconds) ingest = i;
  }
  const figures: SpeedFigures = {
    name,
    transactions,
    decodeSeconds: decode.seconds,
    decodeRssMb: decode.rssMb,
    ingestSeconds: ingest.seconds,
    ingestRssMb: ingest.rssMb,
    ratio: decode.seconds / ingest.seconds,
  };
  const rate = (seconds: number) => `${Math.round(transactions / seconds)}`.padStart(7);
  const mb = (value: number | null) => (value === null ? "  n/a" : `${Math.round(value)}`.padStart(5));
  console.log(
    `${name.padEnd(34)} decode-only ${rate(decode.seconds)} tx/s (${mb(decode.rssMb)} MB) | ` +
      `ingest ${rate(ingest.seconds)} tx/s (${mb(ingest.rssMb)} MB peak RSS) | ratio ${figures.ratio.toFixed(2)}`,
  );
  return figures;
}

export async function benchIngestSpeed(options: { large?: boolean; rounds?: number } = {}) {
  const rounds = options.rounds ?? 2;
  const work = mkdtempSync(join(tmpdir(), "mirrorlite-bench-speed-"));
  const results: SpeedFigures[] = [];
  try {
    const streams: Array<{ name: string; transactions: number; mix: "tokens" | "mainnet" }> = [
      { name: "token-heavy, 200k tx", transactions: 200_000, mix: "tokens" },
      { name: "mainnet-like, 200k tx", transactions: 200_000, mix: "mainnet" },
      { name: "token-heavy, 50k tx (scaling)", transactions: 50_000, mix: "tokens" },
    ];
    if (options.large)
      streams.push({ name: "token-heavy, 1M tx (scaling)", transactions: 1_000_000, mix: "tokens" });
    for (const stream of streams) {
      const dir = join(work, "record0.0.3");
      rmSync(dir, { recursive: true, force: true });
      const generated = generateBulkStream({
        dir,
        // Token-heavy as in the issue: a token per ten transactions; mainnet-like: few tokens, many messages.
        tokens: stream.mix === "tokens" ? stream.transactions / 10 : stream.transactions / 1000,
        transactions: stream.transactions,
        transactionsPerFile: 500,
        signatures: false,
        signingKey: null,
        mix: stream.mix,
      });
      console.log(
        `ingest-speed: ${stream.name}: ${generated.files} files generated in ${(generated.durationMs / 1000).toFixed(1)} s`,
      );
      results.push(await measure(stream.name, dir, generated.transactions, rounds, work));
    }
    const at = (name: string) => results.find((r) => r.name === name);
    const scaling = [
      at("token-heavy, 50k tx (scaling)"),
      at("token-heavy, 200k tx"),
      at("token-heavy, 1M tx (scaling)"),
    ].filter((r) => r !== undefined);
    console.log(
      `ingest-speed: scaling (token-heavy) ${scaling
        .map((r) => `${r.transactions / 1000}k: ${Math.round(r.transactions / r.ingestSeconds)} tx/s`)
        .join(", ")}${options.large ? "" : " (1M: run with --large)"}`,
    );
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { large: { type: "boolean" }, rounds: { type: "string" } } });
  await benchIngestSpeed({
    ...(values.large ? { large: true } : {}),
    ...(values.rounds ? { rounds: Number(values.rounds) } : {}),
  });
}

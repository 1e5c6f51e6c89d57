/**
 * `npm run bench -- block-ingest`: the same mainnet-like ledger (bulk.ts, mostly consensus messages and hbar
 * transfers) ingested by `mirrorlite ingest` as record files and as block stream blocks (one block per record
 * file, written by fixtures/writer/write-block-stream.ts as zstd frames of stored blocks), each in its own
 * process into a fresh index. Prints both rates and blocks/records (target: at least 1).
 */
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
  ratio: number;
};

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
    writeBlockStream(
      files,
      files[0]!.hapiVersion!,
      files.map((f, i) => f.blockNumber ?? BigInt(i)),
      blocksDir,
      {
        compression: "zstd",
        layout: "flat",
        markers: true,
      },
    );
    const db = join(work, "bench.db");
    const time = async (source: string[]): Promise<number> => {
      for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
      const started = performance.now();
      await runMirrorlite(["ingest", ...source, "--db", db, "--no-wait-signatures", "--log-level", "warn"]);
      return (performance.now() - started) / 1000;
    };
    const recordSeconds = await time(["--records", recordsDir]);
    const blockSeconds = await time(["--blocks", blocksDir]);
    const n = generated.transactions;
    const figures = {
      transactions: n,
      recordsPerSecond: n / recordSeconds,
      blocksPerSecond: n / blockSeconds,
      ratio: recordSeconds / blockSeconds,
    };
    console.log(
      `block-ingest: ${n} tx as record files ${figures.recordsPerSecond.toFixed(0)} tx/s, as blocks ` +
        `${figures.blocksPerSecond.toFixed(0)} tx/s (blocks/records ${figures.ratio.toFixed(2)})`,
    );
    return figures;
  });
}

/**
 * Ingest throughput and token-lookup speed (issue: the ingest foundation).
 *
 * 1. Writes a bulk stream with the scenario engine's generator (token creates, fungible and NFT mints, token
 *    and NFT transfers among many accounts) and times `mirrorlite ingest` on it. The figure is transactions
 *    per second of the ingest process from start to exit, and of the file applications alone (the sum of the
 *    per-file `durationMs` the ingest log reports: decode, verify and the SQLite transaction).
 * 2. Serves the index with `mirrorlite serve` in a child process and drives `GET /api/v1/tokens/{id}` over a
 *    rotating set of ids, without and with `timestamp`, with autocannon (32 connections), next to a bare
 *    `node:http` server answering a fixed body of the same size, in the same run. Target: at least half of
 *    the bare server's requests per second. Then URLs never asked before (a new id, a new instant on every
 *    request: nothing is answered from the response cache), target a quarter of bare, and for information
 *    point-in-time balances and token lists with a new URL on every request.
 *
 * Run alone: `node --import tsx bench/ingest-and-lookup.ts [--transactions N] [--tokens N] [--seconds S]`.
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { type BareComparison, compareWithBare } from "./lib/load.ts";
import { REPO } from "./lib/processes.ts";
import { ingestGeneratedArgs, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

export type IngestFigures = { transactions: number; files: number; seconds: number; applySeconds: number };

export type LookupResult = BareComparison;

/** Runs `mirrorlite ingest` and adds up what its per-file log lines report. */
function timedIngest(recordsDir: string, dbFile: string): Promise<IngestFigures> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [`${REPO}bin/mirrorlite.js`, ...ingestGeneratedArgs(recordsDir, dbFile, "info")],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let transactions = 0;
    let files = 0;
    let applyMs = 0;
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const entry = JSON.parse(line) as { msg?: string; transactions?: number; durationMs?: number };
        if (entry.msg !== "ingested record file") continue;
        files += 1;
        transactions += entry.transactions ?? 0;
        applyMs += entry.durationMs ?? 0;
      }
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`mirrorlite ingest exited with ${code}`));
      resolve({
        transactions,
        files,
        seconds: (performance.now() - started) / 1000,
        applySeconds: applyMs / 1000,
      });
    });
  });
}

export async function benchIngestAndLookup(
  options: { transactions?: number; tokens?: number; seconds?: number } = {},
) {
  const transactions = options.transactions ?? 200_000;
  const tokens = options.tokens ?? 20_000;
  const seconds = options.seconds ?? 10;
  return withWorkDir("mirrorlite-bench-ingest-", async ({ recordsDir, dbFile }) => {
    const generated = generateBulkStream({
      dir: recordsDir,
      tokens,
      transactions,
      signatures: false,
      signingKey: null,
    });
    console.log(
      `ingest: generated ${generated.transactions} transactions in ${generated.files} files ` +
        `(${generated.tokens} tokens, ${generated.nftsMinted} NFTs) in ${(generated.durationMs / 1000).toFixed(1)} s`,
    );
    const ingest = await timedIngest(recordsDir, dbFile);
    console.log(
      `ingest: ${ingest.transactions} transactions in ${ingest.seconds.toFixed(1)} s = ` +
        `${(ingest.transactions / ingest.seconds).toFixed(0)} tx/s (process start to exit); ` +
        `file application alone ${(ingest.transactions / ingest.applySeconds).toFixed(0)} tx/s (target 25000)`,
    );

    const first = Number(generated.firstTokenId!.split(".")[2]);
    const last = Number(generated.lastTokenId!.split(".")[2]);
    /** `count` token ids spread evenly over the first `share` of the tokens created. */
    const spread = (count: number, share: number) =>
      Array.from(
        { length: count },
        (_, i) => `0.0.${first + Math.floor(((last - first) * share * i) / (count - 1))}`,
      );
    const ids = spread(1000, 1);
    // An instant half-way through the stream, asked of tokens created before it (each file covers 2 s).
    const middleSeconds = 1735689600 + Math.floor(generated.files);
    const middle = `${middleSeconds}.000000000`;
    const olderIds = spread(1000, 0.45);
    // More distinct ids than the response cache keeps (10,000): round-robin, every request reads SQLite.
    const manyIds = spread(Math.min(20_000, last - first + 1), 1);
    /** A URL never asked before on every call: an instant after `middle`, one nanosecond later each time. */
    let fresh = 0;
    const newInstant = () => {
      fresh++;
      const seconds = middleSeconds + (fresh % Math.max(1, generated.files));
      return `${seconds}.${String(fresh % 1_000_000_000).padStart(9, "0")}`;
    };
    const results: LookupResult[] = [];
    await withMirrorlite(recordsDir, dbFile, async (server) => {
      for (const [name, paths, target] of [
        ["GET /api/v1/tokens/{id} (1000 ids)", ids.map((id) => `/api/v1/tokens/${id}`), 0.5],
        [
          "GET /api/v1/tokens/{id}?timestamp=lte:T (1000 ids)",
          olderIds.map((id) => `/api/v1/tokens/${id}?timestamp=lte:${middle}`),
          0.5,
        ],
        [
          `GET /api/v1/tokens/{id} (a new id every request, ${manyIds.length} ids)`,
          manyIds.map((id) => `/api/v1/tokens/${id}`),
          0.25,
        ],
        [
          "GET /api/v1/tokens/{id}?timestamp=lte:T (a new T every request)",
          (i: number) => `/api/v1/tokens/${olderIds[i % olderIds.length]}?timestamp=lte:${newInstant()}`,
          0.25,
        ],
        [
          "GET /api/v1/tokens/{id}/balances?timestamp=lte:T (a new T every request)",
          (i: number) =>
            `/api/v1/tokens/${olderIds[i % olderIds.length]}/balances?timestamp=lte:${newInstant()}`,
          null,
        ],
        [
          "GET /api/v1/tokens?token.id=gt:X (a new X every request)",
          // The second bound changes on every request, so no answer is ever reused.
          () =>
            `/api/v1/tokens?token.id=gt:${manyIds[fresh++ % manyIds.length]}&token.id=lt:0.0.${4_000_000_000 - fresh}`,
          null,
        ],
      ] as const) {
        results.push(await compareWithBare({ port: server.port, name, paths, target, seconds }));
      }
    });
    return { ingest, results };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { transactions: { type: "string" }, tokens: { type: "string" }, seconds: { type: "string" } },
  });
  await benchIngestAndLookup({
    ...(values.transactions ? { transactions: Number(values.transactions) } : {}),
    ...(values.tokens ? { tokens: Number(values.tokens) } : {}),
    ...(values.seconds ? { seconds: Number(values.seconds) } : {}),
  });
}

/**
 * Reads off the event loop (issue 18): token lookups through the read-worker pool, driven by wrk (1 thread,
 * 32 connections), next to a bare `node:http` server answering a body of the same size, for `--read-workers`
 * 1, 2 and 4 and the default (cores − 1):
 *
 * - uncached: `GET /api/v1/tokens/{id}?timestamp=lte:T` with a new T on every request (each one a query on a
 *   read worker). Target: 0.35× bare with the default pool.
 * - cache hits: `GET /api/v1/tokens/{id}` over 1000 ids, kept by the response cache after a warm-up (answered on
 *   the front, never by a worker). Target: 0.5× bare.
 *
 * Each line gives requests per second, p50 and p99 latency and the ratio to bare (measured right after it). Run
 * alone: `node --import tsx bench/read-pool.ts [--transactions N] [--seconds S] [--workers 1,2,4]`.
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import type { BareComparison } from "./lib/load.ts";
import { bodySize, freePort, runMirrorlite, startBareServer, startMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withWorkDir } from "./lib/work-dir.ts";
import { ensureWrk, runWrk, type WrkPaths, type WrkResult } from "./lib/wrk.ts";

const WARM_UP_SECONDS = 2;

function print(result: WrkResult, bare: WrkResult): number {
  const ratio = result.requestsPerSecond / bare.requestsPerSecond;
  console.log(
    `${result.label.padEnd(62)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms` +
      `  | bare ${bare.requestsPerSecond.toFixed(0)} req/s p99 ${bare.p99Ms.toFixed(2)} ms | ratio ${ratio.toFixed(2)}` +
      (result.errors + result.non2xx > 0 ? `  (errors ${result.errors}, non-2xx ${result.non2xx})` : ""),
  );
  return ratio;
}

/** The bare server under the same load, answering a body of `bytes`. */
async function bareFigures(bytes: number, seconds: number): Promise<WrkResult> {
  const bare = await startBareServer(bytes);
  try {
    const paths: WrkPaths = { kind: "fixed", path: "/" };
    await runWrk({ label: "warm-up", port: bare.port, paths, seconds: WARM_UP_SECONDS });
    return await runWrk({ label: `bare node:http, ${bytes} B body`, port: bare.port, paths, seconds });
  } finally {
    await bare.stop();
  }
}

export async function benchReadPool(
  options: { transactions?: number; seconds?: number; workers?: readonly number[] } = {},
): Promise<BareComparison[]> {
  ensureWrk();
  const transactions = options.transactions ?? 50_000;
  const seconds = options.seconds ?? 10;
  const defaultWorkers = Math.max(1, availableParallelism() - 1);
  return withWorkDir("mirrorlite-bench-reads-", async ({ recordsDir, dbFile }) => {
    const generated = generateBulkStream({
      dir: recordsDir,
      tokens: 5_000,
      transactions,
      signatures: false,
      signingKey: null,
    });
    await runMirrorlite(ingestGeneratedArgs(recordsDir, dbFile));
    console.log(`reads: ingested ${generated.transactions} transactions (${generated.tokens} tokens)`);
    const first = Number(generated.firstTokenId!.split(".")[2]);
    const last = Number(generated.lastTokenId!.split(".")[2]);
    // 1000 ids among the tokens created in the first 45% of the stream, asked at instants after that.
    const ids = Array.from({ length: 1000 }, (_, i) => first + Math.floor(((last - first) * 0.45 * i) / 999));
    const middleSeconds = 1735689600 + Math.floor(generated.files);
    const span = Math.max(1, generated.files);
    const prelude = `local ids = {${ids.join(",")}}`;
    const fresh: WrkPaths = {
      kind: "lua",
      prelude,
      // A new instant every request: one nanosecond later each time, over the second half of the stream.
      expression: `"/api/v1/tokens/0.0." .. ids[(n % #ids) + 1] .. "?timestamp=lte:" .. (${middleSeconds} + (n % ${span})) .. "." .. string.format("%09d", n % 1000000000)`,
    };
    const cached: WrkPaths = {
      kind: "lua",
      prelude,
      expression: `"/api/v1/tokens/0.0." .. ids[(n % #ids) + 1]`,
    };

    const results: BareComparison[] = [];
    // The bare server is measured right after each load, so both see the same machine (it is shared and busy).
    const bareFor = (bytes: number) => bareFigures(bytes, seconds);
    const counts = [...new Set(options.workers ?? [1, 2, 4, defaultWorkers])].sort((a, b) => a - b);
    for (const workers of counts) {
      const port = await freePort();
      const server = await startMirrorlite(recordsDir, dbFile, port, ["--read-workers", String(workers)]);
      try {
        const suffix = `--read-workers ${workers}${workers === defaultWorkers ? " (default)" : ""}`;
        const freshBytes = await bodySize(
          port,
          `/api/v1/tokens/0.0.${ids[1]}?timestamp=lte:${middleSeconds}.5`,
        );
        await runWrk({ label: "warm-up", port, paths: fresh, seconds: WARM_UP_SECONDS });
        const uncached = await runWrk({
          label: `uncached, a new T every request, ${suffix}`,
          port,
          paths: fresh,
          seconds,
        });
        const freshBare = await bareFor(freshBytes);
        const uncachedRatio = print(uncached, freshBare);

        const hitBytes = await bodySize(port, `/api/v1/tokens/0.0.${ids[1]}`);
        // Each URL asked at least twice: kept by the response cache from then on.
        await runWrk({ label: "warm-up", port, paths: cached, seconds: WARM_UP_SECONDS });
        const hits = await runWrk({ label: `cache hits, 1000 ids, ${suffix}`, port, paths: cached, seconds });
        const hitBare = await bareFor(hitBytes);
        const hitRatio = print(hits, hitBare);
        if (workers === defaultWorkers) {
          const asLoad = (r: WrkResult) => ({ ...r, p50Ms: r.p50Ms, p99Ms: r.p99Ms });
          results.push(
            {
              name: `uncached token lookup (new T), default pool of ${workers}`,
              subject: asLoad(uncached),
              bare: asLoad(freshBare),
              bodyBytes: freshBytes,
              ratio: uncachedRatio,
              target: 0.35,
            },
            {
              name: `cached token lookup, default pool of ${workers}`,
              subject: asLoad(hits),
              bare: asLoad(hitBare),
              bodyBytes: hitBytes,
              ratio: hitRatio,
              target: 0.5,
            },
          );
        }
      } finally {
        await server.stop();
      }
    }
    return results;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { transactions: { type: "string" }, seconds: { type: "string" }, workers: { type: "string" } },
  });
  const results = await benchReadPool({
    ...(values.transactions === undefined ? {} : { transactions: Number(values.transactions) }),
    ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
    ...(values.workers === undefined ? {} : { workers: values.workers.split(",").map(Number) }),
  });
  for (const r of results) console.log(`${r.name}: ratio ${r.ratio.toFixed(2)}, target ${r.target}`);
}

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
 * Each case alternates with the bare server `--rounds` times (default 3) and prints each round and the medians:
 * requests per second, p50 and p99 latency, the ratio to bare, and the CPU time per request of each server
 * process (all threads, and our main thread alone) with their ratio, the figure that moves least on a shared
 * machine. Run alone: `node --import tsx bench/read-pool.ts [--transactions N] [--seconds S] [--rounds R]
 * [--workers 1,2,4]`.
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { bodySize, freePort, runMirrorlite, startMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withWorkDir } from "./lib/work-dir.ts";
import { ensureWrk, type WrkPaths } from "./lib/wrk.ts";
import { type CpuComparison, compareWithBareWrk } from "./lib/wrk-compare.ts";

export async function benchReadPool(
  options: { transactions?: number; seconds?: number; rounds?: number; workers?: readonly number[] } = {},
): Promise<CpuComparison[]> {
  ensureWrk();
  const transactions = options.transactions ?? 50_000;
  const seconds = options.seconds ?? 5;
  const rounds = options.rounds ?? 3;
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

    const results: CpuComparison[] = [];
    const summary: string[] = [];
    const counts = [...new Set(options.workers ?? [1, 2, 4, defaultWorkers])].sort((a, b) => a - b);
    for (const workers of counts) {
      const port = await freePort();
      const server = await startMirrorlite(recordsDir, dbFile, port, ["--read-workers", String(workers)]);
      try {
        const suffix = `--read-workers ${workers}${workers === defaultWorkers ? " (default)" : ""}`;
        const uncached = await compareWithBareWrk({
          server,
          name: `uncached, a new T every request, ${suffix}`,
          paths: fresh,
          bodyBytes: await bodySize(port, `/api/v1/tokens/0.0.${ids[1]}?timestamp=lte:${middleSeconds}.5`),
          target: workers === defaultWorkers ? 0.35 : null,
          seconds,
          rounds,
        });
        // Each URL asked at least twice in the warm-up: kept by the response cache from then on.
        const hits = await compareWithBareWrk({
          server,
          name: `cache hits, 1000 ids, ${suffix}`,
          paths: cached,
          bodyBytes: await bodySize(port, `/api/v1/tokens/0.0.${ids[1]}`),
          target: workers === defaultWorkers ? 0.5 : null,
          seconds,
          rounds,
        });
        for (const r of [uncached, hits]) {
          summary.push(
            `${r.name.padEnd(58)} ratio ${r.ratio.toFixed(2)}, p99 ${r.subject.p99Ms.toFixed(1)} ms` +
              (r.cpu === null
                ? ""
                : `, CPU/request ${r.cpu.subject.totalUs.toFixed(1)} µs (main ${r.cpu.subject.mainUs.toFixed(1)}) vs bare ${r.cpu.bare.totalUs.toFixed(1)}: CPU ratio ${r.cpu.ratio.toFixed(2)}`),
          );
        }
        if (workers === defaultWorkers) {
          results.push(
            { ...uncached, name: `uncached token lookup (new T), default pool of ${workers}` },
            { ...hits, name: `cached token lookup, default pool of ${workers}` },
          );
        }
      } finally {
        await server.stop();
      }
    }
    console.log(`\nreads: medians of ${rounds} rounds of ${seconds} s, each next to the bare server`);
    for (const text of summary) console.log(text);
    return results;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      transactions: { type: "string" },
      seconds: { type: "string" },
      rounds: { type: "string" },
      workers: { type: "string" },
    },
  });
  const results = await benchReadPool({
    ...(values.transactions === undefined ? {} : { transactions: Number(values.transactions) }),
    ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
    ...(values.rounds === undefined ? {} : { rounds: Number(values.rounds) }),
    ...(values.workers === undefined ? {} : { workers: values.workers.split(",").map(Number) }),
  });
  for (const r of results) console.log(`${r.name}: ratio ${r.ratio.toFixed(2)}, target ${r.target}`);
}

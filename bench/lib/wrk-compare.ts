/**
 * One endpoint against the bare `node:http` server under `wrk`, alternating the two several times (A, B, A, B,
 * …) so that both see the same moments of a shared machine, and reporting medians of:
 *
 * - requests per second and latency, and their ratio to the bare server's (the target figures);
 * - CPU time per request of each server process (all its threads, and the main thread alone), read from
 *   `/proc` around each load, and the CPU ratio (bare CPU per request / ours). On a saturated machine
 *   throughput follows CPU, and CPU per request moves much less than throughput when neighbours' load comes
 *   and goes: it is the figure to compare between runs and between versions.
 */
import { type CpuPerRequest, median, withCpu } from "./cpu.ts";
import type { BareComparison } from "./load.ts";
import { type Child, startBareServer } from "./processes.ts";
import { runWrk, type WrkPaths, type WrkResult } from "./wrk.ts";

/** A comparison with CPU figures (null where `/proc` cannot be read). */
export type CpuComparison = BareComparison & {
  /** Medians over the rounds: our CPU per request (all threads / main thread) and the bare server's. */
  cpu: { subject: CpuPerRequest; bare: CpuPerRequest; ratio: number } | null;
  rounds: number;
};

const BARE_PATH: WrkPaths = { kind: "fixed", path: "/" };

function line(name: string, subject: WrkResult, bare: WrkResult, cpu: CpuComparison["cpu"]): string {
  const ratio = subject.requestsPerSecond / bare.requestsPerSecond;
  const cpuText =
    cpu === null
      ? ""
      : ` | CPU/request ${cpu.subject.totalUs.toFixed(1)} µs (main thread ${cpu.subject.mainUs.toFixed(1)}), bare ${cpu.bare.totalUs.toFixed(1)} µs, CPU ratio ${cpu.ratio.toFixed(2)}`;
  return (
    `${name.padEnd(58)} ${subject.requestsPerSecond.toFixed(0).padStart(7)} req/s p50 ${subject.p50Ms.toFixed(2)} ms p99 ${subject.p99Ms.toFixed(2)} ms` +
    ` | bare ${bare.requestsPerSecond.toFixed(0)} req/s | ratio ${ratio.toFixed(2)}${cpuText}` +
    (subject.errors + subject.non2xx > 0 ? ` (errors ${subject.errors}, non-2xx ${subject.non2xx})` : "")
  );
}

/** The median result of several runs (each figure its own median). */
function medianResult(label: string, results: readonly WrkResult[]): WrkResult {
  return {
    label,
    requests: median(results.map((r) => r.requests)),
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

/** `paths` numbered from `start` (a fixed path as it is). */
function from(paths: WrkPaths, start: number): WrkPaths {
  return paths.kind === "lua" ? { ...paths, start } : paths;
}

/** Requests numbers apart that no run reaches: every run of a comparison asks its own URLs. */
const RUN_SPAN = 100_000_000;

/**
 * Measures `paths` on `server` and the bare server answering `bodyBytes` (started here), `rounds` times each,
 * alternating, after a warm-up of each (`warmUp: false` skips ours: a warm-up of distinct URLs that are then
 * asked again would be answered from the cache). Prints each round and the medians.
 */
export async function compareWithBareWrk(options: {
  server: Child;
  name: string;
  paths: WrkPaths;
  bodyBytes: number;
  target: number | null;
  seconds: number;
  rounds: number;
  warmUp?: boolean;
  connections?: number;
}): Promise<CpuComparison> {
  const { server, name, paths, bodyBytes, target, seconds, rounds } = options;
  const connections = options.connections ?? 32;
  const bare = await startBareServer(bodyBytes);
  try {
    if (options.warmUp !== false)
      await runWrk({ label: "warm-up", port: server.port, paths: from(paths, 0), seconds: 2, connections });
    await runWrk({ label: "warm-up", port: bare.port, paths: BARE_PATH, seconds: 2, connections });
    const ours: WrkResult[] = [];
    const theirs: WrkResult[] = [];
    const ourCpu: CpuPerRequest[] = [];
    const bareCpu: CpuPerRequest[] = [];
    for (let round = 0; round < rounds; round++) {
      const a = await withCpu(server.process.pid, () =>
        runWrk({
          label: name,
          port: server.port,
          paths: from(paths, (round + 1) * RUN_SPAN),
          seconds,
          connections,
        }),
      );
      const b = await withCpu(bare.process.pid, () =>
        runWrk({ label: "bare", port: bare.port, paths: BARE_PATH, seconds, connections }),
      );
      ours.push(a.result);
      theirs.push(b.result);
      if (a.cpu !== null && b.cpu !== null) {
        ourCpu.push(a.cpu);
        bareCpu.push(b.cpu);
      }
      if (rounds > 1) {
        const cpu =
          a.cpu === null || b.cpu === null
            ? null
            : { subject: a.cpu, bare: b.cpu, ratio: b.cpu.totalUs / a.cpu.totalUs };
        console.log(`  round ${round + 1}: ${line(name, a.result, b.result, cpu)}`);
      }
    }
    const subject = medianResult(name, ours);
    const bareResult = medianResult(`bare node:http, ${bodyBytes} B body`, theirs);
    const cpu =
      ourCpu.length === 0
        ? null
        : {
            subject: {
              totalUs: median(ourCpu.map((c) => c.totalUs)),
              mainUs: median(ourCpu.map((c) => c.mainUs)),
            },
            bare: {
              totalUs: median(bareCpu.map((c) => c.totalUs)),
              mainUs: median(bareCpu.map((c) => c.mainUs)),
            },
            ratio: median(ourCpu.map((c, i) => bareCpu[i]!.totalUs / c.totalUs)),
          };
    console.log(`${rounds > 1 ? `median of ${rounds}: ` : ""}${line(name, subject, bareResult, cpu)}`);
    return {
      name,
      subject,
      bare: bareResult,
      bodyBytes,
      ratio: median(ours.map((r, i) => r.requestsPerSecond / theirs[i]!.requestsPerSecond)),
      target,
      cpu,
      rounds,
    };
  } finally {
    await bare.stop();
  }
}

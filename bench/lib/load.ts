import autocannon from "autocannon";
import { bodySize, startBareServer } from "./processes.ts";

export type LoadResult = {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
};

/**
 * The URLs a load asks for: a list driven round-robin, or a function of the request's index (for a URL never
 * asked before on every request: a new instant, a new id).
 */
export type Paths = readonly string[] | ((index: number) => string);

const pathAt = (paths: Paths, index: number): string =>
  typeof paths === "function" ? paths(index) : (paths[index % paths.length] ?? "/");

/**
 * Drives `paths` against a server on loopback with autocannon (32 connections by default) and reports the
 * mean requests per second and latency percentiles.
 */
export async function load(
  label: string,
  port: number,
  paths: Paths,
  seconds = 10,
  connections = 32,
): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: pathAt(paths, next++) }),
      },
    ],
  });
  return toLoadResult(label, result);
}

/** The figures a bench keeps from an autocannon run. */
export function toLoadResult(label: string, result: autocannon.Result): LoadResult {
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Prints a result next to the bare server's and their ratio. */
export function printComparison(subject: LoadResult, bare: LoadResult): void {
  const ratio = subject.requestsPerSecond / bare.requestsPerSecond;
  console.log(
    `${subject.label.padEnd(48)} ${subject.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${subject.p50Ms} ms  p99 ${subject.p99Ms} ms` +
      `  | bare ${bare.requestsPerSecond.toFixed(0)} req/s p99 ${bare.p99Ms} ms  | ratio ${ratio.toFixed(2)}` +
      (subject.errors + subject.non2xx > 0 ? `  (errors ${subject.errors}, non-2xx ${subject.non2xx})` : ""),
  );
}

/** One endpoint measured next to the bare server in the same run. */
export type BareComparison = {
  name: string;
  subject: LoadResult;
  bare: LoadResult;
  /** Size of the endpoint's response body, which the bare server answers too. */
  bodyBytes: number;
  /** subject / bare requests per second. */
  ratio: number;
  /** The ratio the endpoint must reach; null for a figure given for information. */
  target: number | null;
};

const WARM_UP_SECONDS = 2;

/**
 * Measures `paths` on the server at `port`, then a bare node:http server (started here, in its own process)
 * answering a body of the same size, each after a short warm-up, and prints both with their ratio.
 * `warmUp: false` skips the subject's warm-up (a warm-up of many distinct pages would cache them).
 */
export async function compareWithBare(options: {
  port: number;
  name: string;
  paths: Paths;
  target: number | null;
  seconds: number;
  connections?: number;
  warmUp?: boolean;
}): Promise<BareComparison> {
  const { port, name, paths, target, seconds, connections = 32 } = options;
  const bodyBytes = await bodySize(port, pathAt(paths, 0));
  const bare = await startBareServer(bodyBytes);
  try {
    if (options.warmUp !== false) await load("warm-up", port, paths, WARM_UP_SECONDS, connections);
    const subject = await load(name, port, paths, seconds, connections);
    await load("warm-up", bare.port, ["/"], WARM_UP_SECONDS, connections);
    const bareResult = await load(
      `bare node:http, ${bodyBytes} B body`,
      bare.port,
      ["/"],
      seconds,
      connections,
    );
    printComparison(subject, bareResult);
    const ratio = subject.requestsPerSecond / bareResult.requestsPerSecond;
    return { name, subject, bare: bareResult, bodyBytes, ratio, target };
  } finally {
    await bare.stop();
  }
}

/** Prints one line per comparison, `name: ratio R, target T met|MISSED` (no verdict for a null target). */
export function printVerdicts(results: readonly BareComparison[]): void {
  for (const { name, ratio, target } of results) {
    const verdict =
      target === null ? "" : `, target ${target.toFixed(2)} ${ratio >= target ? "met" : "MISSED"}`;
    console.log(`${name}: ratio ${ratio.toFixed(2)}${verdict}`);
  }
}

import autocannon from "autocannon";

export type LoadResult = {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
};

/**
 * Drives `paths` round-robin against a server on loopback with autocannon (32 connections by default) and
 * reports the mean requests per second and latency percentiles.
 */
export async function load(
  label: string,
  port: number,
  paths: readonly string[],
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
        setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] ?? "/" }),
      },
    ],
  });
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

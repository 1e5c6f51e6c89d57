/**
 * The front's own work for an uncached GET, before it hands the request to a read worker (issue 23, "a cheap
 * hop"): matching the path, and then either parsing the query on the front and serializing the parsed query,
 * the URL and the path parameters for the worker (as the front did), or serializing only the template and the
 * URL (as it does now: the worker parses). `v8.serialize` stands in for `postMessage`, which clones with the same
 * serializer. No index, no threads: CPU time of this one thread per request, for a few URLs clients ask most.
 * Measured on a shared machine: the load average is printed beside the figures.
 *
 * Run: `node --import tsx bench/front-hop.ts [--iterations N]`.
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { serialize } from "node:v8";
import { apiRoutes } from "../src/api/app.ts";
import { createRouteMatcher } from "../src/api/route-match.ts";

const URLS = [
  "/api/v1/tokens/0.0.1234?timestamp=lte:1735689700.000001234",
  "/api/v1/accounts/0.0.1001?limit=25&order=desc",
  "/api/v1/transactions?account.id=0.0.1001&limit=25&timestamp=gt:1735689600.000000000&type=credit",
  "/api/v1/topics/0.0.1500/messages?sequencenumber=gte:10&limit=25",
  "/api/v1/balances?account.id=0.0.1001&timestamp=1735689700.5",
];

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

export function benchFrontHop(iterations = 50_000): void {
  const routes = apiRoutes();
  const match = createRouteMatcher(routes);
  let id = 0;
  const parseOnFront = (url: string) => {
    const question = url.indexOf("?");
    const found = match(question === -1 ? url : url.slice(0, question))!;
    const request = { url, params: found.params };
    const query = found.route.parse(request);
    return serialize({ type: "jobs", jobs: [[++id, found.route.template, "GET", query, url, found.params]] });
  };
  const urlOnly = (url: string) => {
    const question = url.indexOf("?");
    const found = match(question === -1 ? url : url.slice(0, question))!;
    return serialize({ type: "jobs", jobs: [[++id, found.route.template, "GET", url]] });
  };
  const time = (step: (url: string) => unknown, url: string) => {
    for (let i = 0; i < 2000; i++) step(url);
    const start = cpuMicros();
    for (let i = 0; i < iterations; i++) step(url);
    return (cpuMicros() - start) / iterations;
  };
  console.log(
    `front hop: ${iterations} requests per URL; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  for (const url of URLS) {
    // Alternated twice, the lower of each kept: the figure least disturbed by other processes.
    const before = Math.min(time(parseOnFront, url), time(parseOnFront, url));
    const after = Math.min(time(urlOnly, url), time(urlOnly, url));
    console.log(
      `${url.padEnd(100)} parse on the front + clone: ${before.toFixed(2)} µs, URL only: ${after.toFixed(2)} µs (${(before - after).toFixed(2)} µs less)`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { iterations: { type: "string" } } });
  benchFrontHop(values.iterations === undefined ? undefined : Number(values.iterations));
}

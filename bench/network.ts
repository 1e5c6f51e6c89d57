/**
 * Speed of the network group's GETs against a bare `node:http` server: `/api/v1/network/nodes` (the demo's
 * four-node address book joined with nodes and stake, one full page) and `/api/v1/network/exchangerate`
 * (0.0.112 rebuilt from an update and an append, then parsed). The stream is the bundled demo's (generated
 * from `fixtures/scenarios/demo.yaml`), ingested with `mirrorlite ingest` and served by `mirrorlite serve` in
 * a child process; each endpoint is driven with autocannon next to a bare server answering a body of the same
 * size, in the same run. Target: at least 1/3 of the bare server's requests per second.
 *
 * Answers are kept rendered until the next record file is applied, so they are never stale (the list
 * cache's bound is not even needed); the two targeted figures show what a repeated request costs, and a run
 * over distinct URLs (for information, no target) what computing an answer costs.
 *
 * Run alone: `node --import tsx bench/network.ts [--seconds S]`.
 */
import { parseArgs } from "node:util";
import { type BareComparison, compareWithBare, printVerdicts } from "./lib/load.ts";
import { runMirrorlite } from "./lib/processes.ts";
import { copyDemoStream, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

export type NetworkBenchOptions = { seconds?: number; connections?: number };

export async function benchNetwork(options: NetworkBenchOptions = {}): Promise<BareComparison[]> {
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 32;
  return withWorkDir("mirrorlite-bench-network-", async ({ recordsDir, dbFile }) => {
    copyDemoStream(recordsDir);
    await runMirrorlite(["ingest", "--records", recordsDir, "--db", dbFile, "--log-level", "warn"]);
    return withMirrorlite(recordsDir, dbFile, async (server) => {
      // Distinct URLs (an ignored parameter makes each one new), so nearly every request computes its answer.
      const uncached = Array.from({ length: 50_000 }, (_, i) => `/api/v1/network/nodes?n=${i}`);
      const cases = [
        {
          name: "GET /api/v1/network/nodes (4-node address book)",
          paths: ["/api/v1/network/nodes"],
          target: 1 / 3,
        },
        { name: "GET /api/v1/network/exchangerate", paths: ["/api/v1/network/exchangerate"], target: 1 / 3 },
        { name: "(info) nodes, 50,000 distinct URLs", paths: uncached, target: null },
      ];
      const results: BareComparison[] = [];
      for (const { name, paths, target } of cases) {
        // A warm-up of the distinct URLs would keep their answers: it is left out there.
        const warmUp = paths.length === 1;
        results.push(
          await compareWithBare({ port: server.port, name, paths, target, seconds, connections, warmUp }),
        );
      }
      return results;
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { seconds: { type: "string" } } });
  printVerdicts(await benchNetwork(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }));
}

/**
 * Speed of the account sub-resources against a bare `node:http` server, on the account-relations scenario
 * (`fixtures/scenarios/account-relations.yaml`), ingested with `mirrorlite ingest` and served by
 * `mirrorlite serve` in a child process: one Node-style list (`/accounts/{id}/nfts`, two-key paging) and one
 * Java-style list (`/accounts/{id}/airdrops/outstanding`), each repeated (its answer kept rendered for the
 * list cache's staleness), then over distinct URLs (an ignored parameter on the Java path; on the Node one, `token.id`
 * upper bounds past every token, with several `limit`s), where nearly every request computes its answer. Figures only; no target is set.
 *
 * Run alone: `node --import tsx bench/account-relations.ts [--seconds S]`.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BareComparison, compareWithBare, printVerdicts } from "./lib/load.ts";
import { runMirrorlite } from "./lib/processes.ts";
import { withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

const STREAM = join(import.meta.dirname, "..", "fixtures/streams/account-relations/record0.0.3");

export async function benchAccountRelations(
  options: { seconds?: number; connections?: number } = {},
): Promise<BareComparison[]> {
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 32;
  return withWorkDir("mirrorlite-bench-account-relations-", async ({ recordsDir, dbFile }) => {
    cpSync(STREAM, recordsDir, { recursive: true });
    await runMirrorlite(["ingest", "--records", recordsDir, "--db", dbFile, "--log-level", "warn"]);
    return withMirrorlite(recordsDir, dbFile, async (server) => {
      const nfts = "/api/v1/accounts/0.0.3001/nfts";
      const outstanding = "/api/v1/accounts/0.0.3001/airdrops/outstanding";
      const distinctNfts = Array.from(
        { length: 50_000 },
        (_, i) => `${nfts}?limit=${1 + (i % 25)}&token.id=lte:0.0.${3016 + i}`,
      );
      const distinctAirdrops = Array.from({ length: 50_000 }, (_, i) => `${outstanding}?n=${i}`);
      const cases = [
        { name: "GET /accounts/{id}/nfts (one URL)", paths: [`${nfts}?limit=25`] },
        { name: "GET /accounts/{id}/airdrops/outstanding (one URL)", paths: [outstanding] },
        { name: "(info) /accounts/{id}/nfts, 50,000 distinct URLs", paths: distinctNfts },
        { name: "(info) /airdrops/outstanding, 50,000 distinct URLs", paths: distinctAirdrops },
      ];
      const results: BareComparison[] = [];
      for (const { name, paths } of cases) {
        const warmUp = paths.length === 1;
        results.push(
          await compareWithBare({
            port: server.port,
            name,
            paths,
            target: null,
            seconds,
            connections,
            warmUp,
          }),
        );
      }
      return results;
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { seconds: { type: "string" } } });
  printVerdicts(
    await benchAccountRelations(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
  );
}

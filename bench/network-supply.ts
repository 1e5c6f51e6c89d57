/**
 * Speed of `GET /api/v1/network/supply` against a bare `node:http` server.
 *
 * Writes a stream from genesis (block 0, no previous hash: the treasury 0.0.2 holds every hbar and pays every
 * fee, so the unreleased supply changes with every transaction), ingests it with `mirrorlite ingest`, serves it
 * with `mirrorlite serve` in a child process and drives the current supply, `q=circulating`, and `timestamp`
 * queries rotating over many instants of the stream. Nothing is cached: every answer is one index seek, so no
 * answer can be staler than the last committed file. Target: at least 1/3 of the bare server's requests per
 * second.
 *
 * Run alone: `node --import tsx bench/network-supply.ts [--blocks N] [--seconds S]`.
 */
import { parseArgs } from "node:util";
import { writeBlockStream } from "./blocks.ts";
import { type BareComparison, compareWithBare, load, printVerdicts } from "./lib/load.ts";
import { runMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

const NANOS_PER_SECOND = 1_000_000_000n;

export async function benchNetworkSupply(
  options: { blocks?: number; seconds?: number; connections?: number } = {},
): Promise<BareComparison[]> {
  const blockCount = options.blocks ?? 20_000;
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 32;
  return withWorkDir("mirrorlite-bench-supply-", async ({ recordsDir, dbFile }) => {
    const firstConsensusNs = 1_700_000_000n * NANOS_PER_SECOND;
    const blocks = writeBlockStream(recordsDir, {
      firstBlockNumber: 0n,
      firstConsensusNs,
      blocks: blockCount,
    });
    await runMirrorlite(ingestGeneratedArgs(recordsDir, dbFile));
    return withMirrorlite(recordsDir, dbFile, async (server) => {
      // 10,000 instants spread over the stream, each between two transactions.
      const step = Math.max(1, Math.floor(blocks.length / 10_000));
      const instants = blocks
        .filter((_, index) => index % step === 0)
        .map((block) => {
          const ns = block.consensusStartNs + NANOS_PER_SECOND;
          return `/api/v1/network/supply?timestamp=${ns / NANOS_PER_SECOND}.${(ns % NANOS_PER_SECOND).toString().padStart(9, "0")}`;
        });
      const cases = [
        { name: "GET /api/v1/network/supply", paths: ["/api/v1/network/supply"] },
        { name: "GET /api/v1/network/supply?q=circulating", paths: ["/api/v1/network/supply?q=circulating"] },
        { name: `GET /api/v1/network/supply?timestamp= (${instants.length} instants)`, paths: instants },
      ];
      // The first case would otherwise also pay for the fresh server process's compilation.
      await load(
        "warm-up",
        server.port,
        cases.flatMap((c) => c.paths.slice(0, 100)),
        4,
        connections,
      );
      const results: BareComparison[] = [];
      for (const { name, paths } of cases) {
        results.push(
          await compareWithBare({ port: server.port, name, paths, target: 1 / 3, seconds, connections }),
        );
      }
      return results;
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { blocks: { type: "string" }, seconds: { type: "string" } } });
  const results = await benchNetworkSupply({
    ...(values.blocks === undefined ? {} : { blocks: Number(values.blocks) }),
    ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
  });
  printVerdicts(results);
}

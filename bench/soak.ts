/**
 * `npm run soak`: the read path under sustained load while ingestion runs.
 *
 * Writes a bulk stream into a staging folder, serves its first files with `mirrorlite serve` (a child process,
 * on loopback) and then, for `--seconds` (default 60):
 * - moves the next record file into the watched folder every `--file-ms` (default 500 ms), so the service
 *   ingests while it answers;
 * - drives 32 connections of autocannon over the tokens and blocks endpoints (lookups, point-in-time lookups
 *   with a new instant each time, lists, balances, blocks) — every answer must be a 2xx;
 * - checks sampled answers against the index itself (the SQLite file, opened read-only here): token fields,
 *   block hashes and counts, list items;
 * - samples the service's memory: the main thread's heap after a full collection (the read path's memory;
 *   the ingest worker has its own heap) and the process's resident set.
 * Prints the figures and exits non-zero on any error, non-2xx answer, mismatch, or a growing heap.
 *
 *   npm run soak                         # 60 s
 *   npm run soak -- --seconds 20         # shorter
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { formatEntityId } from "../src/ids.ts";
import { formatTimestamp } from "../src/time.ts";
import { REPO } from "./lib/processes.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    "file-ms": { type: "string", default: "500" },
    connections: { type: "string", default: "32" },
  },
});
const seconds = Number(values.seconds);
const fileMs = Number(values["file-ms"]);
const connections = Number(values.connections);
const INITIAL_FILES = 20;

const work = mkdtempSync(join(tmpdir(), "mirrorlite-soak-"));
const staging = join(work, "staging");
const recordsDir = join(work, "record0.0.3");
const dbFile = join(work, "index.db");
mkdirSync(recordsDir);

/** Moves a staged record file into the watched folder in one step (a rename), as a node finishing a file would. */
function publish(name: string): void {
  const partial = join(recordsDir, `.partial-${name}`);
  copyFileSync(join(staging, name), partial);
  renameSync(partial, join(recordsDir, name));
}

type MemorySample = { heapUsedMb: number; rssMb: number };

/** Starts `bench/lib/soak-server.ts` and collects the memory samples it prints. */
async function startSoakServer(): Promise<{
  port: number;
  memory: MemorySample[];
  stop: () => Promise<void>;
}> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", `${REPO}bench/lib/soak-server.ts`, recordsDir, dbFile],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const memory: MemorySample[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const ready = /^ready (\d+)$/.exec(line);
        if (ready) resolve(Number(ready[1]));
        else if (line.startsWith("{")) memory.push(JSON.parse(line) as MemorySample);
      }
    });
    child.once("exit", (code) => reject(new Error(`soak server exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { port, memory, stop };
}

try {
  const files = Math.ceil((seconds * 1000) / fileMs) + INITIAL_FILES + 5;
  const generated = generateBulkStream({
    dir: staging,
    tokens: 2000,
    transactions: files * 1000,
    signatures: false,
    signingKey: null,
  });
  const names = readdirSync(staging)
    .filter((n) => n.endsWith(".rcd.gz"))
    .sort();
  console.log(`soak: staged ${generated.transactions} transactions in ${names.length} record files`);
  for (const name of names.slice(0, INITIAL_FILES)) publish(name);

  const server = await startSoakServer();
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  db.defaultSafeIntegers(true);
  const tokenIds = (
    db.prepare("SELECT id FROM token WHERE valid_to IS NULL ORDER BY id").pluck().all() as bigint[]
  ).map((id) => formatEntityId(id)!);
  const firstBlocks = db.prepare("SELECT number FROM record_file ORDER BY number").pluck().all() as bigint[];
  const instant = db.prepare("SELECT max(consensus_end) FROM record_file").pluck().get() as bigint;
  const tokenRow = db.prepare(
    "SELECT name, symbol, decimals, created_ns FROM token WHERE id = ? AND valid_to IS NULL",
  );
  const blockRow = db.prepare("SELECT hash, name, count FROM record_file WHERE number = ?");
  console.log(
    `soak: serving ${tokenIds.length} tokens and ${firstBlocks.length} blocks; loading for ${seconds} s`,
  );

  let n = 0;
  const pathAt = () => {
    n++;
    const token = tokenIds[(n * 7919) % tokenIds.length]!;
    switch (n % 6) {
      case 0:
        return `/api/v1/tokens/${token}`;
      case 1:
        return `/api/v1/tokens/${token}?timestamp=lte:${formatTimestamp(instant + BigInt(n))}`;
      case 2:
        return `/api/v1/tokens?limit=10&token.id=gt:${token}`;
      case 3:
        return `/api/v1/tokens/${token}/balances?limit=5`;
      case 4:
        return `/api/v1/blocks?limit=5&order=${n % 12 === 4 ? "asc" : "desc"}`;
      default:
        return `/api/v1/blocks/${firstBlocks[n % firstBlocks.length]}`;
    }
  };

  // Ingestion: the rest of the stream, one file at a time.
  let published = INITIAL_FILES;
  const feeder = setInterval(() => {
    if (published < names.length) publish(names[published++]!);
  }, fileMs);

  // Checks against the index.
  let checks = 0;
  const mismatches: string[] = [];
  const mismatch = (what: string) => {
    if (mismatches.length < 20) console.error(`soak: MISMATCH ${what}`);
    mismatches.push(what);
  };
  let checking = true;
  const checker = (async () => {
    let k = 0;
    while (checking) {
      k++;
      const token = tokenIds[(k * 104729) % tokenIds.length]!;
      const info = (await (
        await fetch(`http://127.0.0.1:${server.port}/api/v1/tokens/${token}`)
      ).json()) as Record<string, unknown>;
      const row = tokenRow.get(BigInt(token.split(".")[2]!)) as
        | { name: string; symbol: string; decimals: bigint; created_ns: bigint }
        | undefined;
      if (
        row === undefined ||
        info.name !== row.name ||
        info.symbol !== row.symbol ||
        info.decimals !== row.decimals.toString() ||
        info.created_timestamp !== formatTimestamp(row.created_ns)
      ) {
        mismatch(`token ${token}: ${JSON.stringify(info).slice(0, 200)}`);
      }
      const page = (await (await fetch(`http://127.0.0.1:${server.port}/api/v1/blocks?limit=3`)).json()) as {
        blocks: { number: number; hash: string; name: string; count: number }[];
      };
      for (const block of page.blocks) {
        const stored = blockRow.get(BigInt(block.number)) as
          | { hash: string; name: string; count: bigint }
          | undefined;
        if (stored === undefined || block.hash !== `0x${stored.hash}` || block.name !== stored.name) {
          mismatch(`block ${block.number}: ${JSON.stringify(block).slice(0, 200)}`);
        } else if (BigInt(block.count) !== stored.count) {
          mismatch(`block ${block.number} count ${block.count} != ${stored.count}`);
        }
      }
      checks += 1 + page.blocks.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const firstSample = server.memory.length;
  // `--connections 0` is the control run: the same ingestion without load, for the memory it needs by itself.
  const result =
    connections > 0
      ? await autocannon({
          url: `http://127.0.0.1:${server.port}`,
          connections,
          duration: seconds,
          requests: [{ setupRequest: (request) => ({ ...request, path: pathAt() }) }],
        })
      : await new Promise<autocannon.Result>((resolve) =>
          setTimeout(
            () =>
              resolve({
                requests: { total: 0, average: 0 },
                latency: { p50: 0, p99: 0 },
                errors: 0,
                timeouts: 0,
                non2xx: 0,
              } as autocannon.Result),
            seconds * 1000,
          ),
        );
  clearInterval(feeder);
  const memory = server.memory.slice(firstSample);
  checking = false;
  await checker;
  const ingestedBlocks =
    (db.prepare("SELECT count(*) FROM record_file").pluck().get() as bigint) - BigInt(firstBlocks.length);
  db.close();
  await server.stop();

  const window = Math.max(1, Math.floor(memory.length / 4));
  const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const heap = memory.map((m) => m.heapUsedMb);
  const rss = memory.map((m) => m.rssMb);
  // The read path's heap after the first quarter (JIT, caches filling) against the last quarter.
  const early = average(heap.slice(window, 2 * window));
  const late = average(heap.slice(-window));
  const flat = late <= early * 1.2 + 5;
  console.log(
    `soak: ${seconds} s, ${connections} connections: ${result.requests.total} requests, ` +
      `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`,
  );
  console.log(
    `soak: ${ingestedBlocks} record files ingested during the load; ${checks} answers checked against the index, ` +
      `${mismatches.length} mismatches`,
  );
  console.log(
    `soak: API heap after GC ${heap[0]?.toFixed(1)} MB at start, ${early.toFixed(1)} MB after warm-up, ` +
      `${late.toFixed(1)} MB at the end, max ${Math.max(...heap).toFixed(1)} MB: ${flat ? "flat" : "GROWING"}; ` +
      `process RSS (SQLite caches and the ingest worker included) ${rss[0]?.toFixed(0)} -> ${rss.at(-1)?.toFixed(0)} MB`,
  );
  const ok =
    result.errors === 0 && result.timeouts === 0 && result.non2xx === 0 && mismatches.length === 0 && flat;
  console.log(`soak: ${ok ? "passed" : "FAILED"}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

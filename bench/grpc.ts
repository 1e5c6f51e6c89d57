/**
 * The mirror gRPC API (issue 24), against `mirrorlite serve` in a child process:
 *
 * - replay: messages per second delivered to one subscriber replaying a topic's history of 100,000 messages
 *   (a raw grpc-js client counting messages; target 50,000/s);
 * - live latency: 100 live subscribers on the topic while record files arrive one at a time (file, then its
 *   signature); for each file, the time from its signature's arrival until the last of the 100 subscribers has
 *   its first message, p50 and p99, split into ingest's own time (arrival → the server's "ingested record file"
 *   log line, which marks the commit) and the time beyond it (target p99 under 100 ms), with the server's own
 *   fan-out from `/metrics` (commit notice → the first new message handed to every subscriber's stream);
 * - idle: the server's resident memory with 1,000 idle subscriptions (start time now, nothing to send), and per
 *   subscription.
 *
 * Every figure is printed with the load average: on a shared machine they say little without it.
 * The stream is the scenario engine's bulk writer with `mix: "messages"` (one topic, only its messages).
 * Run alone: `node --import tsx bench/grpc.ts [--quick]` (quick: 20,000 messages, 10 live files). With
 * `GRPC_BENCH_PROFILE=DIR` the server writes CPU profiles of its threads there.
 */
import "../src/streams/long-setup.ts";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { credentials, Client as GrpcClient } from "@grpc/grpc-js";
import { com } from "@hiero-ledger/proto";
import Database from "better-sqlite3";
import Long from "long";
import { generateBulkStream } from "../fixtures/writer/scenario/bulk.ts";
import { freePort, REPO, runMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withWorkDir } from "./lib/work-dir.ts";

export type GrpcBenchOptions = { quick?: boolean };

export type GrpcBenchResult = {
  /** `os.loadavg()` (1, 5, 15 minutes) when the bench started and ended: the machine may be shared. */
  loadAverageStart: number[];
  loadAverageEnd: number[];
  history: number;
  replayPerSecond: number;
  /** The server's CPU time per replayed message (all its threads), median of the rounds. */
  replayCpuUsPerMessage: number;
  liveFiles: number;
  liveSubscribers: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Ingest's own time: a file's arrival to its commit (the server's "ingested record file" log line). */
  ingestP50Ms: number;
  ingestP99Ms: number;
  /** The commit (log line) to the first message of the file at the last of the live subscribers. */
  beyondIngestP50Ms: number;
  beyondIngestP99Ms: number;
  /** The server's own share: the commit notice to the messages handed to every subscriber's stream. */
  serverFanoutP50Ms: number;
  serverFanoutP99Ms: number;
  idleSubscribers: number;
  idleRssMb: number;
  idleKbPerSubscriber: number;
  /** The main thread's heap used, per idle subscription (calls, connections and subscription state). */
  idleHeapKbPerSubscriber: number;
};

const SUBSCRIBE = "/com.hedera.mirror.api.proto.ConsensusService/subscribeTopic";
const query = com.hedera.mirror.api.proto.ConsensusTopicQuery;
const identity = (b: Buffer) => b;
/** Streams one connection takes at once (the server's limit). */
const STREAMS_PER_CONNECTION = 5;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Connections of their own (grpc-js shares one per address otherwise), each for five streams. */
function connections(port: number, streams: number): GrpcClient[] {
  return Array.from(
    { length: Math.ceil(streams / STREAMS_PER_CONNECTION) },
    () =>
      new GrpcClient(`127.0.0.1:${port}`, credentials.createInsecure(), {
        "grpc.use_local_subchannel_pool": 1,
      }),
  );
}

function subscribe(client: GrpcClient, topicNum: bigint, startNs: bigint | null, limit = 0) {
  const request = query
    .encode({
      topicID: { topicNum: Long.fromString(topicNum.toString()) },
      ...(startNs === null
        ? {}
        : {
            consensusStartTime: {
              seconds: Long.fromString((startNs / 1_000_000_000n).toString()),
              nanos: Number(startNs % 1_000_000_000n),
            },
          }),
      limit: Long.fromNumber(limit, true),
    })
    .finish();
  return client.makeServerStreamRequest(SUBSCRIBE, identity, identity, Buffer.from(request));
}

/** CPU time a process has used (user + system), in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

const loadText = (load: readonly number[]) => load.map((l) => l.toFixed(1)).join(" ");

/** A sample of `/metrics` (`name` with its labels, as printed: `x{quantile="0.5"}`). */
async function metric(httpPort: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1] ?? Number.NaN);
}

async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`grpc bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function benchGrpc(options: GrpcBenchOptions = {}): Promise<GrpcBenchResult> {
  const history = options.quick ? 20_000 : 100_000;
  const liveFiles = options.quick ? 10 : 30;
  const perFile = 500;
  const liveSubscribers = 100;
  const idleSubscribers = 1000;
  const loadAverageStart = loadavg();
  console.log(`grpc: load average ${loadText(loadAverageStart)} (2 cores; the machine may be shared)`);
  return withWorkDir("mirrorlite-bench-grpc-", async ({ work, recordsDir, dbFile }) => {
    const staging = join(work, "staging");
    // Accounts first, one topic, then only messages: the history, then `liveFiles` files held back.
    const generated = generateBulkStream({
      dir: staging,
      tokens: 0,
      transactions: history + liveFiles * perFile + 1000,
      transactionsPerFile: perFile,
      signatures: false,
      mix: "messages",
    });
    const files = readdirSync(staging)
      .filter((f) => f.endsWith(".rcd.gz"))
      .sort();
    const held = files.slice(-liveFiles);
    mkdirSync(recordsDir);
    const copy = (name: string) => {
      copyFileSync(join(staging, name), join(recordsDir, name));
      copyFileSync(
        join(staging, name.replace(".rcd.gz", ".rcd_sig")),
        join(recordsDir, name.replace(".rcd.gz", ".rcd_sig")),
      );
    };
    for (const name of files.slice(0, -liveFiles)) copy(name);
    console.log(`grpc: generated ${generated.transactions} transactions in ${generated.files} files`);
    await runMirrorlite(ingestGeneratedArgs(recordsDir, dbFile));
    const db = new Database(dbFile, { readonly: true });
    db.defaultSafeIntegers(true);
    const { topicId, count, last } = db
      .prepare(
        `SELECT topic_id AS topicId, COUNT(*) AS count, MAX(consensus_ns) AS last FROM topic_message
         GROUP BY topic_id ORDER BY count DESC LIMIT 1`,
      )
      .get() as { topicId: bigint; count: bigint; last: bigint };
    db.close();
    const historyCount = Number(count);

    const httpPort = await freePort();
    const grpcPort = await freePort();
    const server = spawn(
      process.execPath,
      [
        ...(process.env.GRPC_BENCH_PROFILE
          ? ["--cpu-prof", `--cpu-prof-dir=${process.env.GRPC_BENCH_PROFILE}`]
          : []),
        `${REPO}bin/mirrorlite.js`,
        "serve",
        "--records",
        recordsDir,
        "--db",
        dbFile,
        "--port",
        String(httpPort),
        "--grpc-port",
        String(grpcPort),
        "--poll-ms",
        "20",
        "--log-level",
        "info",
        "--log-format",
        "json",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const committedAt = new Map<string, number>();
    let pending = "";
    server.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const now = performance.now();
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.includes("ingested record file")) continue;
        const file = (JSON.parse(line) as { file?: string }).file;
        if (file !== undefined) committedAt.set(file, now);
      }
    });
    const clients: GrpcClient[] = [];
    try {
      await until(
        async () =>
          (await fetch(`http://127.0.0.1:${httpPort}/health/readiness`).catch(() => null))?.status === 200,
        120_000,
        "readiness",
      );

      // Replay: one subscriber, the whole history (limit = its size, so the call ends).
      const rates: number[] = [];
      const cpuPerMessageUs: number[] = [];
      for (let round = 0; round < 5; round++) {
        const cpuBefore = cpuMs(server.pid!);
        const [client] = connections(grpcPort, 1);
        clients.push(client!);
        const started = performance.now();
        const received = await new Promise<number>((resolve, reject) => {
          let n = 0;
          const call = subscribe(client!, topicId, 0n, historyCount);
          call.on("data", () => {
            n += 1;
          });
          call.on("status", (status: { code: number; details: string }) =>
            status.code === 0
              ? resolve(n)
              : reject(new Error(`replay ended ${status.code} ${status.details}`)),
          );
          call.on("error", () => {});
        });
        rates.push(received / ((performance.now() - started) / 1000));
        cpuPerMessageUs.push(((cpuMs(server.pid!) - cpuBefore) * 1000) / received);
        client!.close();
      }
      const replayPerSecond = percentile(rates, 50);
      console.log(
        `grpc: (load ${loadText(loadavg())}) replayed ${historyCount} messages at ${rates.map((r) => r.toFixed(0)).join(", ")} messages/s; ` +
          `server CPU ${cpuPerMessageUs.map((us) => us.toFixed(1)).join(", ")} µs per message (all threads)`,
      );

      // Live: 100 subscribers from just after the history; files arrive one at a time.
      const live = connections(grpcPort, liveSubscribers);
      clients.push(...live);
      const counts = new Array<number>(liveSubscribers).fill(0);
      const firstOfFile: number[][] = Array.from({ length: liveFiles }, () => []);
      const calls = counts.map((_, i) => {
        const call = subscribe(live[Math.floor(i / STREAMS_PER_CONNECTION)]!, topicId, last + 1n);
        call.on("data", () => {
          const index = counts[i]!;
          counts[i] = index + 1;
          if (index % perFile === 0) firstOfFile[index / perFile]?.push(performance.now());
        });
        call.on("error", () => {});
        return call;
      });
      await until(
        async () => (await metric(httpPort, "mirrorlite_grpc_live_subscribers")) >= liveSubscribers,
        60_000,
        "live subscribers",
      );
      const latencies: number[] = [];
      const ingestTimes: number[] = [];
      const beyondIngest: number[] = [];
      for (let k = 0; k < held.length; k++) {
        const name = held[k]!;
        copyFileSync(join(staging, name), join(recordsDir, name));
        copyFileSync(
          join(staging, name.replace(".rcd.gz", ".rcd_sig")),
          join(recordsDir, name.replace(".rcd.gz", ".rcd_sig")),
        );
        const arrived = performance.now();
        await until(
          () => firstOfFile[k]!.length === liveSubscribers,
          30_000,
          `file ${name} at every subscriber`,
        );
        await until(() => counts.every((c) => c >= (k + 1) * perFile), 30_000, `all of ${name}`);
        const delivered = Math.max(...firstOfFile[k]!);
        latencies.push(delivered - arrived);
        const committed = committedAt.get(name);
        if (committed !== undefined) {
          ingestTimes.push(committed - arrived);
          beyondIngest.push(delivered - committed);
        }
      }
      for (const call of calls) call.cancel();
      const fanoutP50 = await metric(httpPort, 'mirrorlite_grpc_live_fanout_ms{quantile="0.5"}');
      const fanoutP99 = await metric(httpPort, 'mirrorlite_grpc_live_fanout_ms{quantile="0.99"}');
      const p = (values: readonly number[]) =>
        `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`;
      console.log(
        `grpc: live, ${liveSubscribers} subscribers, ${held.length} files of ${perFile} messages (load ` +
          `${loadText(loadavg())}): arrival → first message at the last subscriber ${p(latencies)}; of which ` +
          `ingest (arrival → commit log line) ${p(ingestTimes)}, beyond ingest (commit → last subscriber) ` +
          `${p(beyondIngest)}; server fan-out (commit notice → written to all ${liveSubscribers} streams) p50 ` +
          `${fanoutP50.toFixed(1)} ms, p99 ${fanoutP99.toFixed(1)} ms`,
      );
      for (const client of live) client.close();
      await until(
        async () => (await metric(httpPort, "mirrorlite_grpc_subscribers")) === 0,
        30_000,
        "subscribers to end",
      );

      // Idle: 1,000 subscriptions from now on; nothing reaches them.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const rssBefore = rssMb(server.pid!);
      const heapBefore = await metric(httpPort, "nodejs_heap_size_used_bytes");
      const idle = connections(grpcPort, idleSubscribers);
      clients.push(...idle);
      const idleCalls = Array.from({ length: idleSubscribers }, (_, i) => {
        const call = subscribe(idle[Math.floor(i / STREAMS_PER_CONNECTION)]!, topicId, null);
        call.on("error", () => {});
        return call;
      });
      await until(
        async () => (await metric(httpPort, "mirrorlite_grpc_live_subscribers")) >= idleSubscribers,
        120_000,
        "idle subscribers",
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const rssAfter = rssMb(server.pid!);
      const heapAfter = await metric(httpPort, "nodejs_heap_size_used_bytes");
      for (const call of idleCalls) call.cancel();
      const idleKb = ((rssAfter - rssBefore) * 1024) / idleSubscribers;
      const heapKb = (heapAfter - heapBefore) / 1024 / idleSubscribers;
      console.log(
        `grpc: ${idleSubscribers} idle subscribers (load ${loadText(loadavg())}): server RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB ` +
          `(${idleKb.toFixed(1)} KB each); main-thread heap used ${(heapBefore / 2 ** 20).toFixed(1)} → ` +
          `${(heapAfter / 2 ** 20).toFixed(1)} MB (${heapKb.toFixed(1)} KB each; both move with garbage collection)`,
      );
      return {
        loadAverageStart,
        loadAverageEnd: loadavg(),
        history: historyCount,
        replayPerSecond,
        replayCpuUsPerMessage: percentile(cpuPerMessageUs, 50),
        liveFiles: held.length,
        liveSubscribers,
        latencyP50Ms: percentile(latencies, 50),
        latencyP99Ms: percentile(latencies, 99),
        ingestP50Ms: percentile(ingestTimes, 50),
        ingestP99Ms: percentile(ingestTimes, 99),
        beyondIngestP50Ms: percentile(beyondIngest, 50),
        beyondIngestP99Ms: percentile(beyondIngest, 99),
        serverFanoutP50Ms: fanoutP50,
        serverFanoutP99Ms: fanoutP99,
        idleSubscribers,
        idleRssMb: rssAfter,
        idleKbPerSubscriber: idleKb,
        idleHeapKbPerSubscriber: heapKb,
      };
    } finally {
      for (const client of clients) client.close();
      await new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once("exit", () => resolve());
        server.kill("SIGTERM");
      });
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchGrpc({ quick: process.argv.includes("--quick") });
  console.log(JSON.stringify(result, null, 2));
}

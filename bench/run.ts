/**
 * `npm run bench`: every throughput figure the issues ask for, on this machine, in one run. Each part builds
 * its own stream, ingests it with `mirrorlite ingest`, serves it with `mirrorlite serve` in a child process and
 * measures it next to a bare `node:http` server in its own process. Figures are printed, never asserted.
 *
 *   npm run bench                      # everything (about 10 minutes on 2 cores)
 *   npm run bench -- ingest blocks     # only the named parts: ingest, blocks, tokens, network, startup, fees, supply, topics, contract-reads, transactions, ingest-speed, block-ingest, account-relations, reads, accounts, grpc
 *   npm run bench -- grpc --quick      # the gRPC part with 20,000 history messages and 10 live files
 *   npm run bench -- ingest-speed           # records and blocks beside decode-only, 20k tx per mix (about a minute)
 *   npm run bench -- ingest-speed --full    # the same at 200k tx per mix (--large: with 1M token-heavy too)
 *   npm run bench -- transactions --baseline=REF   # ingest speed next to the build of git ref REF too
 *   npm run bench -- block-ingest --baseline=REF   # block ingest by the build of git ref REF too, same rounds
 */
import { benchAccountRelations } from "./account-relations.ts";
import { benchAccounts } from "./accounts.ts";
import { benchBlockIngest } from "./block-ingest.ts";
import { benchBlocks } from "./blocks.ts";
import { benchContractReads } from "./contract-reads.ts";
import { benchFeeEstimate } from "./fee-estimate.ts";
import { benchGrpc } from "./grpc.ts";
import { benchIngestAndLookup } from "./ingest-and-lookup.ts";
import { benchIngestSpeed } from "./ingest-speed.ts";
import type { CpuComparison } from "./lib/wrk-compare.ts";
import { benchNetwork } from "./network.ts";
import { benchNetworkSupply } from "./network-supply.ts";
import { benchReadPool } from "./read-pool.ts";
import { benchStartup, summarize } from "./startup.ts";
import { benchTokensGroup } from "./tokens-group.ts";
import { benchTopics } from "./topics.ts";
import { benchTransactions } from "./transactions.ts";

const flags = process.argv.slice(2).filter((arg) => arg.startsWith("--"));
const parts = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const wanted = (name: string) => parts.length === 0 || parts.includes(name);
const verdicts: string[] = [];
const verdict = (name: string, ratio: number, target: number | null, cpu?: CpuComparison["cpu"]) =>
  verdicts.push(
    (target === null
      ? `${name.padEnd(56)} ratio ${ratio.toFixed(2)} (no target)`
      : `${name.padEnd(56)} ratio ${ratio.toFixed(2)} (target ${target.toFixed(2)}) ${ratio >= target ? "met" : "MISSED"}`) +
      (cpu == null
        ? ""
        : `; CPU/request ${cpu.subject.totalUs.toFixed(1)} µs vs bare ${cpu.bare.totalUs.toFixed(1)} µs (CPU ratio ${cpu.ratio.toFixed(2)})`),
  );

if (wanted("ingest")) {
  console.log("== ingest throughput and token lookup");
  const { ingest, results } = await benchIngestAndLookup();
  const perSecond = ingest.transactions / ingest.applySeconds;
  verdicts.push(
    `${"ingest (file application, tx/s)".padEnd(56)} ${perSecond.toFixed(0)} (target 25000) ${perSecond >= 25_000 ? "met" : "MISSED"}`,
  );
  for (const r of results) verdict(r.name, r.ratio, r.target);
}
if (wanted("ingest-speed")) {
  console.log("== ingest speed next to decode-only, records and blocks");
  const baseline = flags.find((flag) => flag.startsWith("--baseline="))?.slice("--baseline=".length);
  for (const r of await benchIngestSpeed({
    full: flags.includes("--full"),
    large: flags.includes("--large"),
    ...(baseline === undefined ? {} : { baseline }),
  })) {
    verdict(`ingest/decode-only, records, ${r.name}`, r.ratio, 0.5);
    verdict(`ingest/decode-only, blocks, ${r.name}`, r.blocksRatio, 0.5);
    for (const [what, rss] of [
      ["records", r.ingestRssMb],
      ["blocks", r.blocksRssMb],
    ] as const) {
      verdicts.push(
        `${`ingest peak RSS, ${what}, ${r.name}`.padEnd(56)} ${rss === null ? "n/a" : `${Math.round(rss)} MB`} (target 256 MB) ${rss !== null && rss <= 256 ? "met" : "MISSED"}`,
      );
    }
  }
}
if (wanted("block-ingest")) {
  const baseline = flags.find((flag) => flag.startsWith("--baseline="))?.slice("--baseline=".length);
  const r = await benchBlockIngest(baseline === undefined ? {} : { baseline });
  verdicts.push(
    `${"block ingest / record ingest, mainnet-like".padEnd(56)} ratio ${r.ratio.toFixed(2)} (target 1.00) ${r.ratio >= 1 ? "met" : "MISSED"}`,
  );
}
if (wanted("blocks")) {
  console.log("== blocks");
  for (const r of await benchBlocks()) verdict(r.name, r.ratio, r.target);
}
if (wanted("tokens")) {
  console.log("== tokens group");
  const { results } = await benchTokensGroup();
  for (const r of results) verdict(r.name, r.ratio, r.target);
}
if (wanted("accounts")) {
  console.log("== accounts and balances");
  const { results, scaling } = await benchAccounts();
  for (const r of results) verdict(r.name, r.ratio, r.target);
  for (const s of scaling) verdict(`${s.name}, large/small`, s.ratio, 0.5);
}
if (wanted("network")) {
  console.log("== network group");
  for (const r of await benchNetwork()) verdict(r.name, r.ratio, r.target);
}
if (wanted("startup")) {
  console.log("== start-up on an existing index");
  const result = await benchStartup();
  const ready = [...result.readyMs].sort((a, b) => a - b)[Math.floor(result.readyMs.length / 2)]!;
  verdicts.push(`${summarize(result)} (target < 1000 ms) ${ready < 1000 ? "met" : "MISSED"}`);
}
if (wanted("fees")) {
  console.log("== fee estimation");
  for (const r of await benchFeeEstimate()) verdict(r.name, r.ratio, r.target);
}
if (wanted("supply")) {
  console.log("== network supply");
  for (const r of await benchNetworkSupply()) verdict(r.name, r.ratio, r.target);
}
if (wanted("account-relations")) {
  console.log("== account sub-resources");
  for (const r of await benchAccountRelations()) verdict(r.name, r.ratio, r.target);
}
if (wanted("contract-reads")) {
  console.log("== contracts group reads");
  for (const r of await benchContractReads()) verdict(r.name, r.ratio, r.target, r.cpu);
}
if (wanted("topics")) {
  console.log("== topics group");
  for (const r of await benchTopics()) verdict(r.name, r.ratio, r.target, r.cpu);
}
if (wanted("transactions")) {
  console.log("== transactions");
  const baseline = flags.find((flag) => flag.startsWith("--baseline="))?.slice("--baseline=".length);
  const { ingest, size, results } = await benchTransactions(baseline === undefined ? {} : { baseline });
  for (const r of results) verdict(r.name, r.ratio, r.target);
  const bytes = size.bytesPerTransaction;
  verdicts.push(
    `${"transaction index, bytes per transaction".padEnd(56)} ${bytes.toFixed(0)} (target 400) ${bytes <= 400 ? "met" : "MISSED"}`,
  );
  if (ingest.slowdown !== null) {
    const slower = ingest.slowdown * 100;
    verdicts.push(
      `${`ingest slowdown next to ${baseline}`.padEnd(56)} ${slower.toFixed(1)}% (target 15%) ${slower <= 15 ? "met" : "MISSED"}; CPU ${((ingest.cpuSlowdown ?? 0) * 100).toFixed(1)}% more`,
    );
  }
}
if (wanted("reads")) {
  console.log("== reads off the event loop: the read-worker pool (wrk)");
  for (const r of await benchReadPool()) verdict(r.name, r.ratio, r.target, r.cpu);
}
if (wanted("grpc")) {
  console.log("== gRPC API: topic subscriptions");
  const r = await benchGrpc({ quick: flags.includes("--quick") });
  verdicts.push(
    `${`gRPC replay of ${r.history} messages to one subscriber (msg/s)`.padEnd(56)} ${r.replayPerSecond.toFixed(0)} ` +
      `(target 50000) ${r.replayPerSecond >= 50_000 ? "met" : "MISSED"}; server CPU ${r.replayCpuUsPerMessage.toFixed(1)} µs/message`,
    `${`gRPC file arrival → ${r.liveSubscribers} live subscribers, p99`.padEnd(56)} ${r.latencyP99Ms.toFixed(1)} ms ` +
      `(p50 ${r.latencyP50Ms.toFixed(1)} ms; ingest p99 ${r.ingestP99Ms.toFixed(1)} ms); beyond ingest's commit p99 ` +
      `${r.beyondIngestP99Ms.toFixed(1)} ms (target 100) ${r.beyondIngestP99Ms <= 100 ? "met" : "MISSED"}; server ` +
      `fan-out p99 ${r.serverFanoutP99Ms.toFixed(1)} ms`,
    `${`gRPC ${r.idleSubscribers} idle subscribers, server RSS`.padEnd(56)} ${r.idleRssMb.toFixed(0)} MB ` +
      `(${r.idleKbPerSubscriber.toFixed(1)} KB RSS, ${r.idleHeapKbPerSubscriber.toFixed(1)} KB heap per subscriber, no target)`,
    `${"gRPC bench load average (1, 5, 15 min), start → end".padEnd(56)} ${r.loadAverageStart.map((l) => l.toFixed(1)).join(" ")} → ` +
      `${r.loadAverageEnd.map((l) => l.toFixed(1)).join(" ")} (2 cores)`,
  );
}
console.log("\n== summary");
for (const line of verdicts) console.log(line);

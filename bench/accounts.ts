/**
 * Speed of the account lookup and of `/api/v1/balances?account.id=` against a bare `node:http` server, on a
 * small index and on a large one (100,000 accounts, 1,000,000 hbar transfers), to see that both stay fast as
 * the ledger grows.
 *
 * Each index is a v6 record stream written here: CryptoCreates (the treasury funds each account), then
 * CryptoTransfers between pseudo-random accounts, each paid by its sender (so every account has transactions
 * of its own to embed) with a fee to 0.0.98. The stream has no starting balance state: accounts created in
 * it are tracked from their creation. It is ingested with `mirrorlite ingest`, served by `mirrorlite serve`,
 * and driven by `wrk` with a new account on (nearly) every request and a URL never asked before, so the
 * response cache does not answer (where the index has fewer accounts than requests, a repeated `order` or
 * `limit` that changes nothing in the answer makes the URL new; the warm-up asks URLs of its own). Each case
 * alternates with the bare server `--rounds` times and reports medians: throughput and its ratio, and the CPU
 * time per request of each server process (all threads, from /proc), the figure that moves least with the
 * neighbours' load.
 *
 * Targets: each endpoint at least 0.25 of the bare server; on the large index, each ratio at least half of
 * the small index's.
 *
 * Run alone: `node --import tsx bench/accounts.ts [--seconds S] [--rounds R] [--accounts N --transfers M]`.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { accountId, long, timestamp } from "../fixtures/writer/scenario/pb.ts";
import { writeRecordFileV6 } from "../fixtures/writer/write-record-file.ts";
import { proto } from "../src/streams/proto.ts";
import type { RecordItem } from "../src/streams/types.ts";
import { printVerdicts } from "./lib/load.ts";
import { bodySize, runMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";
import { ensureWrk, type WrkPaths } from "./lib/wrk.ts";
import { type CpuComparison, compareWithBareWrk } from "./lib/wrk-compare.ts";

const NANOS_PER_SECOND = 1_000_000_000n;
const HASH_BYTES = 48;
const TREASURY = 2n;
const NODE = 3n;
const FUNDING = 98n;
const FIRST_ACCOUNT = 1001n;
const ITEMS_PER_FILE = 1000;
const FEE = 100_000n;
const INITIAL_BALANCE = 1_000_000_000n;

export type AccountsStreamOptions = { accounts: number; transfers: number };

/** Writes the stream into `dir`, file by file (nothing held in memory beyond one file). */
export function writeAccountsStream(
  dir: string,
  options: AccountsStreamOptions,
): { files: number; transactions: number } {
  mkdirSync(dir, { recursive: true });
  let consensusNs = 1_720_000_000n * NANOS_PER_SECOND;
  let previous: Uint8Array = new Uint8Array(HASH_BYTES);
  let files = 0;
  let transactions = 0;
  let chunk: RecordItem[] = [];
  let chunkStart = 0n;
  const flush = () => {
    if (chunk.length === 0) return;
    const file = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 56, patch: 0 },
      blockNumber: BigInt(files + 1),
      startRunningHash: previous,
      items: chunk,
    });
    writeFileSync(join(dir, `${streamFileTime(chunkStart)}.rcd.gz`), file.gzipBytes);
    previous = file.endRunningHash;
    files++;
    chunk = [];
  };
  const add = (payer: bigint, body: proto.ITransactionBody, record: proto.ITransactionRecord) => {
    consensusNs += 1_000_000n;
    if (chunk.length === 0) chunkStart = consensusNs;
    chunk.push(item(consensusNs, payer, body, record));
    transactions++;
    if (chunk.length === ITEMS_PER_FILE) flush();
  };

  for (let i = 0; i < options.accounts; i++) {
    const num = FIRST_ACCOUNT + BigInt(i);
    add(
      TREASURY,
      { cryptoCreateAccount: { key: ed25519Key(i), initialBalance: long(INITIAL_BALANCE) } },
      {
        receipt: { status: proto.ResponseCodeEnum.SUCCESS, accountID: accountId(num) },
        transferList: amounts([
          [TREASURY, -INITIAL_BALANCE - FEE],
          [num, INITIAL_BALANCE],
          [FUNDING, FEE],
        ]),
      },
    );
  }
  const n = BigInt(Math.max(2, options.accounts));
  for (let i = 0; i < options.transfers; i++) {
    const from = FIRST_ACCOUNT + ((BigInt(i) * 7919n) % n);
    let to = FIRST_ACCOUNT + ((BigInt(i) * 104729n + 1n) % n);
    if (to === from) to = FIRST_ACCOUNT + ((to - FIRST_ACCOUNT + 1n) % n);
    const amount = BigInt(1 + (i % 1000));
    const list = amounts([
      [from, -amount - FEE],
      [to, amount],
      [FUNDING, FEE],
    ]);
    add(
      from,
      {
        cryptoTransfer: {
          transfers: amounts([
            [from, -amount],
            [to, amount],
          ]),
        },
      },
      { transferList: list },
    );
  }
  flush();
  return { files, transactions };
}

function amounts(entries: ReadonlyArray<readonly [bigint, bigint]>): proto.ITransferList {
  return {
    accountAmounts: entries.map(([num, amount]) => ({ accountID: accountId(num), amount: long(amount) })),
  };
}

/** A deterministic ED25519-shaped key: the index in the last four bytes. */
function ed25519Key(index: number): proto.IKey {
  const bytes = Buffer.alloc(32, 0x3c);
  bytes.writeUInt32BE(index, 28);
  return { ed25519: bytes };
}

/** A transaction of `payer` (signed-transaction bytes, no signatures) and its successful record. */
function item(
  consensusNs: bigint,
  payer: bigint,
  typed: proto.ITransactionBody,
  record: proto.ITransactionRecord,
): RecordItem {
  const transactionID = {
    accountID: accountId(payer),
    transactionValidStart: timestamp(consensusNs - 3n * NANOS_PER_SECOND),
  };
  const bodyBytes = proto.TransactionBody.encode({
    transactionID,
    nodeAccountID: accountId(NODE),
    transactionFee: long(200_000_000n),
    transactionValidDuration: { seconds: long(120n) },
    ...typed,
  }).finish();
  const signed = proto.SignedTransaction.encode({ bodyBytes, sigMap: {} }).finish();
  const recordBytes = proto.TransactionRecord.encode({
    receipt: { status: proto.ResponseCodeEnum.SUCCESS },
    transactionHash: createHash("sha384").update(signed).digest(),
    consensusTimestamp: timestamp(consensusNs),
    transactionID,
    transactionFee: long(FEE),
    ...record,
  }).finish();
  return {
    transactionBytes: proto.Transaction.encode({ signedTransactionBytes: signed }).finish(),
    recordBytes,
  };
}

/** `2024-07-03T09_46_40.001000000Z`: a consensus time as record stream file names spell it. */
function streamFileTime(ns: bigint): string {
  const seconds = ns / NANOS_PER_SECOND;
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replaceAll(":", "_");
  return `${iso}.${(ns % NANOS_PER_SECOND).toString().padStart(9, "0")}Z`;
}

export type AccountsBenchOptions = {
  small?: AccountsStreamOptions;
  large?: AccountsStreamOptions;
  seconds?: number;
  rounds?: number;
  connections?: number;
};

/** wrk numbers each run's requests from its own multiple of this (wrk-compare.ts `RUN_SPAN`). */
const RUN_SPAN = 100_000_000;

/**
 * The paths of one case as a wrk Lua expression of the request number `n`: request m of a run (m = n mod
 * RUN_SPAN) asks for account F + (m · 7919 mod A), a bijection on each block of A requests (7919 is prime), and
 * the query repeats `repeated` (which changes nothing in the answer) once per block already asked, and `spare`
 * once per run before this one, so that no URL is asked twice in a comparison and the response cache never
 * answers. `base` is the path for an account id in `id`, `query` its own query (may be empty).
 */
function distinctPaths(
  accounts: number,
  base: string,
  query: string,
  repeated: string,
  spare: string,
): WrkPaths {
  return {
    kind: "lua",
    prelude: `local A, F, SPAN = ${accounts}, ${FIRST_ACCOUNT}, ${RUN_SPAN}
local function rep(s, c) local t = "" for _ = 1, c do t = t .. s end return t end`,
    expression: `(function()
    local m = n % SPAN
    local id = "0.0." .. string.format("%d", F + (m * 7919) % A)
    local q = ${JSON.stringify(query)} .. rep(${JSON.stringify(`&${repeated}`)}, math.floor(m / A) % 100)
      .. rep(${JSON.stringify(`&${spare}`)}, math.floor(n / SPAN))
    if q == "" then return ${JSON.stringify(base)} .. id end
    return ${JSON.stringify(base)} .. id .. ${base.includes("?") ? "q" : '"?" .. string.sub(q, 2)'}
  end)()`,
  };
}

async function measure(
  label: string,
  stream: AccountsStreamOptions,
  seconds: number,
  rounds: number,
  connections: number,
): Promise<CpuComparison[]> {
  return withWorkDir("mirrorlite-bench-accounts-", async ({ recordsDir, dbFile }) => {
    let started = Date.now();
    const written = writeAccountsStream(recordsDir, stream);
    console.log(
      `accounts (${label}): wrote ${written.transactions} transactions in ${written.files} files in ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    await runMirrorlite(ingestGeneratedArgs(recordsDir, dbFile));
    console.log(`accounts (${label}): ingested in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return withMirrorlite(recordsDir, dbFile, async (server) => {
      const sample = `0.0.${FIRST_ACCOUNT}`;
      const cases: Array<{ name: string; paths: WrkPaths; sample: string; target: number | null }> = [
        {
          name: `GET /api/v1/accounts/{id}, a new id each request (${label})`,
          paths: distinctPaths(stream.accounts, "/api/v1/accounts/", "", "order=desc", "limit=25"),
          sample: `/api/v1/accounts/${sample}`,
          target: 0.25,
        },
        {
          // For information: the same lookup without its embedded transaction page (the transactions group's).
          name: `(info) GET /api/v1/accounts/{id}?transactions=false, a new id (${label})`,
          paths: distinctPaths(
            stream.accounts,
            "/api/v1/accounts/",
            "&transactions=false",
            "order=desc",
            "limit=25",
          ),
          sample: `/api/v1/accounts/${sample}?transactions=false`,
          target: null,
        },
        {
          name: `GET /api/v1/balances?account.id=, a new id each request (${label})`,
          paths: distinctPaths(stream.accounts, "/api/v1/balances?account.id=", "", "limit=25", "order=desc"),
          sample: `/api/v1/balances?account.id=${sample}`,
          target: 0.25,
        },
      ];
      const results: CpuComparison[] = [];
      for (const { name, paths, sample: path, target } of cases) {
        results.push(
          await compareWithBareWrk({
            server,
            name,
            paths,
            bodyBytes: await bodySize(server.port, path),
            target,
            seconds,
            rounds,
            connections,
          }),
        );
      }
      return results;
    });
  });
}

/**
 * Measures both endpoints on the small and the large index; the scaling ratio is large / small of the
 * throughput ratios (and of the CPU ratios, where /proc can be read).
 */
export async function benchAccounts(options: AccountsBenchOptions = {}): Promise<{
  results: CpuComparison[];
  scaling: Array<{ name: string; ratio: number; cpuRatio: number | null }>;
}> {
  ensureWrk();
  const seconds = options.seconds ?? 8;
  const rounds = options.rounds ?? 3;
  const connections = options.connections ?? 32;
  const small = await measure(
    "1,000 accounts",
    options.small ?? { accounts: 1_000, transfers: 10_000 },
    seconds,
    rounds,
    connections,
  );
  const largeStream = options.large ?? { accounts: 100_000, transfers: 1_000_000 };
  const large = await measure(
    `${largeStream.accounts.toLocaleString("en")} accounts`,
    largeStream,
    seconds,
    rounds,
    connections,
  );
  const targeted = (results: CpuComparison[]) => results.filter((result) => result.target !== null);
  const smallTargeted = targeted(small);
  const scaling = targeted(large).map((result, i) => {
    const before = smallTargeted[i];
    const cpuRatio = result.cpu === null || before?.cpu == null ? null : result.cpu.ratio / before.cpu.ratio;
    return {
      name: result.name.replace(/ \(.*\)$/, ""),
      ratio: result.ratio / (before?.ratio ?? result.ratio),
      cpuRatio,
    };
  });
  return { results: [...small, ...large], scaling };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string" },
      rounds: { type: "string" },
      accounts: { type: "string" },
      transfers: { type: "string" },
    },
  });
  const large =
    values.accounts === undefined
      ? undefined
      : {
          accounts: Number(values.accounts),
          transfers: Number(values.transfers ?? Number(values.accounts) * 10),
        };
  const { results, scaling } = await benchAccounts({
    ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
    ...(values.rounds === undefined ? {} : { rounds: Number(values.rounds) }),
    ...(large === undefined ? {} : { large }),
  });
  printVerdicts(results);
  for (const { name, ratio, cpuRatio } of scaling) {
    const cpu = cpuRatio === null ? "" : ` (CPU ratio large/small ${cpuRatio.toFixed(2)})`;
    console.log(
      `${name}: large/small ${ratio.toFixed(2)}, target 0.50 ${ratio >= 0.5 ? "met" : "MISSED"}${cpu}`,
    );
  }
}

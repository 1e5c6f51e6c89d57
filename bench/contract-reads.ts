/**
 * The contracts group's two busiest reads against a bare `node:http` server (issue 22), on a stream of contract
 * calls written here (a few dozen contracts, then calls each emitting two ERC-20 Transfer logs), ingested with
 * `mirrorlite ingest` and served by `mirrorlite serve` in a child process:
 *
 * - results by contract, a new URL on every request (a page of 25 before a new instant, round-robin over the
 *   contracts): target 0.2 of the bare server's requests per second;
 * - logs by topic within a timestamp range (topic0 the Transfer signature and topic1 a sender, a ten-second window
 *   starting a millisecond later each request): target 0.2.
 *
 * Load comes from `wrk` (1 thread, 32 connections), alternating with the bare server `--rounds` times.
 *
 * Run alone: `node --import tsx bench/contract-reads.ts [--calls N] [--seconds S] [--rounds R]`.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { accountId, long, streamFileStem, timestamp } from "../fixtures/writer/scenario/pb.ts";
import { writeRecordFileV6 } from "../fixtures/writer/write-record-file.ts";
import { proto } from "../src/streams/proto.ts";
import type { RecordItem } from "../src/streams/types.ts";
import { printVerdicts } from "./lib/load.ts";
import { bodySize, runMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";
import { ensureWrk, type WrkPaths } from "./lib/wrk.ts";
import { type CpuComparison, compareWithBareWrk } from "./lib/wrk-compare.ts";

const NS_PER_SECOND = 1_000_000_000n;
const NODE = 3n;
const FIRST_CONTRACT = 1001n;
const FIRST_SENDER = 5001n;
const SENDERS = 50n;
const ITEMS_PER_FILE = 500;
const START_NS = 1_720_000_000n * NS_PER_SECOND;
/** Consensus times are 1 ms apart. */
const SPACING_NS = 1_000_000n;
/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER = Buffer.from("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", "hex");

export type ContractReadsOptions = { contracts?: number; calls?: number; seconds?: number; rounds?: number };

function word(value: bigint): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.writeBigUInt64BE(value, 24);
  return bytes;
}

function item(
  consensusNs: bigint,
  payer: bigint,
  body: proto.ITransactionBody,
  record: proto.ITransactionRecord,
): RecordItem {
  const transactionID = {
    accountID: accountId(payer),
    transactionValidStart: timestamp(consensusNs - 3n * NS_PER_SECOND),
  };
  const bodyBytes = proto.TransactionBody.encode({
    transactionID,
    nodeAccountID: accountId(NODE),
    transactionFee: long(200_000_000n),
    transactionValidDuration: { seconds: long(120n) },
    ...body,
  }).finish();
  const signed = proto.SignedTransaction.encode({ bodyBytes, sigMap: {} }).finish();
  return {
    transactionBytes: proto.Transaction.encode({ signedTransactionBytes: signed }).finish(),
    recordBytes: proto.TransactionRecord.encode({
      transactionHash: createHash("sha384").update(signed).digest(),
      consensusTimestamp: timestamp(consensusNs),
      transactionID,
      transactionFee: long(100_000n),
      ...record,
    }).finish(),
  };
}

/** Writes the stream: `contracts` ContractCreates, then `calls` ContractCalls with two Transfer logs each. */
export function writeContractStream(
  dir: string,
  contracts: number,
  calls: number,
): { files: number; transactions: number } {
  mkdirSync(dir, { recursive: true });
  let previous: Uint8Array = new Uint8Array(48);
  let consensusNs = START_NS;
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
    writeFileSync(join(dir, `${streamFileStem(chunkStart)}.rcd.gz`), file.gzipBytes);
    previous = file.endRunningHash;
    files++;
    chunk = [];
  };
  const add = (next: RecordItem) => {
    if (chunk.length === 0) chunkStart = consensusNs;
    chunk.push(next);
    transactions++;
    consensusNs += SPACING_NS;
    if (chunk.length === ITEMS_PER_FILE) flush();
  };
  const ok = proto.ResponseCodeEnum.SUCCESS;
  for (let i = 0n; i < BigInt(contracts); i++) {
    const contractID = { contractNum: long(FIRST_CONTRACT + i) };
    add(
      item(
        consensusNs,
        2n,
        { contractCreateInstance: { gas: long(400_000n), initcode: Buffer.from("6080", "hex") } },
        {
          receipt: { status: ok, contractID },
          contractCreateResult: { contractID, gasUsed: long(300_000n), contractCallResult: Buffer.alloc(0) },
        },
      ),
    );
  }
  for (let i = 0n; i < BigInt(calls); i++) {
    const contract = FIRST_CONTRACT + (i % BigInt(contracts));
    const sender = FIRST_SENDER + (i % SENDERS);
    const receiver = FIRST_SENDER + ((i * 7n + 3n) % SENDERS);
    const contractID = { contractNum: long(contract) };
    const log = (amount: bigint, to: bigint) => ({
      contractID,
      bloom: Buffer.alloc(256),
      topic: [TRANSFER, word(sender), word(to)],
      data: word(amount),
    });
    add(
      item(
        consensusNs,
        sender,
        {
          contractCall: {
            contractID,
            gas: long(100_000n),
            functionParameters: Buffer.from("a9059cbb", "hex"),
          },
        },
        {
          receipt: { status: ok, contractID },
          contractCallResult: {
            contractID,
            gasUsed: long(51_000n),
            contractCallResult: word(1n),
            bloom: Buffer.alloc(256),
            senderId: accountId(sender),
            logInfo: [log(i + 1n, receiver), log(1n, 98n)],
          },
        },
      ),
    );
  }
  flush();
  return { files, transactions };
}

export async function benchContractReads(options: ContractReadsOptions = {}): Promise<CpuComparison[]> {
  ensureWrk();
  const contracts = options.contracts ?? 40;
  const calls = options.calls ?? 50_000;
  const seconds = options.seconds ?? 5;
  const rounds = options.rounds ?? 3;
  return withWorkDir("mirrorlite-bench-contract-reads-", async ({ recordsDir, dbFile }) => {
    let started = Date.now();
    const written = writeContractStream(recordsDir, contracts, calls);
    console.log(
      `contract reads: wrote ${written.transactions} transactions in ${written.files} files in ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    await runMirrorlite(ingestGeneratedArgs(recordsDir, dbFile));
    console.log(`contract reads: ingested in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const firstCallNs = START_NS + BigInt(contracts) * SPACING_NS;
    const spanMs = calls - 1000;
    const prelude = `local C, FC, FS, S0, SPAN = ${contracts}, ${FIRST_CONTRACT}, ${FIRST_SENDER}, ${firstCallNs / NS_PER_SECOND}, ${spanMs}
local function ts(ms) local ns = ms * 1000000 return (S0 + math.floor(ns / 1000000000)) .. "." .. string.format("%09d", ns % 1000000000) end`;
    // A page before a new instant each request: past the first thousand calls, a millisecond (and a nanosecond per
    // lap) later each time, so that every page is full and no URL repeats.
    const results: WrkPaths = {
      kind: "lua",
      prelude,
      expression: `(function() local ms = 1000 + (n % SPAN) + math.floor(n / SPAN) / 1000000
        return "/api/v1/contracts/0.0." .. (FC + n % C) .. "/results?timestamp=lt:" .. ts(ms) end)()`,
    };
    const topic1 = `0x${word(FIRST_SENDER).toString("hex")}`;
    const logs: WrkPaths = {
      kind: "lua",
      prelude,
      expression: `(function() local ms = (n % SPAN) + math.floor(n / SPAN) / 1000000
        return "/api/v1/contracts/results/logs?topic0=0x${TRANSFER.toString("hex")}&topic1=0x" .. string.format("%064x", FS + n % 50)
          .. "&timestamp=gte:" .. ts(ms) .. "&timestamp=lte:" .. ts(ms + 10000) end)()`,
    };
    const firstSecond = firstCallNs / NS_PER_SECOND;
    return withMirrorlite(recordsDir, dbFile, async (server) => {
      const cases = [
        {
          name: "contract results by contract, a new URL every request",
          paths: results,
          sample: `/api/v1/contracts/0.0.${FIRST_CONTRACT}/results?timestamp=lt:${firstSecond + 2n}`,
        },
        {
          name: "contract logs by topic in a 10 s range, new URLs",
          paths: logs,
          sample: `/api/v1/contracts/results/logs?topic0=0x${TRANSFER.toString("hex")}&topic1=${topic1}&timestamp=gte:${firstSecond}&timestamp=lte:${firstSecond + 10n}`,
        },
      ];
      const out: CpuComparison[] = [];
      for (const { name, paths, sample } of cases) {
        out.push(
          await compareWithBareWrk({
            server,
            name,
            paths,
            bodyBytes: await bodySize(server.port, sample),
            target: 0.2,
            seconds,
            rounds,
            warmUp: false,
          }),
        );
      }
      return out;
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { seconds: { type: "string" }, calls: { type: "string" }, rounds: { type: "string" } },
  });
  printVerdicts(
    await benchContractReads({
      ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
      ...(values.rounds === undefined ? {} : { rounds: Number(values.rounds) }),
      ...(values.calls === undefined ? {} : { calls: Number(values.calls) }),
    }),
  );
}

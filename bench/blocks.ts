/**
 * Speed of the blocks endpoints against a bare `node:http` server.
 *
 * Builds a v6 record stream of many small blocks (one crypto transfer each) with the real writer, ingests it
 * with `mirrorlite ingest`, serves it with `mirrorlite serve` in a child process, and drives
 * `/api/v1/blocks?limit=25` and lookups by hash (rotating through many hashes) with autocannon. Each is
 * measured next to a bare server, also in a child process, answering a fixed body of the same size in the same
 * run. Targets: the list at least 1/3 of the bare server's requests per second, a lookup at least 1/2.
 *
 * Run alone: `node --import tsx bench/blocks.ts [--blocks N] [--seconds S]`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Long from "long";
import { writeRecordFileV6 } from "../fixtures/writer/write-record-file.ts";
import { proto } from "../src/streams/proto.ts";
import type { HapiVersion, RecordItem } from "../src/streams/types.ts";
import { type BareComparison, compareWithBare } from "./lib/load.ts";
import { runMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

const NANOS_PER_SECOND = 1_000_000_000n;
const HASH_BYTES = 48;

// ---------------------------------------------------------------------------------------------------------
// A synthetic block stream (also used by the blocks API tests)
// ---------------------------------------------------------------------------------------------------------

/** A contract call result in a synthetic block; `child` makes it an internal (nonce 1) record. */
export type SyntheticContractResult = { gasUsed: bigint; bloom?: Uint8Array; child?: boolean };

/** One synthetic transaction: a crypto transfer, or a contract call when `contract` is given. */
export type SyntheticTransaction = { contract?: SyntheticContractResult };

export type BlockStreamOptions = {
  /** The block number of the first file (v6 files carry their number). */
  firstBlockNumber: bigint;
  /** Consensus time of the first transaction of the first block, in ns. */
  firstConsensusNs: bigint;
  /** Time between the first transactions of two consecutive blocks, in ns (default 2 s). */
  blockSpacingNs?: bigint;
  hapiVersion?: HapiVersion;
  /** The transactions of each block; a number gives that many blocks of one crypto transfer each. */
  blocks: number | readonly (readonly SyntheticTransaction[])[];
};

/** What the writer produced for one block. */
export type WrittenBlock = {
  name: string;
  number: bigint;
  /** Lower-case hex of the end running hash (the block hash) and of the start running hash. */
  hash: string;
  previousHash: string;
  consensusStartNs: bigint;
  consensusEndNs: bigint;
  count: number;
  sizeBytes: number;
};

const PAYER = 2;
const NODE = 3;
const CONTRACT = 1001;
const FEE_TINYBARS = 100_000;

/**
 * Writes a consecutive v6 record stream into `dir` (created if missing), one `.rcd.gz` per block, without
 * signature files (ingest with `waitSignatures` off). Returns the blocks as written, in order.
 */
export function writeBlockStream(dir: string, options: BlockStreamOptions): WrittenBlock[] {
  mkdirSync(dir, { recursive: true });
  const spacing = options.blockSpacingNs ?? 2n * NANOS_PER_SECOND;
  const hapiVersion = options.hapiVersion ?? { major: 0, minor: 47, patch: 0 };
  const blocks =
    typeof options.blocks === "number"
      ? Array.from({ length: options.blocks }, () => [{}] as SyntheticTransaction[])
      : options.blocks;
  let previous: Uint8Array = new Uint8Array(HASH_BYTES);
  const written: WrittenBlock[] = [];
  blocks.forEach((transactions, index) => {
    const number = options.firstBlockNumber + BigInt(index);
    const startNs = options.firstConsensusNs + BigInt(index) * spacing;
    const items: RecordItem[] = [];
    let consensusNs = startNs;
    for (const transaction of transactions) {
      // Child records take the nanosecond after their parent's, as consensus nodes assign them.
      const child = transaction.contract?.child === true;
      items.push(syntheticItem(consensusNs, child ? consensusNs - 1n : null, transaction));
      consensusNs += 1n;
    }
    const file = writeRecordFileV6({ hapiVersion, blockNumber: number, startRunningHash: previous, items });
    const name = `${streamFileTime(startNs)}.rcd.gz`;
    writeFileSync(join(dir, name), file.gzipBytes);
    written.push({
      name,
      number,
      hash: Buffer.from(file.endRunningHash).toString("hex"),
      previousHash: Buffer.from(previous).toString("hex"),
      consensusStartNs: startNs,
      consensusEndNs: consensusNs - 1n,
      count: items.length,
      sizeBytes: file.gzipBytes.length,
    });
    previous = file.endRunningHash;
  });
  return written;
}

/** `2022-07-13T08_46_08.041986003Z`: the consensus time as record stream file names spell it. */
function streamFileTime(ns: bigint): string {
  const seconds = ns / NANOS_PER_SECOND;
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replaceAll(":", "_");
  return `${iso}.${(ns % NANOS_PER_SECOND).toString().padStart(9, "0")}Z`;
}

/** An int64 protobuf field value. */
function long(value: bigint | number): Long {
  return Long.fromString(String(value));
}

function timestamp(ns: bigint) {
  return { seconds: long(ns / NANOS_PER_SECOND), nanos: Number(ns % NANOS_PER_SECOND) };
}

/** A signed-transaction-bytes transaction and its record, as a node of HAPI 0.47 writes them. */
function syntheticItem(
  consensusNs: bigint,
  parentNs: bigint | null,
  transaction: SyntheticTransaction,
): RecordItem {
  const validStartNs = (parentNs ?? consensusNs) - 5n * NANOS_PER_SECOND;
  const transactionID = {
    accountID: { accountNum: long(PAYER) },
    transactionValidStart: timestamp(validStartNs),
    ...(parentNs === null ? {} : { nonce: 1 }),
  };
  const contract = transaction.contract;
  const body = proto.TransactionBody.encode({
    transactionID,
    nodeAccountID: { accountNum: long(NODE) },
    transactionFee: long(FEE_TINYBARS * 10),
    transactionValidDuration: { seconds: long(120) },
    ...(contract === undefined
      ? {
          cryptoTransfer: {
            transfers: {
              accountAmounts: [
                { accountID: { accountNum: long(PAYER) }, amount: long(-1) },
                { accountID: { accountNum: long(CONTRACT + 1) }, amount: long(1) },
              ],
            },
          },
        }
      : { contractCall: { contractID: { contractNum: long(CONTRACT) }, gas: long(1_000_000) } }),
  }).finish();
  const signed = proto.SignedTransaction.encode({ bodyBytes: body, sigMap: {} }).finish();
  const transactionBytes = proto.Transaction.encode({ signedTransactionBytes: signed }).finish();
  const recordBytes = proto.TransactionRecord.encode({
    receipt: { status: proto.ResponseCodeEnum.SUCCESS },
    consensusTimestamp: timestamp(consensusNs),
    transactionID,
    transactionFee: long(parentNs === null ? FEE_TINYBARS : 0),
    ...(parentNs === null ? {} : { parentConsensusTimestamp: timestamp(parentNs) }),
    ...(contract === undefined
      ? {}
      : {
          contractCallResult: {
            contractID: { contractNum: long(CONTRACT) },
            gasUsed: long(contract.gasUsed),
            ...(contract.bloom === undefined ? {} : { bloom: contract.bloom }),
          },
        }),
    transferList: {
      accountAmounts: [
        { accountID: { accountNum: long(PAYER) }, amount: long(-FEE_TINYBARS) },
        { accountID: { accountNum: long(NODE) }, amount: long(FEE_TINYBARS) },
      ],
    },
  }).finish();
  return { transactionBytes, recordBytes };
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark
// ---------------------------------------------------------------------------------------------------------

export type BenchOptions = {
  /** Blocks in the generated stream (at least 50,000 for the published figures). */
  blocks?: number;
  /** Seconds of load per measurement. */
  seconds?: number;
  connections?: number;
  /**
   * Distinct hashes the measured lookup rotates through, spread over the whole stream (default 10,000: as
   * many blocks as the server keeps rendered). A second, informational run rotates through every block, so
   * that most lookups miss the cache and query the database.
   */
  lookupHashes?: number;
};

export type BenchResult = BareComparison;

/** Builds, ingests and serves a stream of `blocks` blocks and measures the list and the lookup by hash. */
export async function benchBlocks(options: BenchOptions = {}): Promise<BenchResult[]> {
  const blockCount = options.blocks ?? 50_000;
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 32;
  return withWorkDir("mirrorlite-bench-blocks-", async ({ recordsDir, dbFile }) => {
    let started = Date.now();
    const blocks = writeBlockStream(recordsDir, {
      firstBlockNumber: 1n,
      firstConsensusNs: 1_700_000_000n * NANOS_PER_SECOND,
      blocks: blockCount,
    });
    console.log(
      `blocks: wrote ${blocks.length} record files in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    await runMirrorlite(ingestGeneratedArgs(recordsDir, dbFile));
    console.log(`blocks: ingested them in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    return withMirrorlite(recordsDir, dbFile, async (server) => {
      const lookups = (count: number) => spread(blocks, count).map((b) => `/api/v1/blocks/0x${b.hash}`);
      const hot = lookups(options.lookupHashes ?? 10_000);
      const cases: Array<{ name: string; paths: string[]; target: number | null }> = [
        { name: "GET /api/v1/blocks?limit=25", paths: ["/api/v1/blocks?limit=25"], target: 1 / 3 },
        { name: `GET /api/v1/blocks/{hash} (${hot.length} hashes)`, paths: hot, target: 1 / 2 },
      ];
      if (hot.length < blocks.length) {
        const cold = lookups(blocks.length);
        cases.push({
          name: `GET /api/v1/blocks/{hash} (all ${cold.length}, mostly uncached)`,
          paths: cold,
          target: null,
        });
      }
      const results: BenchResult[] = [];
      for (const { name, paths, target } of cases) {
        results.push(await compareWithBare({ port: server.port, name, paths, target, seconds, connections }));
      }
      return results;
    });
  });
}

/** `count` blocks spread evenly over the stream, so lookups touch all of it. */
function spread<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).slice(0, count);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { blocks: { type: "string" }, seconds: { type: "string" } },
  });
  const results = await benchBlocks({
    ...(values.blocks === undefined ? {} : { blocks: Number(values.blocks) }),
    ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
  });
  for (const { name, ratio, target } of results) {
    const verdict =
      target === null ? "(no target)" : `target ${target.toFixed(2)} ${ratio >= target ? "met" : "MISSED"}`;
    console.log(`${name}: ratio ${ratio.toFixed(2)}, ${verdict}`);
  }
}

/**
 * Speed of the tokens-group lists against a bare `node:http` server.
 *
 * Builds a v6 record stream with the real writer: a fungible token held by `holders` accounts (created with
 * CryptoCreate, then credited ten per CryptoTransfer with automatic associations) and an NFT token with
 * `nfts` serials minted and spread over the holders. Ingests it with `mirrorlite ingest` (timed: the ingest
 * throughput figure), serves it with `mirrorlite serve` in a child process, and drives
 * `/api/v1/tokens?limit=25`, `/api/v1/tokens/{id}/balances` and `/api/v1/tokens/{id}/nfts` with autocannon,
 * each next to a bare server answering a fixed body of the same size, also in its own process, in the same
 * run. Target: every list at least 1/3 of the bare server's requests per second.
 *
 * Run alone: `node --import tsx bench/tokens-group.ts [--holders N] [--nfts N] [--seconds S]`;
 * `--ingest-only` writes and ingests the stream and reports only the ingest throughput.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { accountId, long, timestamp } from "../fixtures/writer/scenario/pb.ts";
import { writeRecordFileV6 } from "../fixtures/writer/write-record-file.ts";
import { proto } from "../src/streams/proto.ts";
import type { RecordItem } from "../src/streams/types.ts";
import { type BareComparison, compareWithBare, printVerdicts } from "./lib/load.ts";
import { runMirrorlite } from "./lib/processes.ts";
import { ingestGeneratedArgs, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

const NANOS_PER_SECOND = 1_000_000_000n;
const HASH_BYTES = 48;
const TREASURY = 2n;
const NODE = 3n;
const FUNGIBLE_TOKEN = 1001n;
const NFT_TOKEN = 1002n;
const FIRST_HOLDER = 100_001n;
const HOLDERS_PER_TRANSFER = 10;
const SERIALS_PER_MINT = 10;
const ITEMS_PER_FILE = 1000;

// ---------------------------------------------------------------------------------------------------------
// The bulk stream
// ---------------------------------------------------------------------------------------------------------

export type TokenStreamOptions = {
  /** Accounts holding the fungible token (100,000 for the published figures). */
  holders: number;
  /** NFT serials minted (and transferred to holders round-robin). */
  nfts: number;
  /** Consensus time of the first transaction, in ns. */
  firstConsensusNs?: bigint;
};

export type WrittenTokenStream = {
  files: number;
  transactions: number;
  fungibleTokenId: string;
  nftTokenId: string;
};

/**
 * Writes the stream into `dir` (created if missing) without signature files: ingest it with signature
 * waiting off. Every transaction succeeds and its record carries what a node reports (receipts, automatic
 * associations, token and NFT transfer lists).
 */
export function writeTokenStream(dir: string, options: TokenStreamOptions): WrittenTokenStream {
  mkdirSync(dir, { recursive: true });
  const items: RecordItem[] = [];
  let consensusNs = options.firstConsensusNs ?? 1_710_000_000n * NANOS_PER_SECOND;
  const add = (body: proto.ITransactionBody, record: proto.ITransactionRecord) => {
    consensusNs += 1_000_000n;
    items.push(item(consensusNs, body, record));
  };

  const supplyKey = ed25519Key(1);
  for (const [tokenId, type, name] of [
    [FUNGIBLE_TOKEN, proto.TokenType.FUNGIBLE_COMMON, "Bulk"],
    [NFT_TOKEN, proto.TokenType.NON_FUNGIBLE_UNIQUE, "Bulk NFT"],
  ] as const) {
    const fungible = type === proto.TokenType.FUNGIBLE_COMMON;
    add(
      {
        tokenCreation: {
          name,
          symbol: fungible ? "BLK" : "BNFT",
          decimals: fungible ? 2 : 0,
          initialSupply: long(fungible ? 1_000_000_000_000n : 0n),
          treasury: accountId(TREASURY),
          adminKey: supplyKey,
          supplyKey,
          tokenType: type,
          memo: `bench ${name}`,
        },
      },
      {
        receipt: { status: proto.ResponseCodeEnum.SUCCESS, tokenID: { tokenNum: long(tokenId) } },
        ...(fungible
          ? { tokenTransferLists: [fungibleTransfers(tokenId, [[TREASURY, 1_000_000_000_000n]])] }
          : {}),
        automaticTokenAssociations: [
          { tokenId: { tokenNum: long(tokenId) }, accountId: accountId(TREASURY) },
        ],
      },
    );
  }

  for (let i = 0; i < options.holders; i++) {
    const num = FIRST_HOLDER + BigInt(i);
    add(
      { cryptoCreateAccount: { key: ed25519Key(i + 100), initialBalance: long(100_000_000n) } },
      { receipt: { status: proto.ResponseCodeEnum.SUCCESS, accountID: accountId(num) } },
    );
  }

  for (let first = 0; first < options.holders; first += HOLDERS_PER_TRANSFER) {
    const credits: [bigint, bigint][] = [];
    for (let i = first; i < Math.min(first + HOLDERS_PER_TRANSFER, options.holders); i++) {
      credits.push([FIRST_HOLDER + BigInt(i), BigInt(1_000 + ((i * 7919) % 100_000))]);
    }
    const total = credits.reduce((sum, [, amount]) => sum + amount, 0n);
    const list = fungibleTransfers(FUNGIBLE_TOKEN, [[TREASURY, -total], ...credits]);
    add(
      { cryptoTransfer: { tokenTransfers: [list] } },
      {
        tokenTransferLists: [list],
        automaticTokenAssociations: credits.map(([num]) => ({
          tokenId: { tokenNum: long(FUNGIBLE_TOKEN) },
          accountId: accountId(num),
        })),
      },
    );
  }

  let minted = 0;
  while (minted < options.nfts) {
    const serials = Array.from({ length: Math.min(SERIALS_PER_MINT, options.nfts - minted) }, (_, i) =>
      BigInt(minted + i + 1),
    );
    minted += serials.length;
    add(
      {
        tokenMint: {
          token: { tokenNum: long(NFT_TOKEN) },
          metadata: serials.map((s) => Buffer.from(`ipfs://bench/${s}.json`)),
        },
      },
      {
        receipt: {
          status: proto.ResponseCodeEnum.SUCCESS,
          newTotalSupply: long(BigInt(minted)),
          serialNumbers: serials.map(long),
        },
        tokenTransferLists: [
          {
            token: { tokenNum: long(NFT_TOKEN) },
            nftTransfers: serials.map((s) => ({
              receiverAccountID: accountId(TREASURY),
              serialNumber: long(s),
            })),
          },
        ],
      },
    );
  }
  const holderCount = BigInt(Math.max(1, options.holders));
  for (let s = 1n; s <= BigInt(options.nfts); s += 2n) {
    // Every other serial leaves the treasury, so the list shows both owners.
    const receiver = FIRST_HOLDER + ((s * 31n) % holderCount);
    const list = {
      token: { tokenNum: long(NFT_TOKEN) },
      nftTransfers: [
        {
          senderAccountID: accountId(TREASURY),
          receiverAccountID: accountId(receiver),
          serialNumber: long(s),
        },
      ],
    };
    add(
      { cryptoTransfer: { tokenTransfers: [list] } },
      {
        tokenTransferLists: [list],
        automaticTokenAssociations: [
          { tokenId: { tokenNum: long(NFT_TOKEN) }, accountId: accountId(receiver) },
        ],
      },
    );
  }

  let previous: Uint8Array = new Uint8Array(HASH_BYTES);
  let files = 0;
  for (let start = 0; start < items.length; start += ITEMS_PER_FILE) {
    const chunk = items.slice(start, start + ITEMS_PER_FILE);
    const file = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 56, patch: 0 },
      blockNumber: BigInt(files + 1),
      startRunningHash: previous,
      items: chunk,
    });
    writeFileSync(join(dir, `${streamFileTime(firstNsOf(chunk[0]!))}.rcd.gz`), file.gzipBytes);
    previous = file.endRunningHash;
    files++;
  }
  return {
    files,
    transactions: items.length,
    fungibleTokenId: `0.0.${FUNGIBLE_TOKEN}`,
    nftTokenId: `0.0.${NFT_TOKEN}`,
  };
}

/** A deterministic ED25519-shaped key (32 bytes): the index written big-endian into the last bytes. */
function ed25519Key(index: number): proto.IKey {
  const bytes = Buffer.alloc(32, 0x5a);
  bytes.writeUInt32BE(index, 28);
  return { ed25519: bytes };
}

function fungibleTransfers(tokenId: bigint, amounts: readonly [bigint, bigint][]): proto.ITokenTransferList {
  return {
    token: { tokenNum: long(tokenId) },
    transfers: amounts.map(([num, amount]) => ({ accountID: accountId(num), amount: long(amount) })),
  };
}

const consensusOf = new WeakMap<RecordItem, bigint>();

function firstNsOf(recordItem: RecordItem): bigint {
  return consensusOf.get(recordItem) ?? 0n;
}

/** A signed-transaction-bytes transaction paid by the treasury and its successful record. */
function item(
  consensusNs: bigint,
  typed: proto.ITransactionBody,
  record: proto.ITransactionRecord,
): RecordItem {
  const transactionID = {
    accountID: accountId(TREASURY),
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
    consensusTimestamp: timestamp(consensusNs),
    transactionID,
    transactionFee: long(100_000n),
    transferList: {
      accountAmounts: [
        { accountID: accountId(TREASURY), amount: long(-100_000n) },
        { accountID: accountId(NODE), amount: long(100_000n) },
      ],
    },
    ...record,
  }).finish();
  const written = {
    transactionBytes: proto.Transaction.encode({ signedTransactionBytes: signed }).finish(),
    recordBytes,
  };
  consensusOf.set(written, consensusNs);
  return written;
}

/** `2024-03-09T16_00_00.001000000Z`: a consensus time as record stream file names spell it. */
function streamFileTime(ns: bigint): string {
  const seconds = ns / NANOS_PER_SECOND;
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replaceAll(":", "_");
  return `${iso}.${(ns % NANOS_PER_SECOND).toString().padStart(9, "0")}Z`;
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark
// ---------------------------------------------------------------------------------------------------------

export type TokensGroupBenchOptions = {
  holders?: number;
  nfts?: number;
  /** Seconds of load per measurement. */
  seconds?: number;
  connections?: number;
  /** Only write and ingest the stream (for ingest throughput comparisons). */
  ingestOnly?: boolean;
};

export type TokensGroupResult = BareComparison;

export type TokensGroupBench = {
  ingest: { transactions: number; files: number; seconds: number; transactionsPerSecond: number };
  /** The three lists, each with its target. */
  results: TokensGroupResult[];
  /** For information, no target: balance pages of 20,000 distinct accounts, nearly all cache misses. */
  uncached: TokensGroupResult | null;
};

/** Builds, ingests and serves the bulk token stream and measures the three token lists. */
export async function benchTokensGroup(options: TokensGroupBenchOptions = {}): Promise<TokensGroupBench> {
  const holders = options.holders ?? 100_000;
  const nfts = options.nfts ?? 2_000;
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 32;
  return withWorkDir("mirrorlite-bench-tokens-", async ({ recordsDir, dbFile }) => {
    let started = Date.now();
    const stream = writeTokenStream(recordsDir, { holders, nfts });
    console.log(
      `tokens: wrote ${stream.transactions} transactions in ${stream.files} record files in ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    await runMirrorlite(ingestGeneratedArgs(recordsDir, dbFile));
    const ingestSeconds = (Date.now() - started) / 1000;
    const ingest = {
      transactions: stream.transactions,
      files: stream.files,
      seconds: ingestSeconds,
      transactionsPerSecond: stream.transactions / ingestSeconds,
    };
    console.log(
      `tokens: ingested them in ${ingestSeconds.toFixed(1)} s (${ingest.transactionsPerSecond.toFixed(0)} transactions/s)`,
    );
    if (options.ingestOnly === true) return { ingest, results: [], uncached: null };

    return withMirrorlite(recordsDir, dbFile, async (server) => {
      // Pages of distinct accounts, so that nearly every request misses the cache: the query's own speed.
      const uncached = Array.from({ length: 20_000 }, (_, i) => {
        const account = FIRST_HOLDER + BigInt((i * 7919) % Math.max(1, holders));
        return `/api/v1/tokens/${stream.fungibleTokenId}/balances?account.id=lte:0.0.${account}`;
      });
      const cases = [
        { name: "GET /api/v1/tokens?limit=25", paths: ["/api/v1/tokens?limit=25"], target: 1 / 3 },
        {
          name: `GET /api/v1/tokens/{id}/balances (${holders} holders)`,
          paths: [`/api/v1/tokens/${stream.fungibleTokenId}/balances`],
          target: 1 / 3,
        },
        {
          name: `GET /api/v1/tokens/{id}/nfts (${nfts} NFTs)`,
          paths: [`/api/v1/tokens/${stream.nftTokenId}/nfts`],
          target: 1 / 3,
        },
        { name: "(info) balances, 20,000 distinct pages", paths: uncached, target: null },
      ];
      const results: TokensGroupResult[] = [];
      for (const { name, paths, target } of cases) {
        // A warm-up of the distinct pages would cache them: it is left out there.
        const warmUp = paths.length === 1;
        results.push(
          await compareWithBare({ port: server.port, name, paths, target, seconds, connections, warmUp }),
        );
      }
      return {
        ingest,
        results: results.filter((r) => r.target !== null),
        uncached: results.find((r) => r.target === null) ?? null,
      };
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      holders: { type: "string" },
      nfts: { type: "string" },
      seconds: { type: "string" },
      "ingest-only": { type: "boolean" },
    },
  });
  const { ingest, results, uncached } = await benchTokensGroup({
    ...(values.holders === undefined ? {} : { holders: Number(values.holders) }),
    ...(values.nfts === undefined ? {} : { nfts: Number(values.nfts) }),
    ...(values.seconds === undefined ? {} : { seconds: Number(values.seconds) }),
    ingestOnly: values["ingest-only"] === true,
  });
  console.log(`ingest: ${ingest.transactionsPerSecond.toFixed(0)} transactions/s`);
  if (uncached !== null)
    console.log(`${uncached.name}: ${uncached.subject.requestsPerSecond.toFixed(0)} req/s`);
  printVerdicts(results);
}

/**
 * The proof that the format does not matter: a scenario's ledger written as record files (the committed fixture)
 * and the same ledger written as block stream blocks by the project's block writer (one block per record file:
 * both compressions, both layouts, and a cutover where the first part stays record files) give the same answer
 * on every endpoint and the same rows in every table where the format has no say. What differs by nature: a
 * block's hash, name, size and previous hash (blocks are hashed, named and sized as block files).
 */
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type BlockCompression,
  type BlockLayout,
  writeBlockStream,
} from "../../fixtures/writer/write-block-stream.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordFile } from "../../src/streams/types.ts";
import { type Answer, crawlIndex, digestTables, type TableDigests } from "../helpers/index-answers.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { FIXTURE_STREAMS, REAL_STREAMS, startTestService, tempDir } from "../helpers/service.ts";

/** Endpoints the crawl does not walk: the network group, asked as of a few instants too. */
const NETWORK_PATHS = [
  "/api/v1/network/exchangerate",
  "/api/v1/network/fees",
  "/api/v1/network/fees?order=desc",
  "/api/v1/network/nodes",
  "/api/v1/network/nodes?limit=2&order=desc",
  "/api/v1/network/stake",
  "/api/v1/network/supply",
];
/** Tables whose rows describe the files themselves, not the ledger. */
const FORMAT_TABLES = new Set(["record_file", "ingest_cursor", "block_proof"]);
const FILE_FIELDS = new Set(["hash", "name", "size", "previous_hash"]);

function recordFilesOf(scenario: string, real?: string): { dir: string; files: RecordFile[] } {
  const dir = real === undefined ? join(FIXTURE_STREAMS, scenario, "record0.0.3") : join(REAL_STREAMS, real);
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(".rcd.gz"))
    .sort();
  return { dir, files: names.map((name) => readRecordFile(name, readFileSync(join(dir, name)))) };
}

/** Answers with what only the file format decides left out: block hashes, names, sizes, lookups by hash. */
function withoutFileFacts(answers: Answer[]): Answer[] {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) if (!FILE_FIELDS.has(key)) out[key] = strip(inner);
    return out;
  };
  return answers
    .filter((answer) => !answer.path.startsWith("/api/v1/blocks/0x"))
    .map((answer) => ({
      ...answer,
      body: answer.path.startsWith("/api/v1/blocks") ? strip(answer.body) : answer.body,
    }));
}

async function ingestAndCrawl(
  recordsDir: string | null,
  blocksDir: string | null,
): Promise<{ answers: Answer[]; tables: TableDigests }> {
  const temp = tempDir();
  const db = join(temp.dir, "index.db");
  try {
    const service = await startTestService({ recordsDir, blocksDir, waitSignatures: false, db });
    const answers: Answer[] = [];
    try {
      await service.ingest.settled;
      const status = service.ingest.status();
      if (status.state !== "ready") throw new Error(`did not ingest: ${status.reason}`);
      answers.push(...(await crawlIndex(service)));
      const blocks = answers.find((a) => a.path.startsWith("/api/v1/blocks?"))?.body as {
        blocks: Array<{ timestamp: { to: string } }>;
      };
      const instants = blocks.blocks.slice(0, 3).map((b) => b.timestamp.to);
      for (const path of [
        ...NETWORK_PATHS,
        ...instants.map((t) => `/api/v1/network/exchangerate?timestamp=lte:${t}`),
      ]) {
        const response = await service.get(path);
        answers.push({ path, status: response.status, body: response.body });
      }
    } finally {
      await service.stop();
    }
    for (const answer of answers) {
      if (answer.status === 200 && !answer.path.startsWith("/api/v1/network/supply")) {
        validateResponse({ path: answer.path.split("?")[0]!, status: answer.status, body: answer.body });
      }
    }
    const tables = digestTables(db, null);
    for (const table of FORMAT_TABLES) delete tables[table];
    return { answers, tables };
  } finally {
    temp.remove();
  }
}

const CASES: Array<{
  scenario: string;
  /** A real record stream (below fixtures/real) instead of the scenario's. */
  real?: string;
  compression: BlockCompression;
  layout: BlockLayout;
  cutoverAt?: number;
  /**
   * Tables where the importer's block transformers themselves add facts that the simulator's records lack: a
   * CryptoCreate with a 20-byte alias gets `evm_address` from its body (`CryptoCreateTransformer`) and a
   * CryptoUpdate's receipt names the updated account (`CryptoUpdateTransformer`), which `entity.evm_address` and
   * `transaction.entity_id` follow here. Row counts must match and every endpoint must still answer alike.
   */
  transformerTables?: string[];
}> = [
  { scenario: "demo", compression: "zstd", layout: "flat" },
  { scenario: "tokens", compression: "gzip", layout: "bucket" },
  {
    scenario: "accounts-and-nfts",
    compression: "none",
    layout: "flat",
    transformerTables: ["entity", "transaction"],
  },
  { scenario: "demo", compression: "zstd", layout: "bucket", cutoverAt: 10 },
  // A ContractCall and its child ContractCreate: the block's gas and bloom come from the contract results.
  { scenario: "real v6", real: "v6/record0.0.3", compression: "zstd", layout: "flat" },
  // Allowances, approved spends, pending airdrops (from the airdrop's transfers), claims, cancels, rewards.
  // Its one CryptoUpdate (a staking reward payout) names the account in the block's receipt.
  {
    scenario: "account-relations",
    compression: "gzip",
    layout: "flat",
    transformerTables: ["transaction"],
  },
  // Consensus messages: sequence numbers and running hashes from the topics' state changes.
  { scenario: "topics", compression: "gzip", layout: "flat" },
];

describe("a ledger as record files and as block stream blocks", () => {
  for (const { scenario, real, compression, layout, cutoverAt, transformerTables = [] } of CASES) {
    const label = `${scenario}: ${compression}, ${layout}${cutoverAt === undefined ? "" : `, cutover after ${cutoverAt} record files`}`;
    it(`answers alike (${label})`, { timeout: 180_000 }, async () => {
      const { dir, files } = recordFilesOf(scenario, real);
      const temp = tempDir();
      try {
        const from = cutoverAt ?? 0;
        const blocksDir = join(temp.dir, "block-0.0.3");
        const numbers = files.map((file, index) => file.blockNumber ?? BigInt(index));
        const hapi = files[0]!.hapiVersion!;
        writeBlockStream(files.slice(from), hapi, numbers.slice(from), blocksDir, {
          compression,
          layout,
          markers: layout === "flat",
        });
        let recordsDir: string | null = null;
        if (from > 0) {
          recordsDir = join(temp.dir, "record0.0.3");
          for (const file of files.slice(0, from)) cpSync(join(dir, file.name), join(recordsDir, file.name));
        }
        const asRecords = await ingestAndCrawl(dir, null);
        const asBlocks = await ingestAndCrawl(recordsDir, blocksDir);
        expect(asBlocks.answers.length).toBeGreaterThan(20);
        for (const table of transformerTables) {
          expect(asBlocks.tables[table]?.rows).toBe(asRecords.tables[table]?.rows);
          delete asBlocks.tables[table];
          delete asRecords.tables[table];
        }
        expect(asBlocks.tables).toEqual(asRecords.tables);
        if (from > 0) {
          // The first block's previous hash is the last record file's hash, as the mirror node reports it.
          const lookup = (answers: Answer[], n: bigint) =>
            answers.find((a) => a.path === `/api/v1/blocks/${n}`)?.body as {
              hash: string;
              previous_hash: string;
            };
          const cutoverBlock = lookup(asBlocks.answers, numbers[from]!);
          expect(cutoverBlock.previous_hash).toBe(lookup(asRecords.answers, numbers[from - 1]!).hash);
          expect(lookup(asBlocks.answers, numbers[from - 1]!).hash).toBe(cutoverBlock.previous_hash);
        }
        if (real !== undefined) {
          // Not vacuous: the contract call's gas reaches its block (and its bloom, compared with the answers).
          const list = asBlocks.answers.find((a) => a.path.startsWith("/api/v1/blocks?"))?.body as {
            blocks: Array<{ gas_used: number; logs_bloom: string }>;
          };
          expect(list.blocks.some((b) => b.gas_used > 0 && b.logs_bloom !== "0x")).toBe(true);
        }
        const expected = withoutFileFacts(asRecords.answers);
        const actual = withoutFileFacts(asBlocks.answers);
        expect(actual.map((a) => a.path)).toEqual(expected.map((a) => a.path));
        for (let i = 0; i < expected.length; i++) expect(actual[i]).toEqual(expected[i]);
      } finally {
        temp.remove();
      }
    });
  }
});

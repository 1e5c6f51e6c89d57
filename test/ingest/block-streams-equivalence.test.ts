/**
 * The proof that the format does not matter: a scenario's ledger written as record files (the committed fixture)
 * and the same ledger written as block stream blocks by the project's block writer (one block per record file:
 * both compressions, both layouts, and a cutover where the first part stays record files) give the same answer
 * on every endpoint and the same rows in every table where the format has no say. What differs by nature: a
 * block's hash, name, size and previous hash (blocks are hashed, named and sized as block files).
 *
 * `npm test` runs the cases that between them answer every route from blocks and cover each compression, layout
 * and the cutover; the slow project (MIRRORLITE_TEST_SLOW=1) runs the others (marked `slow`).
 */
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BlockCompression,
  type BlockLayout,
  writeBlockStream,
} from "../../fixtures/writer/write-block-stream.ts";
import { apiRoutes } from "../../src/api/app.ts";
import { encodeBase32 } from "../../src/api/base32.ts";
import { readRecordSidecars } from "../../src/ingest/sidecars.ts";
import type { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordFile } from "../../src/streams/types.ts";
import { type Answer, digestTables, type TableDigests } from "../helpers/index-answers.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { crawlEveryRoute, ROUTES_WALKED } from "../helpers/route-crawl.ts";
import { FIXTURE_STREAMS, REAL_STREAMS, startTestService, tempDir } from "../helpers/service.ts";

/** Tables whose rows describe the files themselves, not the ledger. */
const FORMAT_TABLES = new Set(["record_file", "ingest_cursor", "block_proof"]);
const FILE_FIELDS = new Set(["hash", "name", "size", "previous_hash"]);

function recordFilesOf(
  scenario: string,
  real?: string,
): { dir: string; files: RecordFile[]; sidecars: Map<string, proto.ITransactionSidecarRecord[]> } {
  const dir = real === undefined ? join(FIXTURE_STREAMS, scenario, "record0.0.3") : join(REAL_STREAMS, real);
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(".rcd.gz"))
    .sort();
  const files = names.map((name) => readRecordFile(name, readFileSync(join(dir, name))));
  // Each file's sidecar records, which the block writer puts into the block's trace data and state changes.
  const sidecars = new Map(
    files.map((file) => [
      file.name,
      [...readRecordSidecars(dir, file, "required", (path) => readFileSync(join(dir, path))).values()].flat(),
    ]),
  );
  return { dir, files, sidecars };
}

/** Answers with what only the file format decides left out: block hashes, names, sizes, lookups by hash. */
function withoutFileFacts(answers: Answer[]): Answer[] {
  const without =
    (fields: ReadonlySet<string>) =>
    (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(without(fields));
      if (value === null || typeof value !== "object") return value;
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value))
        if (!fields.has(key)) out[key] = without(fields)(inner);
      return out;
    };
  const strip = without(FILE_FIELDS);
  // Contract results and logs name their block by hash too.
  const stripBlockHash = without(new Set(["block_hash"]));
  return answers
    .filter((answer) => !answer.path.startsWith("/api/v1/blocks/0x"))
    .map((answer) => ({
      ...answer,
      body: answer.path.startsWith("/api/v1/blocks")
        ? strip(answer.body)
        : answer.path.startsWith("/api/v1/contracts")
          ? stripBlockHash(answer.body)
          : answer.body,
    }));
}

/**
 * The accounts whose alias upstream derives differently from blocks: a CryptoCreate's record carries the alias
 * the account was auto-created for (its key), which the record path's `CryptoCreateTransactionHandler` takes
 * before the body's; `CryptoCreateTransformer` builds no record alias from a block, so the body's alias (the
 * node's synthetic body holds the EVM address for an ECDSA key) is what the block path indexes. Pairs the two
 * account lists by account and checks that each alias that differs is exactly the EVM address, base32: returns
 * the records' aliases mapped to the blocks'.
 */
function aliasesFromBody(asRecords: Answer[], asBlocks: Answer[]): Map<string, string> {
  type Listed = { account: string; alias: string | null; evm_address: string | null };
  const listed = (answers: Answer[]) =>
    answers
      .filter((a) => a.path.startsWith("/api/v1/accounts?limit=100&order=asc") && a.status === 200)
      .flatMap((a) => (a.body as { accounts: Listed[] }).accounts);
  const fromBlocks = new Map(listed(asBlocks).map((account) => [account.account, account]));
  const renamed = new Map<string, string>();
  for (const account of listed(asRecords)) {
    const other = fromBlocks.get(account.account);
    if (other === undefined || other.alias === account.alias || account.alias === null) continue;
    expect(account.evm_address).not.toBeNull();
    expect(other.alias).toBe(encodeBase32(Buffer.from(account.evm_address!.slice(2), "hex")));
    renamed.set(account.alias, other.alias!);
  }
  return renamed;
}

/** `answers` with every string that `renamed` names replaced (in paths and bodies). */
function renaming(answers: Answer[], renamed: Map<string, string>): Answer[] {
  if (renamed.size === 0) return answers;
  const rename = (text: string) => {
    let out = text;
    for (const [from, to] of renamed) out = out.split(from).join(to);
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return rename(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]));
  };
  return answers.map((answer) => ({ ...answer, path: rename(answer.path), body: walk(answer.body) }));
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
      answers.push(...(await crawlEveryRoute(service)));
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
   * Tables where upstream's block path derives facts differently from its record path: an account auto-created
   * for an ECDSA key gets its alias from the CryptoCreate body (see `aliasFromBody`), which `entity.alias`
   * follows here. Row counts must match, and every endpoint must answer alike but for that alias.
   */
  transformerTables?: string[];
  /** An account auto-created for an ECDSA key: its alias is the body's (see `aliasesFromBody`). */
  aliasFromBody?: boolean;
  /** Run by the slow project, not by `npm test`. */
  slow?: boolean;
}> = [
  { scenario: "demo", compression: "zstd", layout: "flat" },
  { scenario: "tokens", compression: "gzip", layout: "bucket" },
  {
    scenario: "accounts-and-nfts",
    compression: "none",
    layout: "flat",
    transformerTables: ["entity"],
    aliasFromBody: true,
  },
  { scenario: "demo", compression: "zstd", layout: "bucket", cutoverAt: 10 },
  // A ContractCall and its child ContractCreate: the block's gas and bloom come from the contract results.
  { scenario: "real v6", real: "v6/record0.0.3", compression: "zstd", layout: "flat", slow: true },
  // Allowances, approved spends, pending airdrops (from the airdrop's transfers), claims, cancels, rewards.
  // Its one CryptoUpdate (a staking reward payout): `transaction.entity_id` comes from the body on both paths.
  {
    scenario: "account-relations",
    compression: "gzip",
    layout: "flat",
    slow: true,
  },
  // Consensus messages: sequence numbers and running hashes from the topics' state changes.
  { scenario: "topics", compression: "gzip", layout: "flat", slow: true },
  // Schedules: ids from the create_schedule output, executions from schedule_ref, signatures from the block's
  // signed transactions.
  { scenario: "schedules", compression: "zstd", layout: "flat", slow: true },
  // Hooks and their storage; registered nodes, whose ids blocks carry in state changes (state id 56).
  { scenario: "hooks-and-registered-nodes", compression: "gzip", layout: "flat" },
  // Contracts: results, logs, Ethereum transactions; state changes, actions and bytecode from the trace data and
  // the storage and bytecode state changes (the record files' sidecars).
  { scenario: "contracts", compression: "zstd", layout: "flat" },
];

/**
 * Routes that only ever answer 400 (their would-be token id is a word), or whose GET is refused (`/contracts/call`
 * is POST only; its EVM answers are tested in test/evm/), or that are off by default (`/opcodes`, 404 without
 * `--opcodes on`; its replays are tested in test/evm/): asked, never answered with data.
 */
const ERROR_ONLY = new Set([
  "/api/v1/contracts/call",
  "/api/v1/contracts/results/{transactionIdOrHash}/opcodes",
  "/api/v1/tokens/balances",
  "/api/v1/tokens/nfts",
  "/api/v1/tokens/nfts/{serialNumber}",
  "/api/v1/tokens/nfts/{serialNumber}/transactions",
]);

/** The template of the route table that answers `path` (the table's matching order: the first that fits). */
function templateOf(path: string): string | undefined {
  const segments = path.split("?")[0]!.split("/");
  return apiRoutes()
    .map((route) => route.template)
    .find((template) => {
      const parts = template.split("/");
      return (
        parts.length === segments.length &&
        parts.every((part, i) => part.startsWith("{") || part === segments[i])
      );
    });
}

/** Which part of the cases this run takes (see the module comment). */
const SLOW_PART = process.env.MIRRORLITE_TEST_SLOW === "1";

/** The record files' side of a case, once per stream: cases on the same stream compare with the same answers. */
const asRecordFiles = new Map<string, ReturnType<typeof ingestAndCrawl>>();
function recordFilesIndexed(dir: string): ReturnType<typeof ingestAndCrawl> {
  let indexed = asRecordFiles.get(dir);
  if (indexed === undefined) {
    indexed = ingestAndCrawl(dir, null);
    asRecordFiles.set(dir, indexed);
  }
  return indexed;
}

describe("a ledger as record files and as block stream blocks", () => {
  /** Templates answered 200 in some case, from blocks. */
  const answered = new Set<string>();
  afterAll(() => {
    // The slow part's cases need not answer every route: `npm test`'s do.
    if (answered.size === 0 || SLOW_PART) return; // no case ran to its end
    const expected = apiRoutes()
      .map((route) => route.template)
      .filter((template) => !ERROR_ONLY.has(template));
    expect(expected.filter((template) => !answered.has(template))).toEqual([]);
  });

  it("is compared on every route of the API's route table", () => {
    expect([...ROUTES_WALKED].sort()).toEqual(
      apiRoutes()
        .map((route) => route.template)
        .sort(),
    );
  });

  for (const {
    scenario,
    real,
    compression,
    layout,
    cutoverAt,
    transformerTables = [],
    aliasFromBody = false,
  } of CASES.filter((c) => (c.slow ?? false) === SLOW_PART)) {
    const label = `${scenario}: ${compression}, ${layout}${cutoverAt === undefined ? "" : `, cutover after ${cutoverAt} record files`}`;
    it(`answers alike (${label})`, { timeout: 180_000 }, async () => {
      const { dir, files, sidecars } = recordFilesOf(scenario, real);
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
          sidecars,
        });
        let recordsDir: string | null = null;
        if (from > 0) {
          recordsDir = join(temp.dir, "record0.0.3");
          for (const file of files.slice(0, from)) cpSync(join(dir, file.name), join(recordsDir, file.name));
        }
        const asRecords = structuredClone(await recordFilesIndexed(dir));
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
        const renamed = aliasesFromBody(asRecords.answers, asBlocks.answers);
        expect(renamed.size).toBe(aliasFromBody ? 1 : 0);
        const expected = withoutFileFacts(renaming(asRecords.answers, renamed));
        const actual = withoutFileFacts(asBlocks.answers);
        expect(actual.map((a) => a.path)).toEqual(expected.map((a) => a.path));
        for (let i = 0; i < expected.length; i++) expect(actual[i]).toEqual(expected[i]);
        for (const answer of asBlocks.answers) {
          const template = answer.status === 200 ? templateOf(answer.path) : undefined;
          if (template !== undefined) answered.add(template);
        }
      } finally {
        temp.remove();
      }
    });
  }
});

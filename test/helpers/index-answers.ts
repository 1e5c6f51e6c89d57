/**
 * Asks a running service every tokens and blocks question an index can answer, so that two builds of the
 * ingest path can be compared answer for answer. The questions are derived from the answers themselves
 * (every page of every list, then every token, block, and a sample of NFTs, balances and instants), so the
 * crawl reaches every row the endpoints expose without knowing the stream in advance.
 */
import { createHash } from "node:crypto";
import { cpSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { FIXTURE_STREAMS, REAL_STREAMS, startTestService, type TestService, tempDir } from "./service.ts";

export type Answer = { path: string; status: number; body: unknown };

type Page = { links?: { next?: string | null } };
type TokenSummary = { token_id: string; type: string };
type Block = { number: number; hash: string; timestamp: { from: string; to: string } };
type Nft = { serial_number: number };

/** Every stream the comparison covers: fixture scenarios, real files and a small generated bulk stream. */
export const GOLDEN_STREAMS = [
  "scenario:demo",
  "scenario:tokens",
  "scenario:accounts-and-nfts",
  "scenario:tokens-group-nfts",
  "real:v2/record0.0.3",
  "real:v5/record0.0.3",
  "real:v6/record0.0.3",
  "bulk:small",
] as const;

/**
 * The generated stream of the comparison: the benchmark's token-heavy mix, small. Several files, thousands of
 * transfers, creates, mints and NFT moves, so a faster ingest path is checked on the same shapes it is timed on.
 */
export function writeSmallBulkStream(dir: string): void {
  generateBulkStream({
    dir,
    tokens: 120,
    transactions: 6000,
    transactionsPerFile: 500,
    signatures: false,
    signingKey: null,
  });
}

/** Follows `links.next` from `first` to the end, returning every page's answer. */
export async function allPages(service: TestService, first: string, answers: Answer[]): Promise<unknown[]> {
  const bodies: unknown[] = [];
  let path: string | null = first;
  // A list that never ends would be a bug; the bound keeps a broken build from hanging the test.
  for (let guard = 0; path !== null && guard < 10_000; guard++) {
    const answer = await ask(service, path, answers);
    bodies.push(answer.body);
    path = answer.status === 200 ? ((answer.body as Page).links?.next ?? null) : null;
  }
  return bodies;
}

export async function ask(service: TestService, path: string, answers: Answer[]): Promise<Answer> {
  const response = await service.get(path);
  const answer = { path, status: response.status, body: response.body };
  answers.push(answer);
  return answer;
}

/** Every `step`-th element (always the first and the last), for samples that stay small on big streams. */
export function sample<T>(list: readonly T[], count: number): T[] {
  if (list.length <= count) return [...list];
  const step = (list.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => list[Math.round(i * step)]!);
}

/** Asks the service everything listed in the module comment; answers in asking order. */
export async function crawlIndex(service: TestService): Promise<Answer[]> {
  const answers: Answer[] = [];
  const blockPages = await allPages(service, "/api/v1/blocks?limit=25&order=asc", answers);
  const blocks = blockPages.flatMap((page) => (page as { blocks?: Block[] }).blocks ?? []);
  await allPages(service, "/api/v1/blocks?limit=7&order=desc", answers);
  for (const block of blocks) {
    await ask(service, `/api/v1/blocks/${block.number}`, answers);
    await ask(service, `/api/v1/blocks/0x${block.hash.replace(/^0x/, "")}`, answers);
  }
  // Instants to ask "as of": the start and end of a few blocks. Every token is asked as of two instants in the
  // second half of the stream (most tokens exist by then and have changed since).
  const instants = sample(blocks, 4).flatMap((block) => [block.timestamp.to, block.timestamp.from]);
  const late = [blocks[Math.floor(blocks.length / 2)], blocks[Math.floor((blocks.length * 3) / 4)]];
  const perToken = late.flatMap((block) => (block === undefined ? [] : [block.timestamp.to]));

  const tokenPages = await allPages(service, "/api/v1/tokens?limit=100&order=asc", answers);
  const tokens = tokenPages.flatMap((page) => (page as { tokens?: TokenSummary[] }).tokens ?? []);
  await allPages(service, "/api/v1/tokens?limit=13&order=desc&type=NON_FUNGIBLE_UNIQUE", answers);
  for (const account of ["0.0.1001", "0.0.1002", "0.0.1010", "0.0.2", "0.0.1050"]) {
    await allPages(service, `/api/v1/tokens?account.id=${account}&limit=50`, answers);
  }
  for (const token of tokens) {
    const id = token.token_id;
    await ask(service, `/api/v1/tokens/${id}`, answers);
    await allPages(service, `/api/v1/tokens/${id}/balances?limit=100`, answers);
    for (const instant of perToken) {
      await ask(service, `/api/v1/tokens/${id}?timestamp=${instant}`, answers);
      await allPages(service, `/api/v1/tokens/${id}/balances?timestamp=${instant}&limit=100`, answers);
    }
    if (token.type !== "NON_FUNGIBLE_UNIQUE") continue;
    const nftPages = await allPages(service, `/api/v1/tokens/${id}/nfts?limit=100`, answers);
    const nfts = nftPages.flatMap((page) => (page as { nfts?: Nft[] }).nfts ?? []);
    for (const nft of sample(nfts, 5)) {
      await ask(service, `/api/v1/tokens/${id}/nfts/${nft.serial_number}`, answers);
      await allPages(
        service,
        `/api/v1/tokens/${id}/nfts/${nft.serial_number}/transactions?limit=25`,
        answers,
      );
    }
  }
  for (const token of sample(tokens, 6)) {
    for (const instant of instants) {
      await ask(service, `/api/v1/tokens/${token.token_id}?timestamp=lte:${instant}`, answers);
      await ask(service, `/api/v1/tokens/${token.token_id}?timestamp=lt:${instant}`, answers);
    }
  }
  return answers;
}

/** Per table: its columns (as the reference build had them) and a SHA-256 over every row, in order. */
export type TableDigests = Record<string, { columns: string[]; rows: number; sha256: string }>;

/**
 * Digests of the index's tables, row by row over `columns` (default: every column), sorted by those columns.
 * Taking the reference's column lists lets a later migration add columns without failing the comparison.
 */
export function digestTables(dbPath: string, columnsOf: Record<string, string[]> | null): TableDigests {
  const db = new Database(dbPath, { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    // Full-text tables (and their shadow tables, whose bytes depend on how writes were grouped into commits)
    // are left out: the answers compared alongside cover what they serve.
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migration')
           AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
           AND NOT EXISTS (SELECT 1 FROM sqlite_master v WHERE v.sql LIKE 'CREATE VIRTUAL TABLE%'
             AND sqlite_master.name LIKE v.name || '\\_%' ESCAPE '\\')
         ORDER BY name`,
      )
      .pluck()
      .all() as string[];
    const digests: TableDigests = {};
    for (const table of columnsOf === null ? tables : Object.keys(columnsOf)) {
      const columns =
        columnsOf?.[table] ??
        (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]);
      const list = columns.map((c) => `"${c}"`).join(", ");
      const hash = createHash("sha256");
      let rows = 0;
      for (const row of db.prepare(`SELECT ${list} FROM "${table}" ORDER BY ${list}`).raw().iterate()) {
        hash.update(
          JSON.stringify(row, (_, v) =>
            typeof v === "bigint" ? `${v}n` : v instanceof Buffer ? v.toString("hex") : v,
          ),
        );
        hash.update("\n");
        rows++;
      }
      digests[table] = { columns, rows, sha256: hash.digest("hex") };
    }
    return digests;
  } finally {
    db.close();
  }
}

/**
 * Ingests one of `GOLDEN_STREAMS` with the real service (worker, SQLite file, HTTP), crawls it, and digests
 * its tables (over the reference's columns when `columnsOf` is given).
 */
export async function answersOf(
  stream: (typeof GOLDEN_STREAMS)[number],
  columnsOf: Record<string, string[]> | null = null,
): Promise<{ answers: Answer[]; tables: TableDigests }> {
  const [kind, name] = stream.split(":") as [string, string];
  const temp = tempDir();
  let dir: string;
  if (kind === "bulk") {
    dir = join(temp.dir, "record0.0.3");
    writeSmallBulkStream(dir);
  } else {
    dir = join(temp.dir, "record0.0.3");
    cpSync(kind === "scenario" ? join(FIXTURE_STREAMS, name, "record0.0.3") : join(REAL_STREAMS, name), dir, {
      recursive: true,
    });
  }
  const db = join(temp.dir, "index.db");
  try {
    const service = await startTestService({ recordsDir: dir, waitSignatures: false, db });
    let answers: Answer[];
    try {
      await service.ingest.settled;
      const status = service.ingest.status();
      if (status.state !== "ready") throw new Error(`${stream} did not ingest: ${status.reason}`);
      answers = await crawlIndex(service);
    } finally {
      await service.stop();
    }
    return { answers, tables: digestTables(db, columnsOf) };
  } finally {
    temp.remove();
  }
}

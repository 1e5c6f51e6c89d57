/**
 * Every statement the account sub-resources run is bounded: the routes answer a table of requests (each filter
 * and operator, both orders, small pages followed to their end) on the account-relations scenario through a read
 * store whose statements are recorded, and each recorded statement's query plan reads every table through an
 * index (SEARCH), never a full scan (SCAN): the path's account first, on the index made for the list.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountJavaListRoutes } from "../../src/api/routes/account-java-lists.ts";
import { accountRelationRoutes } from "../../src/api/routes/account-relations.ts";
import type { RouteDef } from "../../src/api/routes/route-table.ts";
import { type Db, openReader } from "../../src/store/db.ts";
import { createReadStore, type ReadStore } from "../../src/store/read-store.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService, type TestService, tempDir } from "../helpers/service.ts";

const SCENARIO = "account-relations";
const ledger = expectedLedger(SCENARIO);
const acct = (name: string) => ledger.accounts[name]!.id;
const token = (handle: string) => ledger.tokens[handle]!.id;
const evm = (name: string) => (ledger.accounts[name] as { evmAddress?: string }).evmAddress!;

type Recorded = { sql: string; args: unknown[] };

let service: TestService;
let reader: Db;
let store: ReadStore;
const recorded = new Map<string, Recorded>();
const cleanups: Array<() => unknown> = [];

/** The reader, with every statement run through it recorded (its SQL and the first arguments it ran with). */
function recording(db: Db): Db {
  const wrapStatement = (statement: object, sql: string): object => {
    const proxy: object = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (prop === "all" || prop === "get" || prop === "iterate" || prop === "run") {
            if (!recorded.has(sql)) recorded.set(sql, { sql, args });
          }
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === "prepare") {
        return (sql: string) => wrapStatement(target.prepare(sql), sql);
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const ROUTES: RouteDef[] = [...accountRelationRoutes(), ...accountJavaListRoutes()];

/** Answers `url` with the route whose template matches it (as the front would, without HTTP). */
function answer(url: string): { status: number; next: string | null } {
  const path = url.split("?", 1)[0]!;
  for (const route of ROUTES) {
    const names: string[] = [];
    const pattern = route.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (match === null) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    const request = { url, params };
    try {
      const result = route.answer(store, route.parse(request), request);
      return { status: result.status, next: result.next };
    } catch (error) {
      const status = (error as { status?: number; statusCode?: number }).status ?? 400;
      return { status, next: null };
    }
  }
  throw new Error(`no route for ${url}`);
}

/** Answers `url` and every next page after it. */
function pageThrough(url: string): number {
  let pages = 0;
  let next: string | null = url;
  while (next !== null && pages < 100) {
    const result = answer(next);
    expect(result.status, next).toBe(200);
    next = result.next;
    pages++;
  }
  return pages;
}

beforeAll(async () => {
  const stream = copyStream(fixtureStream(SCENARIO));
  cleanups.push(stream.remove);
  const dbDir = tempDir();
  cleanups.push(dbDir.remove);
  const db = join(dbDir.dir, "index.db");
  service = await startTestService({ recordsDir: stream.dir, db });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");
  reader = openReader(db);
  cleanups.push(() => reader.close());
  store = createReadStore(recording(reader));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const OPS = ["", "eq:", "gt:", "gte:", "lt:", "lte:"];

/**
 * How each table may be searched: the lists seek the path's account on the partial index of what they show
 * (not the primary key, which holds every version, spent allowance and settled airdrop too), NFTs by owner
 * (and token), token relationships by account, rewards by account, joined tokens by id.
 */
const SEARCHES: Record<string, RegExp> = {
  crypto_allowance: /^INDEX crypto_allowance_live \(owner=\?/,
  token_allowance: /^INDEX token_allowance_live \(owner=\?/,
  nft_allowance: /^INDEX nft_allowance_by_(owner \(owner|spender \(spender)=\?/,
  token_airdrop: /^INDEX token_airdrop_(outstanding \(sender|pending \(receiver)=\?/,
  n: /^INDEX nft_current_by_(account \(account_id=\?|owner \(token_id=\? AND account_id=\?)/,
  ta: /^INDEX token_account_current(_by_account \(account_id=\?| \(token_id=\? AND account_id=\?)/,
  staking_reward_transfer: /^PRIMARY KEY \(account_id=\?/,
  e: /^PRIMARY KEY \(id=\?\)/,
  t: /^PRIMARY KEY \(id=\?\)/,
  entity: /^(PRIMARY KEY \(id=\?\)|INDEX entity_current_\w+ \(\w+=\?\))/,
};

/** Requests for one endpoint: each filter with each operator, pairs of bounds, both orders, small pages. */
function requests(base: string, filters: Record<string, string[]>): string[] {
  const urls = [base, `${base}?order=asc`, `${base}?order=desc&limit=1`, `${base}?limit=1`];
  const entries = Object.entries(filters);
  for (const [name, values] of entries) {
    for (const value of values) {
      for (const op of OPS) {
        for (const order of ["asc", "desc"])
          urls.push(`${base}?${name}=${op}${value}&order=${order}&limit=1`);
      }
      urls.push(`${base}?${name}=gt:${value}&${name}=lt:${values.at(-1)}`);
      urls.push(`${base}?${name}=${value}&${name}=${values.at(-1)}`);
    }
  }
  // Every pair of filters, each as a lower bound (and an equality on the first).
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const [a, [av]] = entries[i]! as [string, string[]];
      const [b, [bv]] = entries[j]! as [string, string[]];
      for (const order of ["asc", "desc"]) {
        urls.push(`${base}?${a}=gte:${av}&${b}=gt:${bv}&order=${order}&limit=1`);
        urls.push(`${base}?${a}=${av}&${b}=lte:${bv}&order=${order}&limit=1`);
        urls.push(`${base}?${a}=gt:${av}&${b}=lt:${bv}&order=${order}`);
      }
    }
  }
  return urls;
}

describe("the account sub-resources' query plans", () => {
  it("answer a table of requests, paging each to its end, with index searches only", () => {
    const tokens = ["GOLD", "SILVER", "ART", "PIX"].map(token);
    const people = ["alice", "bob", "erin", "grace", "ivan"].map(acct);
    const table: Array<[string, Record<string, string[]>]> = [
      ["tokens", { "token.id": tokens }],
      ["nfts", { "token.id": tokens, serialnumber: ["1", "3"], "spender.id": people }],
      ["rewards", { timestamp: ["1717405000.000000000", "1717405232.975772000"] }],
      ["allowances/crypto", { "spender.id": people }],
      ["allowances/tokens", { "spender.id": people, "token.id": tokens }],
      ["allowances/nfts", { "account.id": people, "token.id": tokens, owner: ["true", "false"] }],
      ["airdrops/outstanding", { "receiver.id": people, "token.id": tokens, serialnumber: ["1", "3"] }],
      ["airdrops/pending", { "sender.id": people, "token.id": tokens, serialnumber: ["1", "3"] }],
    ];
    let pages = 0;
    for (const owner of [...people, `0x${evm("ivan")}`]) {
      for (const [resource, filters] of table) {
        for (const url of requests(`/api/v1/accounts/${owner}/${resource}`, filters)) {
          const result = answer(url);
          if (result.status === 200) pages += pageThrough(url);
        }
      }
    }
    expect(pages).toBeGreaterThan(1000);

    const statements = [...recorded.values()].filter(({ sql }) => !/^\s*PRAGMA/i.test(sql));
    expect(statements.length).toBeGreaterThan(30);
    const unbounded: string[] = [];
    for (const { sql, args } of statements) {
      const plan = reader
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...args)
        .map((row) => (row as { detail: string }).detail);
      const bad = plan.filter((line) => {
        // A table read without a search (SCAN t, SCAN t USING [COVERING] INDEX i) reads all of it; a scan of a
        // subquery reads what its own LIMIT let through; a scan of json_each reads the request's own bound list.
        if (/^SCAN /.test(line))
          return !/^SCAN (CONSTANT ROW|\(subquery-\d+\))$|^SCAN json_each VIRTUAL TABLE\b/.test(line);
        const search = /^SEARCH (\w+) USING (.*)$/.exec(line);
        if (search === null) return false;
        const expected = SEARCHES[search[1]!];
        return expected === undefined || !expected.test(search[2]!);
      });
      if (bad.length > 0) unbounded.push(`${sql.replace(/\s+/g, " ")}\n  ${plan.join("\n  ")}`);
    }
    expect(unbounded).toEqual([]);
  });
});

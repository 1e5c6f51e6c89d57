/**
 * The plan test: no statement any route can prepare scans a table that grows with the ledger.
 *
 * Driven by the fuzz table (`fuzz/endpoints.ts`), so every endpoint added there is covered: for each endpoint,
 * requests that enumerate the filter combinations its parameter grammar allows are answered in this thread by
 * the same route table and answer step the read workers run, on an index ingested from the endpoint's
 * scenario, while every SQL text prepared on the connection (and the values each ran with) is captured. Each
 * captured statement is then run under `EXPLAIN QUERY PLAN`; a `SCAN` of a growing table (a full pass over the
 * table or one of its indexes, whatever LIMIT follows) fails the test. SQLite's planner reads no statistics
 * here (nothing runs ANALYZE), so plans do not depend on how many rows the fixture has.
 *
 * Combinations: each query parameter gets the variants absent, a valid value (two), `gt:`, `lt:`, a `gte:`/`lte:`
 * range and a repeated plain value (an IN list), with valid values of its kind from the fuzz generators. A
 * variant the grammar rejects alone and next to every single other variant is dropped, and variants that
 * produce the same SQL texts in all those runs count once; the remaining variants are combined in full (or, for
 * an endpoint with very many, in every combination of up to four parameters).
 */
import { appendFileSync, cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobAnswerer } from "../../src/api/answer-job.ts";
import { apiRoutes } from "../../src/api/app.ts";
import { createRouteMatcher } from "../../src/api/route-match.ts";
import type { Db } from "../../src/store/db.ts";
import { openReader } from "../../src/store/db.ts";
import { createReadStore } from "../../src/store/read-store.ts";
import { type ExpectedLedger, expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService } from "../helpers/service.ts";
import { FUZZ_ENDPOINTS, type FuzzEndpoint, type FuzzScenario, type ValueKind } from "./fuzz/endpoints.ts";
import { valueArbitrary } from "./fuzz/requests.ts";

/** Tables that do not grow with the ledger (one row, or one per migration). */
const SMALL_TABLES = new Set(["ingest_cursor", "schema_migration", "hbar_start"]);
/** Above this many combinations an endpoint is enumerated in combinations of up to `SUBSET_SIZE` parameters. */
const MAX_COMBINATIONS = 40_000;
const SUBSET_SIZE = 4;

/** SQL texts prepared, each with the values it last ran with (undefined: prepared, never run). */
type Capture = Map<string, unknown[] | undefined>;

const cleanups: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Ingests a scenario (with its balance folder, if it has one) into an index file; returns its path. */
async function ingest(scenario: FuzzScenario): Promise<string> {
  const stream = copyStream(fixtureStream(scenario));
  cleanups.push(stream.remove);
  const balances = join(fixtureStream(scenario), "..", "balance0.0.3");
  let balancesDir: string | undefined;
  if (existsSync(balances)) {
    balancesDir = join(stream.dir, "..", "balance0.0.3");
    cpSync(balances, balancesDir, { recursive: true });
  }
  const dbPath = join(stream.dir, "..", "index.db");
  const service = await startTestService({
    recordsDir: stream.dir,
    db: dbPath,
    readWorkers: 1,
    ...(balancesDir === undefined ? {} : { balancesDir }),
  });
  await service.ingest.settled;
  const state = service.ingest.status().state;
  await service.stop();
  if (state !== "ready") throw new Error(`scenario ${scenario} did not ingest`);
  return dbPath;
}

/**
 * Makes `db.prepare` remember every SQL text in `capture`, with the values each statement last ran with, and
 * tell `seen` (if set) of every text prepared or run.
 */
function captureStatements(db: Db, capture: Capture, seen: { current: Set<string> | null }): void {
  const prepare = db.prepare.bind(db);
  const chaining = new Set(["pluck", "raw", "expand", "safeIntegers", "bind"]);
  const running = new Set(["all", "get", "iterate", "run"]);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!capture.has(sql)) capture.set(sql, undefined);
    seen.current?.add(sql);
    const proxy: object = new Proxy(statement, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== "function") return value;
        if (running.has(String(property)))
          return (...args: unknown[]) => {
            capture.set(sql, args);
            seen.current?.add(sql);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        if (chaining.has(String(property)))
          return (...args: unknown[]) => {
            (value as (...a: unknown[]) => unknown).apply(target, args);
            return proxy;
          };
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    return proxy;
  }) as Db["prepare"];
}

/**
 * Runs `url` through the route table and answer step, as the front and a read worker would: `parse`'s value
 * cloned as it is on its way to a worker (a value that cannot travel is recorded in `uncloneable`).
 */
function requester(db: Db, uncloneable: string[]) {
  const routes = apiRoutes();
  const match = createRouteMatcher(routes);
  const answer = createJobAnswerer(routes, createReadStore(db));
  return (url: string): boolean => {
    let query: unknown;
    let found: ReturnType<typeof match>;
    try {
      const question = url.indexOf("?");
      found = match(question === -1 ? url : url.slice(0, question));
      if (found === null) return false;
      query = found.route.parse({ url, params: found.params });
    } catch {
      return false;
    }
    try {
      query = structuredClone(query);
    } catch (error) {
      uncloneable.push(`${url}: ${(error as Error).message}`);
      return false;
    }
    const request = { url, params: found.params };
    return answer({ template: found.route.template, method: "GET", query, request }).ok;
  };
}

/** A few valid values of a kind (deterministic), from the fuzz generators. */
function validValues(kind: ValueKind, ledger: ExpectedLedger, count: number): string[] {
  const values = fc.sample(valueArbitrary(kind, ledger, true), { numRuns: 40, seed: 18 });
  return [...new Set(values)].slice(0, count);
}

/** Query parts (`name=value`, encoded) per variant of one parameter; the empty list is "absent". */
function variantsOf(name: string, kind: ValueKind, ledger: ExpectedLedger): string[][] {
  const [a = "", b = a] = validValues(kind, ledger, 2);
  const part = (value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  return [
    [],
    [part(a)],
    [part(b)],
    [part(`gt:${a}`)],
    [part(`lt:${a}`)],
    [part(`gte:${a}`), part(`lte:${b}`)],
    [part(a), part(b)],
  ];
}

/** Every combination of one variant per parameter (the first parameter varies slowest). */
function* product(lists: readonly (readonly string[][])[]): Generator<string[]> {
  if (lists.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = lists;
  for (const variant of first!) for (const tail of product(rest)) yield [...variant, ...tail];
}

function* subsets<T>(items: readonly T[], size: number, from = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = from; i < items.length; i++)
    for (const tail of subsets(items, size - 1, i + 1)) yield [items[i]!, ...tail];
}

/** Every URL of an endpoint's enumeration (see the module comment). */
function endpointUrls(
  endpoint: FuzzEndpoint,
  ledger: ExpectedLedger,
  run: (url: string) => { texts: Set<string>; answered: boolean },
): string[] {
  const paths = new Set<string>();
  for (let i = 0; i < 3; i++) {
    let path = endpoint.path;
    for (const [name, kind] of Object.entries(endpoint.pathParams)) {
      const values = validValues(kind, ledger, 3);
      path = path.replace(`{${name}}`, encodeURIComponent(values[i % values.length]!));
    }
    paths.add(path);
  }
  const path = [...paths][0]!;
  const url = (parts: readonly string[]) => (parts.length === 0 ? path : `${path}?${parts.join("&")}`);

  // Variants of each parameter, pruned: kept when some run (alone, or next to one variant of another
  // parameter) is answered, and counted once per distinct signature of SQL texts over those runs.
  const names = Object.keys(endpoint.query);
  const all = names.map((name) => variantsOf(name, endpoint.query[name]!, ledger));
  const signature = (texts: Set<string>, answered: boolean) => `${answered}|${[...texts].sort().join("\n")}`;
  const kept = names.map((_name, i) => {
    const signatures = new Map<string, string[]>();
    for (const variant of all[i]!) {
      const runs: string[] = [];
      let answeredOnce = false;
      const partners: string[][] = [[]];
      all.forEach((other, j) => {
        if (j !== i) for (const v of other) if (v.length > 0) partners.push(v);
      });
      for (const partner of partners) {
        const parts = [...variant, ...partner];
        const { texts, answered } = run(url(parts));
        answeredOnce ||= answered;
        runs.push(signature(texts, answered));
      }
      if (!answeredOnce) continue;
      const key = runs.join("\u0000");
      if (!signatures.has(key)) signatures.set(key, variant);
    }
    return [...signatures.values()];
  });

  const urls = [...paths];
  const total = kept.reduce((n, variants) => n * variants.length, 1);
  if (total <= MAX_COMBINATIONS) {
    for (const parts of product(kept)) urls.push(url(parts));
  } else {
    const indexes = names.map((_n, i) => i);
    for (let size = 1; size <= SUBSET_SIZE; size++)
      for (const subset of subsets(indexes, size))
        for (const parts of product(subset.map((i) => kept[i]!.filter((v) => v.length > 0))))
          urls.push(url(parts));
  }
  return urls;
}

/** Binds a statement that never ran with nulls: as many as it takes, or its named parameters. */
function explainUnbound(prepare: Db["prepare"], sql: string): unknown[] {
  const names = [...new Set([...sql.matchAll(/[@:$]([A-Za-z_]\w*)/g)].map((m) => m[1]!))];
  const statement = prepare(`EXPLAIN QUERY PLAN ${sql}`);
  if (names.length > 0) return statement.all(Object.fromEntries(names.map((n) => [n, null])));
  for (let count = 0; count <= 300; count++) {
    try {
      return statement.all(...new Array(count).fill(null));
    } catch (error) {
      if (!/parameter/i.test((error as Error).message)) throw error;
    }
  }
  throw new Error(`cannot bind ${sql}`);
}

/** Names in the FROM/JOIN clauses of a statement, each mapped to its table. */
function aliases(sql: string): Map<string, string> {
  const keywords = new Set([
    "where",
    "on",
    "join",
    "left",
    "inner",
    "cross",
    "order",
    "group",
    "limit",
    "using",
    "natural",
    "union",
    "as",
  ]);
  const map = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+"?(\w+)"?(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const table = m[1]!.toLowerCase();
    map.set(table, table);
    const alias = m[2]?.toLowerCase();
    if (alias !== undefined && !keywords.has(alias)) map.set(alias, table);
  }
  return map;
}

/** The plan lines of `sql` that scan a growing table. */
function fullScans(
  prepare: Db["prepare"],
  sql: string,
  args: unknown[] | undefined,
  growing: Set<string>,
  report: string[],
) {
  const plan = (
    args === undefined ? explainUnbound(prepare, sql) : prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args)
  ) as { detail: string }[];
  const names = aliases(sql);
  report.push(`${sql.replace(/\s+/g, " ").trim()}\n${plan.map((row) => `  ${row.detail}`).join("\n")}\n`);
  return plan
    .map((row) => row.detail)
    .filter((detail) => {
      // A full-text table searched with MATCH (FTS5 index string `M…`) is an index lookup, not a scan.
      if (/VIRTUAL TABLE INDEX \d+:M/.test(detail)) return false;
      const scanned = /^SCAN (\S+)/.exec(detail)?.[1]?.toLowerCase();
      if (scanned === undefined) return false;
      const table = names.get(scanned) ?? scanned;
      return growing.has(table);
    });
}

const scenarioNames = [...new Set(FUZZ_ENDPOINTS.map((endpoint) => endpoint.scenario))];

describe("query plans of every statement the routes prepare", () => {
  const indexes = new Map<FuzzScenario, string>();
  beforeAll(async () => {
    for (const scenario of scenarioNames) indexes.set(scenario, await ingest(scenario));
  }, 180_000);

  it.each(scenarioNames)(
    "%s: no statement scans a table that grows with the ledger",
    async (scenario) => {
      const db = openReader(indexes.get(scenario)!);
      cleanups.push(() => {
        db.close();
      });
      const prepare = db.prepare.bind(db);
      const capture: Capture = new Map();
      const seen: { current: Set<string> | null } = { current: null };
      captureStatements(db, capture, seen);
      const uncloneable: string[] = [];
      const ask = requester(db, uncloneable);
      const ledger = expectedLedger(scenario);
      // One URL for the pruning step: the texts it prepared or ran, and whether it was answered.
      const probe = (url: string) => {
        const texts = new Set<string>();
        seen.current = texts;
        const answered = ask(url);
        seen.current = null;
        return { texts, answered };
      };

      let requests = 0;
      for (const endpoint of FUZZ_ENDPOINTS.filter((e) => e.scenario === scenario)) {
        for (const url of endpointUrls(endpoint, ledger, probe)) {
          ask(url);
          requests++;
          // Minutes of work in this thread on a loaded machine: let vitest's own messages through now and then
          // (a reply kept waiting for 60 s fails the run with "Timeout calling onTaskUpdate").
          if (requests % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      const growing = new Set(
        (prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[])
          .map((name) => name.toLowerCase())
          .filter((name) => !SMALL_TABLES.has(name)),
      );
      const offenders: string[] = [];
      const report: string[] = [];
      // A bare parameter as LIMIT or OFFSET makes SQLite plan the statement again on every run (conditions.ts).
      const replanned = [...capture.keys()].filter((sql) => /\b(?:LIMIT|OFFSET)\s+[?:@$]/i.test(sql));
      expect(
        replanned.map((sql) => sql.replace(/\s+/g, " ").trim()),
        "statements re-planned on every run: write LIMIT +? instead of LIMIT ?",
      ).toEqual([]);
      for (const [sql, args] of capture) {
        const scans = fullScans(prepare, sql, args, growing, report);
        if (scans.length > 0) offenders.push(`${scans.join("; ")}\n    ${sql.replace(/\s+/g, " ").trim()}`);
      }
      // PLANS_OUT=<file> appends every statement with its plan, for reading.
      if (process.env.PLANS_OUT !== undefined) appendFileSync(process.env.PLANS_OUT, report.join("\n"));
      expect(uncloneable.slice(0, 5), "parse values that cannot reach a read worker").toEqual([]);
      expect(requests).toBeGreaterThan(0);
      expect(capture.size).toBeGreaterThan(5);
      expect(
        offenders,
        `${offenders.length} of ${capture.size} statements scan:\n${offenders.join("\n")}`,
      ).toEqual([]);
    },
    600_000,
  );
});

/**
 * One statement shape per filter, whatever the length of its list: a parameter repeated 2, 3 or 7 times (plain
 * values, an IN list, or `ne:` values, a NOT IN list) never runs two SQL texts that differ only in how many
 * placeholders (or repeated conditions) they were written with. A text per list length would
 * fill the statement cache with shapes that differ only in their number of placeholders and evict the hot ones
 * (issue 25).
 *
 * Driven by the fuzz table (`fuzz/endpoints.ts`) like the plan test: every endpoint of the scenarios below, every
 * query parameter, answered in this thread by the route table and answer step the read workers run, while every
 * SQL text prepared on the connection is captured.
 */
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
import { FUZZ_ENDPOINTS, type FuzzScenario, type ValueKind } from "./fuzz/endpoints.ts";
import { valueArbitrary } from "./fuzz/requests.ts";

/** Scenarios whose endpoints take list filters (ids, timestamps, tokens, topics of logs, hook ids and keys). */
const SCENARIOS: readonly FuzzScenario[] = ["transactions", "accounts", "hooks-and-registered-nodes"];
/** Parameters whose repetition is no list (the last or first value wins): their values, not lengths, change texts. */
const NOT_LISTS: ReadonlySet<ValueKind> = new Set(["limit", "order"]);
/** List lengths asked; each must prepare the texts the first does. */
const LENGTHS = [2, 3, 7];

const cleanups: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function ingest(scenario: FuzzScenario): Promise<string> {
  const stream = copyStream(fixtureStream(scenario));
  cleanups.push(stream.remove);
  const dbPath = join(stream.dir, "..", "index.db");
  const service = await startTestService({ recordsDir: stream.dir, db: dbPath, readWorkers: 1 });
  await service.ingest.settled;
  await service.stop();
  return dbPath;
}

/**
 * Answers a URL in this thread as a read worker would; returns the SQL texts its statements ran (a statement cache
 * prepares a text once, so what is prepared says less than what runs) and whether it was answered 200.
 */
function asker(db: Db) {
  const ran = new Set<string>();
  const prepare = db.prepare.bind(db);
  const running = new Set(["all", "get", "iterate", "run"]);
  const chaining = new Set(["pluck", "raw", "expand", "safeIntegers", "bind"]);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    const proxy: object = new Proxy(statement, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== "function") return value;
        const call = (args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
        if (running.has(String(property)))
          return (...args: unknown[]) => {
            ran.add(sql);
            return call(args);
          };
        if (chaining.has(String(property)))
          return (...args: unknown[]) => {
            call(args);
            return proxy;
          };
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    return proxy;
  }) as Db["prepare"];
  const routes = apiRoutes();
  const match = createRouteMatcher(routes);
  const answer = createJobAnswerer(routes, createReadStore(db));
  return (url: string): { texts: Set<string>; ok: boolean } => {
    ran.clear();
    const question = url.indexOf("?");
    const found = match(question === -1 ? url : url.slice(0, question));
    if (found === null) return { texts: new Set(), ok: false };
    const request = { url, params: found.params };
    let query: unknown;
    try {
      query = found.route.parse(request);
    } catch {
      return { texts: new Set(), ok: false };
    }
    const outcome = answer({ template: found.route.template, method: "GET", query, request });
    return { texts: new Set(ran), ok: outcome.ok && outcome.response.status === 200 };
  };
}

/**
 * A statement's text with every run of placeholders, and every run of one condition repeated, counted as one: two
 * texts of one shape differ only in how many values a list was written with.
 */
function shapeOf(sql: string): string {
  return sql
    .replace(/\?(?:\s*,\s*\?)+/g, "?…")
    .replace(
      /([\w.()"]+(?:, 0\))? (?:!=|=|<=|>=|<|>) \?)(?: AND [\w.()"]+(?:, 0\))? (?:!=|=|<=|>=|<|>) \?)+/g,
      "$1…",
    );
}

/** Up to `count` distinct well-formed values of a kind (deterministic). */
function distinctValues(kind: ValueKind, ledger: ExpectedLedger, count: number): string[] {
  const values = fc.sample(valueArbitrary(kind, ledger, true), { numRuns: 200, seed: 25 });
  return [...new Set(values)].slice(0, count);
}

describe("statement texts do not depend on the length of a list", () => {
  const indexes = new Map<FuzzScenario, string>();
  beforeAll(async () => {
    for (const scenario of SCENARIOS) indexes.set(scenario, await ingest(scenario));
  }, 180_000);

  it.each(SCENARIOS)("%s: lists of 2, 3 or 7 values run one text per shape", (scenario) => {
    const db = openReader(indexes.get(scenario)!);
    cleanups.push(() => {
      db.close();
    });
    const ask = asker(db);
    const ledger = expectedLedger(scenario);
    let listsAnswered = 0;
    /** Every text run, by its shape (`shapeOf`), with the URL that first ran it. */
    const byShape = new Map<string, Map<string, string>>();
    for (const endpoint of FUZZ_ENDPOINTS.filter((e) => e.scenario === scenario)) {
      let path = endpoint.path;
      for (const [name, kind] of Object.entries(endpoint.pathParams))
        path = path.replace(`{${name}}`, encodeURIComponent(distinctValues(kind, ledger, 1)[0]!));
      for (const [name, kind] of Object.entries(endpoint.query)) {
        if (NOT_LISTS.has(kind)) continue;
        const values = distinctValues(kind, ledger, Math.max(...LENGTHS));
        for (const prefix of ["", "ne:"]) {
          let answered = 0;
          for (const n of LENGTHS.filter((length) => length <= values.length)) {
            const query = values
              .slice(0, n)
              .map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(prefix + v)}`);
            const url = `${path}?${query.join("&")}`;
            const { texts, ok } = ask(url);
            if (!ok) continue;
            answered++;
            for (const text of texts) {
              const shape = shapeOf(text);
              const same = byShape.get(shape) ?? new Map<string, string>();
              if (!same.has(text)) same.set(text, url);
              byShape.set(shape, same);
            }
          }
          if (answered >= 2) listsAnswered++;
        }
      }
    }
    const differing = [...byShape.values()]
      .filter((texts) => texts.size > 1)
      .map((texts) =>
        [...texts].map(([text, url]) => `${url}\n    ${text.replace(/\s+/g, " ")}`).join("\n  "),
      );
    expect(listsAnswered, "lists of several lengths answered").toBeGreaterThan(0);
    expect(
      differing,
      `texts of one shape, written for lists of different lengths:\n${differing.join("\n")}`,
    ).toEqual([]);
  });
});

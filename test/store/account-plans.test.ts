/**
 * Every statement the accounts and balances routes prepare, driven by requests that use every parameter, is
 * explained on a populated index: none scans a table; lookups of one account are seeks; only the account lists
 * walk an index of current accounts in ID order (stopping at the page's limit), as upstream's do.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountRoutes } from "../../src/api/routes/accounts.ts";
import { balanceRoutes } from "../../src/api/routes/balances.ts";
import type { RouteDef } from "../../src/api/routes/route-table.ts";
import { createAccountQueries } from "../../src/store/accounts.ts";
import { openReader } from "../../src/store/db.ts";
import { createReadStore, type ReadStore } from "../../src/store/read-store.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService, type TestService, tempDir } from "../helpers/service.ts";

const SCENARIO = "accounts";
const ledger = expectedLedger(SCENARIO);
const id = (name: string) => ledger.accounts[name]!.id;
const t = (label: string) => ledger.steps.find((s) => s.label === label)!.consensusTimestamp;

let service: TestService;
let store: ReadStore;
const prepared = new Set<string>();
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  const stream = copyStream(fixtureStream(SCENARIO));
  cleanups.push(stream.remove);
  const dbDir = tempDir();
  cleanups.push(dbDir.remove);
  const db = join(dbDir.dir, "index.db");
  service = await startTestService({ recordsDir: stream.dir, db });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  const reader = openReader(db);
  cleanups.push(() => reader.close());
  const base = createReadStore(reader);
  // Record what the accounts queries prepare, when they are built and while they answer.
  const prepare = reader.prepare.bind(reader);
  reader.prepare = ((sql: string) => {
    prepared.add(sql);
    return prepare(sql);
  }) as typeof reader.prepare;
  store = { ...base, accounts: createAccountQueries(reader) };
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const key = ledger.accounts.alice!.key!.slice(4);
const REQUESTS: Array<[template: string, path: string, query: string]> = [
  ["/api/v1/accounts", "/api/v1/accounts", ""],
  ["/api/v1/accounts", "/api/v1/accounts", `?account.id=${id("bob")}&account.id=${id("carol")}&order=desc`],
  ["/api/v1/accounts", "/api/v1/accounts", `?account.id=gt:${id("bob")}&account.id=lte:${id("max")}&limit=2`],
  ["/api/v1/accounts", "/api/v1/accounts", `?account.publickey=${key}`],
  ["/api/v1/accounts", "/api/v1/accounts", `?account.publickey=ne:${key}&account.balance=gt:5`],
  ["/api/v1/accounts", "/api/v1/accounts", "?balance=false"],
  ["/api/v1/accounts/{idOrAliasOrEvmAddress}", `/api/v1/accounts/${id("alice")}`, ""],
  [
    "/api/v1/accounts/{idOrAliasOrEvmAddress}",
    `/api/v1/accounts/${ledger.accounts.carol!.key === null ? "" : "0x"}${"38caee1f3024bbb23b3844273ad70e4a6e9ecff3"}`,
    "",
  ],
  ["/api/v1/accounts/{idOrAliasOrEvmAddress}", "/api/v1/accounts/HIQQE3SQ", ""],
  [
    "/api/v1/accounts/{idOrAliasOrEvmAddress}",
    `/api/v1/accounts/${id("bob")}`,
    `?timestamp=${t("bob-gets-tokens")}`,
  ],
  [
    "/api/v1/accounts/{idOrAliasOrEvmAddress}",
    `/api/v1/accounts/${id("bob")}`,
    `?timestamp=gt:${t("create-bob")}&timestamp=lt:${t("last-transfer")}&timestamp=ne:${t("bob-dissociates")}`,
  ],
  [
    "/api/v1/accounts/{idOrAliasOrEvmAddress}",
    `/api/v1/accounts/${id("bob")}`,
    `?timestamp=gt:${t("alice-pays-bob")}&timestamp=lt:${t("alice-memo")}`,
  ],
  ["/api/v1/balances", "/api/v1/balances", ""],
  [
    "/api/v1/balances",
    "/api/v1/balances",
    `?account.id=${id("bob")}&account.balance=gte:1&account.publickey=${key}`,
  ],
  ["/api/v1/balances", "/api/v1/balances", "?account.id=38caee1f3024bbb23b3844273ad70e4a6e9ecff3"],
  ["/api/v1/balances", "/api/v1/balances", "?account.id=AABBCC22"],
  [
    "/api/v1/balances",
    "/api/v1/balances",
    `?timestamp=${t("bob-gets-tokens")}&account.id=lt:${id("erin")}&account.balance=gt:100`,
  ],
  [
    "/api/v1/balances",
    "/api/v1/balances",
    `?timestamp=lte:${t("dave-key")}&timestamp=ne:${t("dave-key")}&account.publickey=${key}`,
  ],
];

/** Tables that grow with the ledger. */
const GROWING = ["entity", "hbar_balance", "token_account", "token_balance", "hbar_start"];
/** The transactions group's own statements (the embedded list) are that group's to explain. */
const THEIRS = /account_transaction|token_transfer|nft_transfer|FROM "transaction" t/;

describe("plans of the accounts and balances statements", () => {
  it("answers every request through the routes, preparing its statements", () => {
    const routes = new Map<string, RouteDef>(
      [...accountRoutes(), ...balanceRoutes()].map((r) => [r.template, r]),
    );
    for (const [template, path, query] of REQUESTS) {
      const route = routes.get(template)!;
      const segment = path.split("/")[4];
      const params: Record<string, string> = segment === undefined ? {} : { idOrAliasOrEvmAddress: segment };
      const request = { url: path + query, params };
      try {
        route.answer(store, route.parse(request), request);
      } catch (error) {
        // 404s are answers too (an alias naming nobody); anything else is a failure.
        expect((error as { status?: number }).status, `${path}${query}: ${error}`).toBe(404);
      }
    }
    expect(prepared.size).toBeGreaterThan(10);
  });

  it("never scans a table; walks an index in ID order only for the account lists", () => {
    for (const sql of [...prepared]) {
      if (sql.startsWith("EXPLAIN") || THEIRS.test(sql) || !GROWING.some((table) => sql.includes(table)))
        continue;
      const named = [...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!);
      const params =
        named.length > 0
          ? [Object.fromEntries(named.map((name) => [name, 0]))]
          : new Array((sql.match(/\?/g) ?? []).length).fill(0);
      const plan = (
        store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>
      ).map((row) => row.detail);
      // A scan of json_each reads the request's own bound list (an `IN` of given IDs), not a table.
      const scans = plan.filter(
        (line) => line.startsWith("SCAN ") && !line.startsWith("SCAN json_each VIRTUAL TABLE"),
      );
      if (process.env.SHOW_PLANS)
        console.log(`${sql.replace(/\s+/g, " ").slice(0, 160)}\n  ${plan.join("\n  ")}`);
      for (const line of scans) {
        // A scan must follow an index of current accounts (ID order, bounded by LIMIT) — never a whole table.
        expect(line, `${sql}\n${plan.join("\n")}`).toMatch(
          /^SCAN (e|entity) USING INDEX (entity_current_account|entity_current_balance_holder|entity_current)\b|^SCAN \(subquery|^SCAN e USING INDEX sqlite_autoindex|^SCAN e$/,
        );
        expect(line, `${sql}\n${plan.join("\n")}`).not.toMatch(/^SCAN e$/);
        expect(sql, "only the lists walk").toMatch(/ORDER BY (e\.id|account_id)/);
      }
    }
  });
});

/**
 * Every statement the transaction queries prepare, for every filter combination the list accepts, is an index
 * seek or a bounded range: EXPLAIN QUERY PLAN on an index populated by a real ingest (a mainnet-like stream of
 * consensus messages and transfers, through the one-shot catch-up that builds the read indexes at the end)
 * shows no scan of a table that grows with the ledger. The same combinations must still answer exactly what
 * a plain filter over the whole list says.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BULK_FIRST_ENTITY, generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { createStatementCache } from "../../src/store/conditions.ts";
import { type Db, openReader } from "../../src/store/db.ts";
import { createReadStore, type ReadStore } from "../../src/store/read-store.ts";
import {
  createTransactionQueries,
  type TransactionListQuery,
  type TransactionRow,
} from "../../src/store/transactions.ts";
import { runCli } from "../helpers/cli.ts";
import { tempDir } from "../helpers/service.ts";

const GROWING = ["transaction", "account_transaction", "token_transfer", "nft_transfer"];

let reader: Db;
let store: ReadStore;
let remove: () => void;
const prepared = new Set<string>();
let all: TransactionRow[] = [];

beforeAll(async () => {
  const temp = tempDir();
  remove = temp.remove;
  const records = join(temp.dir, "record0.0.3");
  generateBulkStream({
    dir: records,
    tokens: 8,
    transactions: 4000,
    transactionsPerFile: 250,
    signatures: false,
    signingKey: null,
    mix: "mainnet",
  });
  const dbFile = join(temp.dir, "index.db");
  const result = runCli([
    "ingest",
    "--records",
    records,
    "--db",
    dbFile,
    "--no-wait-signatures",
    "--log-level",
    "warn",
  ]);
  expect(result.status, result.stderr).toBe(0);
  reader = openReader(dbFile);
  // Every statement the store prepares, remembered for EXPLAIN.
  const prepare = reader.prepare.bind(reader);
  reader.prepare = ((sql: string) => {
    prepared.add(sql);
    return prepare(sql);
  }) as typeof reader.prepare;
  store = createReadStore(reader, 4096);
  all = store.transactions.listTransactions(query({ limit: 100_000, order: "asc" }));
}, 180_000);

afterAll(() => {
  reader?.close();
  remove?.();
});

function query(part: Partial<TransactionListQuery>): TransactionListQuery {
  return {
    accountIds: [],
    timestamps: [],
    types: [],
    result: null,
    creditDebit: null,
    order: "desc",
    limit: 25,
    ...part,
  };
}

/** The plan of a statement, its parameters all null (the plan does not depend on their values). */
function plan(db: Db, sql: string): string[] {
  const named = [...sql.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const parameters =
    named.length > 0
      ? [Object.fromEntries(named.map((name) => [name, null]))]
      : (sql.match(/\?/g) ?? []).map(() => null);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map(
    (r) => r.detail,
  );
}

describe("transaction statements on a populated index", () => {
  it("holds a mainnet-like mix", () => {
    expect(all.length).toBeGreaterThan(3900);
    expect(all.filter((row) => row.type === 27).length).toBeGreaterThan(2000);
  });

  it("seek or range for every filter combination, and the answers a plain filter gives", () => {
    const first = all[0]!.consensusNs;
    const middle = all[Math.floor(all.length / 2)]!.consensusNs;
    const payer = all[all.length - 1]!.payerId;
    const other = all[100]!.payerId;
    const accounts: TransactionListQuery["accountIds"][] = [
      [],
      [{ op: "eq", value: payer }],
      [
        { op: "eq", value: payer },
        { op: "eq", value: other },
      ],
      [{ op: "eq", value: 98n }],
      [
        { op: "gte", value: payer - 5n },
        { op: "lte", value: payer + 5n },
      ],
      [
        { op: "gt", value: 2n },
        { op: "ne", value: 98n },
      ],
      [{ op: "lt", value: 50n }],
    ];
    const timestamps: TransactionListQuery["timestamps"][] = [
      [],
      [{ op: "eq", value: middle }],
      [
        { op: "gte", value: first },
        { op: "lt", value: middle },
      ],
      [
        { op: "ne", value: middle },
        { op: "gt", value: first },
      ],
    ];
    const types = [[], [27], [14, 11], [29]];
    const results = [null, "success", "fail"] as const;
    const creditDebits = [null, "credit", "debit"] as const;
    let checked = 0;
    for (const accountIds of accounts)
      for (const ts of timestamps)
        for (const type of types)
          for (const result of results)
            for (const creditDebit of creditDebits)
              for (const order of ["asc", "desc"] as const) {
                const q = query({
                  accountIds,
                  timestamps: ts,
                  types: type,
                  result,
                  creditDebit,
                  order,
                  limit: 7,
                });
                const got = store.transactions.listTransactionTimestamps(q);
                if (checked++ % 7 === 0)
                  expect(
                    got,
                    JSON.stringify(q, (_, v) => (typeof v === "bigint" ? `${v}` : v)),
                  ).toEqual(expected(q));
              }
    expect(checked).toBe(2016);
    store.transactions.getTransactionsById(payer, all[all.length - 1]!.validStartNs, {});
    store.transactions.getTransactionsByHash(all[0]!.hash, {});
    const transactionStatements = [...prepared].filter((sql) => GROWING.some((table) => sql.includes(table)));
    expect(transactionStatements.length).toBeGreaterThan(10);
    for (const sql of transactionStatements) {
      const details = plan(reader, sql);
      for (const detail of details) {
        const scanned = /^SCAN (\S+)/.exec(detail)?.[1];
        expect(
          scanned === undefined || !GROWING.includes(scanned.replace(/"/g, "")),
          `${sql}\n${details.join("\n")}`,
        ).toBe(true);
      }
    }
  });
});

describe("a wide account range", () => {
  it("reads a bounded number of candidates per page, and its pages resumed in turn list every match", () => {
    // Small bounds, so that a range of a few accounts takes the candidate walk and runs out of budget.
    const bounded = createTransactionQueries(reader, createStatementCache(reader, 64), {
      accounts: 2,
      candidates: 40,
    });
    // Three of the stream's 40 accounts: more than the walk's two, and in about one candidate in ten.
    for (const order of ["desc", "asc"] as const) {
      const accountIds = [
        { op: "gte" as const, value: BigInt(BULK_FIRST_ENTITY) },
        { op: "lte" as const, value: BigInt(BULK_FIRST_ENTITY + 2) },
      ];
      const whole = expected(query({ accountIds, order, limit: 100_000 }));
      expect(whole.length).toBeGreaterThan(14);
      const listed: bigint[] = [];
      let resumed = 0;
      let bound: bigint | null = null;
      for (let pages = 0; pages < 10_000; pages++) {
        const timestamps =
          bound === null ? [] : [{ op: order === "desc" ? "lt" : "gt", value: bound } as const];
        const page = bounded.listTransactionPage(query({ accountIds, timestamps, order, limit: 7 }));
        listed.push(...page.rows.map((row) => row.consensusNs));
        if (page.resumeNs !== null) {
          // Ended early: fewer than a page, every match up to the resume point on it.
          expect(page.rows.length).toBeLessThan(7);
          resumed++;
          bound = page.resumeNs;
        } else if (page.rows.length === 7) bound = page.rows.at(-1)!.consensusNs;
        else break;
      }
      expect(resumed).toBeGreaterThan(0);
      expect(listed).toEqual(whole);
    }
  });
});

/** What a filter over the whole list says a query answers (upstream's semantics, restated plainly). */
function expected(q: TransactionListQuery): bigint[] {
  const eq = q.timestamps.filter((c) => c.op === "eq").map((c) => c.value);
  if (new Set(eq).size > 1) return [];
  const creditDebit = (amount: bigint) =>
    q.creditDebit === null || (q.creditDebit === "credit" ? amount > 0n : amount < 0n);
  const accountOk = (id: bigint) =>
    q.accountIds.every((c) => c.op === "eq" || compare(id, c.op, c.value as bigint)) &&
    (q.accountIds.every((c) => c.op !== "eq") || q.accountIds.some((c) => c.op === "eq" && c.value === id));
  const rows = all.filter((row) => {
    if (!q.timestamps.every((c) => compare(row.consensusNs, c.op, c.value))) return false;
    if (q.types.length > 0 && !q.types.includes(row.type)) return false;
    const failed = ![22, 104, 220].includes(row.result);
    if (q.result !== null && failed !== (q.result === "fail")) return false;
    const amounts = [...row.transfers, ...row.tokenTransfers];
    if (q.accountIds.length === 0)
      return q.creditDebit === null || amounts.some((t) => creditDebit(t.amount));
    if (amounts.some((t) => accountOk(t.accountId) && creditDebit(t.amount))) return true;
    return (
      q.creditDebit === null &&
      accountOk(row.payerId) &&
      (row.nonce === 0 || row.parentNs !== null || row.type === 11 || row.type === 15)
    );
  });
  const times = rows.map((row) => row.consensusNs);
  if (q.order === "desc") times.reverse();
  return times.slice(0, q.limit);
}

function compare(value: bigint, op: string, bound: bigint): boolean {
  switch (op) {
    case "eq":
      return value === bound;
    case "ne":
      return value !== bound;
    case "lt":
      return value < bound;
    case "lte":
      return value <= bound;
    case "gt":
      return value > bound;
    default:
      return value >= bound;
  }
}

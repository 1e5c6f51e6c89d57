/**
 * The topics store on an index the real service built from the `topics` scenario: every statement its queries
 * prepare is an index seek or a bounded range (EXPLAIN QUERY PLAN), the catch-up may drop and rebuild the message
 * indexes without changing the schema, and migration 0031 dates the fee schedules of topics indexed before it.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropReadIndexes, restoreReadIndexes } from "../../src/store/catch-up-indexes.ts";
import type { Db } from "../../src/store/db.ts";
import { MIGRATIONS, migrate } from "../../src/store/migrations.ts";
import { createReadStore } from "../../src/store/read-store.ts";
import { expectedLedger, fixtureStream, stepTime } from "../helpers/fixtures.ts";
import { copyStream, startTestService, tempDir } from "../helpers/service.ts";

const ledger = expectedLedger("topics");
const nanos = (timestamp: string) => {
  const [seconds, fraction] = timestamp.split(".") as [string, string];
  return BigInt(seconds) * 1_000_000_000n + BigInt(fraction);
};

let dbFile = "";
const cleanups: Array<() => unknown> = [];
beforeAll(async () => {
  const stream = copyStream(fixtureStream("topics"));
  cleanups.push(stream.remove);
  dbFile = join(stream.dir, "..", "index.db");
  const service = await startTestService({ recordsDir: stream.dir, db: dbFile });
  try {
    await service.ingest.settled;
    expect(service.ingest.status().state).toBe("ready");
  } finally {
    await service.stop();
  }
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A read connection whose `prepare` remembers every SQL text. */
function recordingReader(): { db: Db; sql: Set<string> } {
  const db = new Database(dbFile, { readonly: true });
  db.defaultSafeIntegers(true);
  const sql = new Set<string>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((text: string) => {
    sql.add(text);
    return prepare(text);
  }) as typeof db.prepare;
  return { db, sql };
}

describe("the topics store", () => {
  it("prepares only index seeks and bounded ranges", () => {
    const { db, sql } = recordingReader();
    const store = createReadStore(db);
    const at = nanos(stepTime(ledger, "story"));
    const variants = [
      { timestamps: [], sequenceNumbers: [] },
      {
        timestamps: [{ op: "gt" as const, value: at }],
        sequenceNumbers: [{ op: "lte" as const, value: 20n }],
      },
      {
        timestamps: [{ op: "ne" as const, value: at }],
        sequenceNumbers: [
          { op: "ne" as const, value: 3n },
          { op: "gte" as const, value: 2n },
        ],
      },
    ];
    for (const order of ["asc", "desc"] as const) {
      for (const filters of variants) {
        expect(
          store.topics.listMessages({ topicId: 1005n, ...filters, order, limit: 25 }).length,
        ).toBeGreaterThan(0);
      }
    }
    expect(store.topics.getMessageBySequence(1005n, 13n)?.chunkNum).toBe(2n);
    expect(store.topics.getMessageAt(at)?.sequenceNumber).toBe(7n);
    expect(store.topics.getTopic(1007n)?.customFeesNs).toBe(nanos(stepTime(ledger, "fees-new-schedule")));
    const topicSql = [...sql].filter((text) => /\bFROM (topic_message|topic)\b/.test(text));
    expect(topicSql.length).toBeGreaterThanOrEqual(8);
    for (const text of topicSql) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params(text)) as { detail: string }[])
        .map((row) => row.detail)
        .join("; ");
      expect(plan, text).not.toMatch(/SCAN (topic_message|topic)\b/);
      expect(plan, text).toMatch(/SEARCH (topic_message|topic)/);
    }
    db.close();
  });

  it("survives the catch-up dropping and rebuilding the message indexes", () => {
    const db = new Database(dbFile);
    const schema = () =>
      db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all() as unknown[];
    const before = schema();
    expect(JSON.stringify(before)).toContain("topic_message_by_topic");
    dropReadIndexes(db);
    expect(JSON.stringify(schema())).not.toContain("topic_message_by_sequence");
    restoreReadIndexes(db);
    expect(schema()).toEqual(before);
    db.close();
  });
});

/** Placeholder values for a statement's parameters (EXPLAIN needs them bound). */
function params(text: string): unknown[] {
  return Array.from(text.matchAll(/\?/g), () => 1n);
}

describe("migration 0031-topic-custom-fees-time", () => {
  it("dates each version's fee schedule by its last change, for topics indexed before the column", () => {
    const temp = tempDir();
    const db = new Database(join(temp.dir, "old.db"));
    try {
      db.defaultSafeIntegers(true);
      db.exec("CREATE TABLE schema_migration (key TEXT PRIMARY KEY, applied_ns INTEGER NOT NULL)");
      for (const [key, text] of MIGRATIONS.filter(([key]) => key < "0031")) {
        db.exec(text);
        db.prepare("INSERT INTO schema_migration VALUES (?, 0)").run(key);
      }
      // Versions of one topic as 0012 wrote them: created with fees, a memo change, new fees, the same again.
      const version = db.prepare(
        `INSERT INTO topic (id, valid_from, valid_to, created_ns, deleted, memo, custom_fees)
         VALUES (7, ?, ?, 10, 0, ?, ?)`,
      );
      version.run(10n, 20n, "a", "[1]");
      version.run(20n, 30n, "b", "[1]");
      version.run(30n, 40n, "b", "[2]");
      version.run(40n, null, "c", "[2]");
      migrate(db);
      expect(
        db.prepare("SELECT valid_from, custom_fees_ns FROM topic ORDER BY valid_from").raw(true).all(),
      ).toEqual([
        [10n, 10n],
        [20n, 10n],
        [30n, 30n],
        [40n, 30n],
      ]);
    } finally {
      db.close();
      temp.remove();
    }
  });
});

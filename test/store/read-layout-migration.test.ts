/**
 * Migration 0130 replaces the account transaction lists of 0020 with account_transaction. An index that still
 * holds lists in the old layout is derived data that the migration cannot carry over in SQL: opening it is
 * refused with one line that tells the operator to re-ingest, rather than listing no transaction for anyone.
 * (The old layout is recreated here by hand: no build of this code writes it any more.)
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openWriter } from "../../src/store/db.ts";
import { tempDir } from "../helpers/service.ts";

const temp = tempDir();
afterAll(() => temp.remove());

describe("migration 0130-account-transaction", () => {
  it("creates account_transaction clustered on (account, time) on a fresh index", () => {
    const db = openWriter(join(temp.dir, "fresh.db"), { durable: false });
    const sql = db
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'account_transaction'")
      .pluck()
      .get() as string;
    db.close();
    expect(sql).toMatch(/PRIMARY KEY \(account_id, consensus_ns\)\s*\) WITHOUT ROWID/);
  });

  it("refuses an index whose account lists are in the old layout, with one line saying to re-ingest", () => {
    const file = join(temp.dir, "old.db");
    const db = openWriter(file, { durable: false });
    db.exec(`
      DELETE FROM schema_migration WHERE key = '0130-account-transaction';
      DROP TABLE account_transaction;
      CREATE TABLE transaction_account (account_id INTEGER NOT NULL, kind INTEGER NOT NULL,
        first_ns INTEGER NOT NULL, times BLOB);
      INSERT INTO transaction_account VALUES (98, 112, 1751414409436613767, NULL);
    `);
    db.close();
    let message = "";
    try {
      openWriter(file, { durable: false }).close();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("ingest the streams again");
    expect(message).not.toContain("\n");
  });

  it("migrates an index whose old account lists are empty", () => {
    const file = join(temp.dir, "empty-old.db");
    const db = openWriter(file, { durable: false });
    db.exec(`
      DELETE FROM schema_migration WHERE key = '0130-account-transaction';
      DROP TABLE account_transaction;
      CREATE TABLE transaction_account (account_id INTEGER NOT NULL, kind INTEGER NOT NULL,
        first_ns INTEGER NOT NULL, times BLOB);
    `);
    db.close();
    const reopened = openWriter(file, { durable: false });
    const tables = reopened
      .prepare("SELECT name FROM sqlite_master WHERE name IN ('account_transaction', 'transaction_account')")
      .pluck()
      .all();
    reopened.close();
    expect(tables).toEqual(["account_transaction"]);
  });
});

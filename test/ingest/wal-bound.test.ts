/**
 * The write-ahead log stays bounded while files are applied under reads that never stop: past the limit the
 * writer checkpoints and starts the log over (wal-guard.ts). Short soak: a few thousand transactions applied one
 * small commit at a time while four loops read the API, the WAL's size sampled throughout.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { startTestService, type TestService, tempDir } from "../helpers/service.ts";

const LIMIT = 256 * 1024;

describe("the write-ahead log under constant reads", () => {
  let temp: { dir: string; remove: () => void };
  let records: string;
  beforeAll(() => {
    temp = tempDir();
    records = join(temp.dir, "record0.0.3");
    generateBulkStream({
      dir: records,
      tokens: 10,
      transactions: 4000,
      transactionsPerFile: 100,
      signatures: false,
    });
  }, 120_000);
  afterAll(() => temp?.remove());

  it("stays within its limit (plus one commit) while ingesting", async () => {
    const dbPath = join(temp.dir, "index.db");
    let service: TestService | undefined;
    try {
      service = await startTestService({
        recordsDir: records,
        db: dbPath,
        waitSignatures: false,
        commitTransactions: 100,
        walLimitBytes: LIMIT,
      });
      const running = service;
      let done = false;
      let largest = 0;
      let samples = 0;
      const sample = setInterval(() => {
        try {
          largest = Math.max(largest, statSync(`${dbPath}-wal`).size);
          samples += 1;
        } catch {}
      }, 5);
      const reader = async () => {
        while (!done) await running.get("/api/v1/transactions?limit=25");
      };
      const readers = [reader(), reader(), reader(), reader()];
      await running.ingest.settled;
      done = true;
      await Promise.all(readers);
      clearInterval(sample);
      largest = Math.max(largest, statSync(`${dbPath}-wal`).size);
      expect(running.ingest.status().state).toBe("ready");
      expect(samples).toBeGreaterThan(0);
      // One commit of 100 transactions writes around 1 MiB of pages at most; main let the log grow with the whole
      // catch-up (autocheckpoint at 10,000 pages, and no restart while readers hold it).
      expect(largest).toBeLessThan(LIMIT + 3 * 1024 * 1024);
    } finally {
      await service?.stop();
    }
  }, 120_000);
});

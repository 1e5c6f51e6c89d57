import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { startService } from "../../src/cli/serve.ts";
import type { Config } from "../../src/config.ts";
import { tempDir } from "../helpers/service.ts";

describe("the catch-up progress line", () => {
  let temp: { dir: string; remove: () => void };
  let records: string;
  beforeAll(() => {
    temp = tempDir();
    records = join(temp.dir, "record0.0.3");
    generateBulkStream({
      dir: records,
      tokens: 20,
      transactions: 20_000,
      transactionsPerFile: 5_000,
      signatures: false,
      signingKey: null,
    });
  }, 120_000);
  afterAll(() => temp?.remove());

  it("is logged while catching up, with the pace, the files left and the time left", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const config: Config = {
      recordsDir: records,
      db: ":memory:",
      port: 0,
      host: "127.0.0.1",
      logLevel: "silent",
      waitSignatures: false,
      verifySignatures: null,
      pollMs: 50,
      listCacheMs: 1000,
    };
    // A short interval: four files of 5,000 transactions take far longer than 50 ms to apply.
    const service = await startService(config, log, { progressLogMs: 50 });
    try {
      expect(await service.ingest.settled).toEqual({ files: 4, transactions: 20_000 });
    } finally {
      await service.stop();
    }
    const progress = lines.filter((line) => line.msg === "catching up");
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (const line of progress) {
      expect(line).toMatchObject({
        filesPerSecond: expect.any(Number),
        transactionsPerSecond: expect.any(Number),
        filesLeft: expect.any(Number),
      });
      expect(line.filesLeft as number).toBeLessThanOrEqual(4);
      expect(line.etaSeconds === null || typeof line.etaSeconds === "number").toBe(true);
    }
  });
});

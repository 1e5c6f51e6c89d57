/**
 * One writer per index: a second `mirrorlite serve` or `ingest` on an index another process holds exits 1 with
 * one line naming the holder, and the holder keeps serving and ingesting. The lock is the operating system's
 * (released when the holder exits, however it exits).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startCli } from "../helpers/cli.ts";
import { copyScenarioBlocks, expectedLedger } from "../helpers/fixtures.ts";
import { tempDir } from "../helpers/service.ts";

const SCENARIO = "tokens";
const ledger = expectedLedger(SCENARIO);
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function readiness(port: number): Promise<{ status: string; lastBlock: number | null }> {
  return (await (await fetch(`http://127.0.0.1:${port}/health/readiness`)).json()) as {
    status: string;
    lastBlock: number | null;
  };
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("two processes on one index", () => {
  it("the second exits 1 naming the holder; the first keeps serving and ingesting; the lock goes with it", async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const records = join(temp.dir, "record0.0.3");
    mkdirSync(records);
    copyScenarioBlocks(SCENARIO, ledger, records, 0, 10);
    const db = join(temp.dir, "index.db");
    const first = startCli(["serve", "--records", records, "--db", db, "--port", "0", "--poll-ms", "50"]);
    cleanups.push(() => first.child.kill("SIGKILL"));
    const port = await first.port();
    await waitUntil(async () => (await readiness(port)).status === "ready", "the first to catch up");

    const second = startCli(["serve", "--records", records, "--db", db, "--port", "0"]);
    cleanups.push(() => second.child.kill("SIGKILL"));
    // It exits on its own (a second that kept running would fail the test at its timeout).
    expect(await second.exited).toEqual({ code: 1, signal: null });
    const lines = second.stderr().trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^mirrorlite: the index ${db} is in use by mirrorlite serve \\(pid ${first.child.pid}, since .+\\)`,
      ),
    );

    const ingest = runCli(["ingest", "--records", records, "--db", db, "--log-level", "silent"]);
    expect(ingest.status).toBe(1);
    expect(ingest.stderr).toMatch(
      new RegExp(`^mirrorlite: the index ${db} is in use by mirrorlite serve \\(pid ${first.child.pid}`),
    );
    expect(ingest.stderr.trimEnd().split("\n")).toHaveLength(1);

    // The holder goes on: it applies the node's next files and answers.
    copyScenarioBlocks(SCENARIO, ledger, records, 10, 12);
    const last = Number(ledger.blocks[11]!.number);
    await waitUntil(async () => (await readiness(port)).lastBlock === last, "the first to apply new files");
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/blocks?limit=1`)).status).toBe(200);

    // Gone (even killed), its lock is gone: the next process takes the index.
    first.child.kill("SIGKILL");
    await first.exited;
    const after = runCli(["ingest", "--records", records, "--db", db, "--log-level", "silent"]);
    expect(after.stderr).toBe("");
    expect(after.status).toBe(0);
  }, 90_000);
});

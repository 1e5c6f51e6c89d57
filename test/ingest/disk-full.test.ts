/**
 * The index on a file system that fills up while files are applied: a real tmpfs, mounted for the process alone
 * in a mount namespace of its own (`unshare`), so SQLite's commit fails with SQLITE_FULL as on a full disk.
 * Skipped where user and mount namespaces are not available.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { startCli } from "../helpers/cli.ts";
import { tempDir } from "../helpers/service.ts";

const namespaces = spawnSync("unshare", ["-Urm", "true"]).status === 0;

/**
 * Runs a command with a tmpfs of `size` mounted at `dir` that only it (and its children) can see, most of it
 * taken by a filler file; once `trigger` (a path outside the tmpfs) exists, the filler is removed: space freed.
 */
function onSmallTmpfs(dir: string, size: string, fillerKib: number, trigger: string): string[] {
  const script = [
    "set -e",
    `mount -t tmpfs -o size=${size} tmpfs "$0"`,
    `dd if=/dev/zero of="$0/filler" bs=1024 count=${fillerKib} 2>/dev/null`,
    // Waits at most a minute for the test to say so, then frees the space.
    `(i=0; while [ ! -e "${trigger}" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; rm -f "$0/filler") &`,
    `exec "$@"`,
  ].join("\n");
  return ["unshare", "-Urm", "sh", "-c", script, dir];
}

type Readiness = { status: string; reason: string | null; balances: { start: unknown } };

describe.skipIf(!namespaces)("an index whose file system is full", () => {
  let temp: { dir: string; remove: () => void };
  let records: string;
  beforeAll(() => {
    temp = tempDir();
    records = join(temp.dir, "record0.0.3");
    // About 1.5 MB of index: more than the file system below holds once the schema is there.
    generateBulkStream({
      dir: records,
      tokens: 20,
      transactions: 5000,
      transactionsPerFile: 1000,
      signatures: false,
    });
  }, 120_000);
  afterAll(() => temp?.remove());

  it("retries with backoff, says why in readiness and one log line, keeps serving, and heals once space is freed", async () => {
    const mount = join(temp.dir, "small");
    mkdirSync(mount);
    const trigger = join(temp.dir, "free-space");
    const cli = startCli(
      ["serve", "--records", records, "--db", join(mount, "index.db"), "--port", "0", "--poll-ms", "50"],
      { prefix: onSmallTmpfs(mount, "16m", 14_900, trigger) },
    );
    try {
      const base = `http://127.0.0.1:${await cli.port()}`;
      let readiness: Readiness | undefined;
      let status = 0;
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const response = await fetch(`${base}/health/readiness`);
        status = response.status;
        readiness = (await response.json()) as Readiness;
        if (readiness.status !== "catching-up") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(503);
      expect(readiness?.status).toBe("retrying");
      expect(readiness?.reason).toContain("database or disk is full");
      // The API still answers from what is indexed (nothing here).
      expect((await fetch(`${base}/api/v1/blocks`)).status).toBe(200);
      // The genesis start of the hbar balances was in the group that never committed.
      expect(readiness?.balances.start).toBeNull();
      // Retries (the first after a second) fail the same way: still one error line.
      await cli.waitForLog((line) => line.msg === "trying again");
      const errors = cli.logs.filter((line) => (line.level as number) >= 50);
      expect(errors, JSON.stringify(errors)).toHaveLength(1);
      expect(errors[0]?.reason).toContain("database or disk is full");
      // Space is freed: a later retry applies the files, readiness turns ready (main stayed stopped).
      writeFileSync(trigger, "");
      await cli.waitForLog((line) => line.msg === "ingestion resumed");
      // The log line comes from the ingest worker; readiness follows once the main thread hears of the commit and
      // the rest of the folder is applied: wait for the state to move on, however slow the machine.
      let healed = "";
      for (let i = 0; i < 400 && healed !== "ready"; i++) {
        healed = ((await (await fetch(`${base}/health/readiness`)).json()) as Readiness).status;
        if (healed !== "ready") await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(healed).toBe("ready");
      cli.child.kill("SIGTERM");
      expect(await cli.exited).toEqual({ code: 0, signal: null });
    } finally {
      cli.child.kill("SIGKILL");
    }
  }, 60_000);
});

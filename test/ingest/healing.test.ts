/**
 * Following a folder, ingestion heals: a transient failure (here the record folder going away, as a mount does)
 * is tried again with backoff, and a refused (corrupt) file is looked at again once it is replaced, without a
 * restart. The worker runs in this thread (runIngestWorker), so every message it posts is seen in order.
 */
import { copyFileSync, readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { retryDelayMs } from "../../src/ingest/healing.ts";
import { runIngestWorker } from "../../src/ingest/ingest-worker.ts";
import type { IngestWorkerData, IngestWorkerMessage } from "../../src/ingest/messages.ts";
import { MAX_DECOMPRESSED_BYTES } from "../../src/streams/decompress.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { tempDir } from "../helpers/service.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const DEMO = fixtureStream("demo");
const DEMO_FILES = readdirSync(DEMO)
  .filter((name) => name.endsWith(".rcd.gz"))
  .sort();

/** Copies demo record file `index` (and its signature) into `dir`. */
function copyDemo(dir: string, index: number): string {
  const name = DEMO_FILES[index]!;
  copyFileSync(join(DEMO, name), join(dir, name));
  copyFileSync(join(DEMO, `${name.replace(/\.gz$/, "")}_sig`), join(dir, `${name.replace(/\.gz$/, "")}_sig`));
  return name;
}

/** A following worker on `recordsDir` in this thread, and the messages it posts. */
function follow(recordsDir: string, dbDir: string) {
  const data: IngestWorkerData = {
    recordsDir,
    dbPath: join(dbDir, "index.db"),
    durable: false,
    waitSignatures: true,
    addressBookPath: null,
    logLevel: "silent",
    logFormat: "json",
    pollMs: 20,
    retryMs: 20,
    follow: true,
    stopFlag: new SharedArrayBuffer(4),
    balanceFiles: null,
    balancesDir: null,
    maxFileBytes: MAX_DECOMPRESSED_BYTES,
  };
  const { port1, port2 } = new MessageChannel();
  const messages: IngestWorkerMessage[] = [];
  const waiting: Array<{ test: (m: IngestWorkerMessage) => boolean; resolve: () => void }> = [];
  (port2 as MessagePort).on("message", (message: IngestWorkerMessage) => {
    messages.push(message);
    for (const wait of waiting.splice(0)) {
      if (wait.test(message)) wait.resolve();
      else waiting.push(wait);
    }
  });
  const worker = runIngestWorker(data, port1);
  if (worker === null) throw new Error("the worker did not open the index");
  cleanups.push(() => {
    worker.finish();
    port2.close();
  });
  /** Resolves on the first message (already posted or to come) that passes `test`. */
  const seen = (test: (m: IngestWorkerMessage) => boolean) =>
    messages.some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ test, resolve }));
  const committed = (file: string) => seen((m) => m.type === "committed" && m.file === file);
  return { worker, messages, seen, committed };
}

describe("ingestion that heals while following a folder", () => {
  it("tries a transient failure again with backoff and resumes by itself", async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const records = join(dir, "record0.0.3");
    const away = join(dir, "away");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(records);
    copyDemo(records, 0);
    const { worker, messages, seen, committed } = follow(records, dir);
    await worker.started;
    await committed(DEMO_FILES[0]!);
    // The folder goes away (an unmounted share): listing fails with ENOENT, a transient failure.
    renameSync(records, away);
    await seen((m) => m.type === "retrying" && m.attempts >= 2);
    const retrying = messages.filter((m) => m.type === "retrying");
    expect(retrying[0]).toMatchObject({ attempts: 1, reason: expect.stringContaining("ENOENT") });
    // Back, with a new file: ingestion resumes and applies it (main stopped for good at the first failure).
    renameSync(away, records);
    const next = copyDemo(records, 1);
    await seen((m) => m.type === "resumed");
    await committed(next);
    expect(messages.some((m) => m.type === "stopped")).toBe(false);
  });

  it("looks again at a refused file once it is replaced, and resumes without a restart", async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const records = join(dir, "record0.0.3");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(records);
    copyDemo(records, 0);
    const second = copyDemo(records, 1);
    const bytes = readFileSync(join(DEMO, second));
    const flipped = Uint8Array.from(bytes);
    flipped[flipped.length >> 1]! ^= 0xff;
    writeFileSync(join(records, second), flipped);
    const { worker, messages, seen, committed } = follow(records, dir);
    await worker.started;
    await seen((m) => m.type === "stopped");
    expect(messages.find((m) => m.type === "stopped")).toMatchObject({ file: second });
    // Polls that see the same bytes change nothing: one stop, no second report.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages.filter((m) => m.type === "stopped")).toHaveLength(1);
    // The operator puts the right bytes back under the same name (same size, a new modification time).
    writeFileSync(join(records, second), bytes);
    const later = Date.now() / 1000 + 5;
    utimesSync(join(records, second), later, later);
    await committed(second);
    await seen((m) => m.type === "resumed");
    // The catch-up the refused file interrupted is reported complete once it is applied.
    await seen((m) => m.type === "caught-up");
  });
});

describe("the retry delay", () => {
  it("doubles from the base up to the cap", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, 60_000))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(20, 1000, 60_000)).toBe(60_000);
  });
});

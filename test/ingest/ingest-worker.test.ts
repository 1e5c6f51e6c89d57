import { join } from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { runIngestWorker } from "../../src/ingest/ingest-worker.ts";
import type { IngestWorkerData, IngestWorkerMessage } from "../../src/ingest/messages.ts";
import { dropReadIndexes } from "../../src/store/catch-up-indexes.ts";
import { openWriter } from "../../src/store/db.ts";
import { MAX_DECOMPRESSED_BYTES } from "../../src/streams/decompress.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { tempDir } from "../helpers/service.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function workerData(dir: string, dbPath: string): IngestWorkerData {
  return {
    recordsDir: dir,
    dbPath,
    durable: false,
    waitSignatures: true,
    addressBookPath: null,
    logLevel: "silent",
    logFormat: "json",
    pollMs: 50,
    follow: false,
    stopFlag: new SharedArrayBuffer(4),
    balanceFiles: null,
    balancesDir: null,
    maxFileBytes: MAX_DECOMPRESSED_BYTES,
  };
}

/** Messages the worker posts, gathered on the other end of the channel, and one that resolves on a message type. */
function listen(port: MessagePort) {
  const messages: IngestWorkerMessage[] = [];
  const waiting: Array<{ type: string; resolve: () => void }> = [];
  port.on("message", (message: IngestWorkerMessage) => {
    messages.push(message);
    for (const wait of waiting) if (wait.type === message.type) wait.resolve();
  });
  const received = (type: IngestWorkerMessage["type"]) =>
    messages.some((m) => m.type === type)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.push({ type, resolve }));
  return { messages, received };
}

describe("the ingest worker as a module (no thread spawned)", () => {
  it("applies a fixture stream in this thread and reports each commit and the catch-up", async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const dbPath = join(dir, "index.db");
    const { port1, port2 } = new MessageChannel();
    const { messages, received } = listen(port2);
    const worker = runIngestWorker(workerData(fixtureStream("tokens"), dbPath), port1);
    expect(worker).not.toBeNull();
    await worker!.started;
    await received("caught-up");
    worker!.finish();
    port2.close();

    const blocks = expectedLedger("tokens").blocks;
    const committed = messages.filter((m) => m.type === "committed");
    expect(messages[0]).toEqual({ type: "db-ready" });
    expect(committed.map((m) => m.file)).toEqual(blocks.map((b) => b.name));
    expect(messages.at(-1)).toMatchObject({ type: "caught-up", files: blocks.length });
    const db = new Database(dbPath, { readonly: true });
    cleanups.push(() => db.close());
    expect(db.prepare("SELECT count(*) AS n FROM record_file").get()).toEqual({ n: blocks.length });
  });

  it("posts db-failed and returns null when the index cannot be opened", async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const { port1, port2 } = new MessageChannel();
    const { messages, received } = listen(port2);
    const worker = runIngestWorker(workerData(dir, join(dir, "missing", "index.db")), port1);
    expect(worker).toBeNull();
    await received("db-failed");
    port1.close();
    port2.close();
    expect(messages.map((m) => m.type)).toEqual(["db-failed"]);
  });
});

describe("an index left without its read indexes (an interrupted one-shot catch-up)", () => {
  it("gets them back before readers are told the index is ready", async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const dbPath = join(dir, "index.db");
    // A first run indexes the stream, then the read-only indexes are dropped as a killed `ingest` leaves them.
    const first = new MessageChannel();
    const firstListener = listen(first.port2);
    const done = runIngestWorker(workerData(fixtureStream("tokens"), dbPath), first.port1)!;
    await done.started;
    await firstListener.received("caught-up");
    done.finish();
    first.port2.close();
    const writer = openWriter(dbPath, { durable: false });
    dropReadIndexes(writer);
    writer.close();

    // The next start: what a reader would see at the moment db-ready is posted (checked synchronously).
    const reader = new Database(dbPath, { readonly: true });
    cleanups.push(() => reader.close());
    const indexes = reader.prepare(
      "SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = ?",
    );
    let seenAtReady: unknown;
    const posted: IngestWorkerMessage[] = [];
    const port = {
      postMessage(message: IngestWorkerMessage) {
        posted.push(message);
        if (message.type === "db-ready") seenAtReady = indexes.get("transaction_id");
      },
      on: () => port,
      close() {},
    };
    const worker = runIngestWorker({ ...workerData(fixtureStream("tokens"), dbPath), follow: false }, port)!;
    await worker.started;
    worker.finish();
    expect(posted.map((m) => m.type)).toContain("db-ready");
    expect(seenAtReady).toEqual({ n: 1 });
  });
});

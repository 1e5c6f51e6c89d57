/**
 * Files prepared on the reader thread ahead of the ingest thread must give the very index that preparing them on
 * the ingest thread itself gives: the same streams are ingested both ways by the real ingest worker and the two
 * indexes compared table by table — record files with sidecars (contracts), with and without waiting for
 * signatures, and the same transactions as a block stream.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { writeBlockStream } from "../../fixtures/writer/write-block-stream.ts";
import { runIngestWorker } from "../../src/ingest/ingest-worker.ts";
import type { IngestWorkerData, IngestWorkerMessage } from "../../src/ingest/messages.ts";
import type { SidecarMode } from "../../src/ingest/sidecars.ts";
import { MAX_DECOMPRESSED_BYTES } from "../../src/streams/decompress.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { dumpIndex } from "../helpers/index-dump.ts";
import { tempDir } from "../helpers/service.ts";

const temp = tempDir();
afterAll(() => temp.remove());

type Source = {
  recordsDir: string | null;
  blocksDir?: string;
  waitSignatures: boolean;
  sidecars?: SidecarMode;
};

/** Ingests `source` once (one-shot, as `mirrorlite ingest`) into a new index and returns its dump and messages. */
async function ingest(source: Source, readerThread: boolean, label: string) {
  const dbPath = join(temp.dir, `${label}-${readerThread ? "thread" : "inline"}.db`);
  const data: IngestWorkerData = {
    recordsDir: source.recordsDir,
    blocksDir: source.blocksDir ?? null,
    dbPath,
    durable: false,
    waitSignatures: source.waitSignatures,
    addressBookPath: null,
    logLevel: "silent",
    logFormat: "json",
    pollMs: 50,
    // Fixture files are old: settled at the first look.
    settleMs: 100,
    follow: false,
    stopFlag: new SharedArrayBuffer(4),
    balanceFiles: null,
    balancesDir: null,
    maxFileBytes: MAX_DECOMPRESSED_BYTES,
    // Small commits: several groups, so that files are taken across commit boundaries too.
    commitTransactions: 7,
    readerThread,
    ...(source.sidecars === undefined ? {} : { sidecars: source.sidecars }),
  };
  const { port1, port2 } = new MessageChannel();
  const messages: IngestWorkerMessage[] = [];
  // A one-shot ingest ends with one of these: every message before it has been delivered once it arrives.
  const ended = new Promise<void>((resolve) => {
    port2.on("message", (message: IngestWorkerMessage) => {
      messages.push(message);
      if (message.type === "caught-up" || message.type === "stopped") resolve();
    });
  });
  const worker = runIngestWorker(data, port1);
  expect(worker).not.toBeNull();
  await worker!.started;
  await ended;
  worker!.finish();
  port2.close();
  return { dump: dumpIndex(dbPath), messages };
}

async function expectSameIndex(source: Source, label: string, files: number) {
  const inline = await ingest(source, false, label);
  const threaded = await ingest(source, true, label);
  const committed = (messages: IngestWorkerMessage[]) =>
    messages.filter((m) => m.type === "committed").length;
  // Both ingested every file, and nothing stopped them.
  expect(committed(inline.messages)).toBe(files);
  expect(committed(threaded.messages)).toBe(files);
  expect(threaded.messages.some((m) => m.type === "stopped")).toBe(false);
  expect(Object.keys(threaded.dump)).toEqual(Object.keys(inline.dump));
  for (const table of Object.keys(inline.dump)) {
    expect({ table, rows: threaded.dump[table] }).toEqual({ table, rows: inline.dump[table] });
  }
}

describe("files prepared on the reader thread give the index prepared on the ingest thread gives", () => {
  it("record files with sidecars (contracts), sidecars required", async () => {
    const files = expectedLedger("contracts").blocks.length;
    await expectSameIndex(
      { recordsDir: fixtureStream("contracts"), waitSignatures: true, sidecars: "required" },
      "contracts",
      files,
    );
  });

  it("record files without waiting for signatures (tokens, --no-wait-signatures)", async () => {
    const files = expectedLedger("tokens").blocks.length;
    await expectSameIndex({ recordsDir: fixtureStream("tokens"), waitSignatures: false }, "tokens", files);
  });

  it("the same transactions as a block stream (tokens)", async () => {
    const records = fixtureStream("tokens");
    const names = readdirSync(records)
      .filter((n) => n.endsWith(".rcd.gz"))
      .sort();
    const parsed = names.map((name) => readRecordFile(name, readFileSync(join(records, name))));
    const blocksDir = join(temp.dir, "block-0.0.3");
    writeBlockStream(
      parsed,
      parsed[0]!.hapiVersion!,
      parsed.map((f) => f.blockNumber!),
      blocksDir,
      { compression: "zstd", layout: "flat", markers: true },
    );
    await expectSameIndex({ recordsDir: null, blocksDir, waitSignatures: true }, "blocks", names.length);
  });
});

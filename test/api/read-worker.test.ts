import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "../../src/api/app.ts";
import { BYTES_BODY_MIN_CHARS, weakEtag } from "../../src/api/cache.ts";
import {
  fromWireOutcome,
  type ReadJob,
  type ReadOutcome,
  type ReadWorkerMessage,
  toWireJob,
} from "../../src/api/read-protocol.ts";
import { runReadWorker } from "../../src/api/read-worker.ts";
import { runIngestWorker } from "../../src/ingest/ingest-worker.ts";
import { MAX_DECOMPRESSED_BYTES } from "../../src/streams/decompress.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { tempDir } from "../helpers/service.ts";

const ledger = expectedLedger("tokens");
const token = Object.values(ledger.tokens)[0]!;
let dbPath: string;
let removeDir: () => void;

beforeAll(async () => {
  const { dir, remove } = tempDir();
  removeDir = remove;
  dbPath = join(dir, "index.db");
  const { port1, port2 } = new MessageChannel();
  const worker = runIngestWorker(
    {
      recordsDir: fixtureStream("tokens"),
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
    },
    port1,
  );
  await worker!.started;
  worker!.finish();
  port2.close();
});
afterAll(() => removeDir());

/** A read worker run in this thread: its messages, and a way to wait for the answer to a job. */
function startWorker(path: string) {
  const { port1, port2 } = new MessageChannel();
  const messages: ReadWorkerMessage[] = [];
  const waiting = new Map<number | string, (message: ReadWorkerMessage) => void>();
  const outcomes = new Map<number, ReadOutcome>();
  port2.on("message", (message: ReadWorkerMessage) => {
    messages.push(message);
    if (message.type !== "done") waiting.get(message.type)?.(message);
    else
      for (const wire of message.results) {
        outcomes.set(wire[0], fromWireOutcome(wire));
        waiting.get(wire[0])?.(message);
      }
  });
  const next = (key: number | string) =>
    new Promise<ReadWorkerMessage>((resolve) => waiting.set(key, resolve));
  const started = runReadWorker({ dbPath: path, routeModules: [] }, port1);
  /** Sends a job as the pool does and resolves with its outcome. */
  const ask = async (id: number, job: ReadJob) => {
    const answer = next(id);
    port2.postMessage({ type: "jobs", jobs: [toWireJob(id, job)] });
    await answer;
    return outcomes.get(id)!;
  };
  const close = () => {
    port1.close();
    port2.close();
  };
  return { started, messages, ask, next, close };
}

const infoJob = (tokenId: bigint, url: string): ReadJob => ({
  template: "/api/v1/tokens/{tokenId}",
  method: "GET",
  query: { tokenId, asOf: { atNs: 9223372036854775807n, inclusive: true } },
  request: { url, params: {} },
});

describe("the read worker as a module (no thread spawned)", () => {
  it("opens the index, says it is ready, and answers jobs with rendered bytes or failures as data", async () => {
    const worker = startWorker(dbPath);
    const ready = worker.next("ready");
    expect(await worker.started).toBe(true);
    await ready;
    const [shard, realm, num] = token.id.split(".").map(BigInt) as [bigint, bigint, bigint];
    const encoded = (shard << 54n) | (realm << 38n) | num;

    const response = await worker.ask(1, infoJob(encoded, `/api/v1/tokens/${token.id}`));
    if (!response.ok) throw new Error("no answer");
    expect(response.response.status).toBe(200);
    expect(response.response.contentType).toBe("application/json; charset=utf-8");
    expect(response.response.etag).toMatch(/^W\/"/);
    // A short body travels as text.
    expect(typeof response.response.body).toBe("string");
    const text = response.response.body as string;
    expect(response.response.bytes).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toMatchObject({ token_id: token.id, name: token.name });

    const missing = await worker.ask(2, infoJob(encoded + 100_000n, "/api/v1/tokens/x"));
    expect(missing).toEqual({ ok: false, failure: { kind: "http", status: 404, messages: ["Not found"] } });

    const unknown = await worker.ask(3, { ...infoJob(encoded, "/x"), template: "/api/v1/nothing" });
    expect(unknown).toMatchObject({ ok: false, failure: { kind: "unexpected" } });

    // A large body travels as its UTF-8 bytes, whose length and ETag are the text's.
    const listUrl = "/api/v1/blocks?limit=100";
    const list = apiRoutes().find((route) => route.template === "/api/v1/blocks")!;
    const listed = await worker.ask(4, {
      template: list.template,
      method: "GET",
      query: list.parse({ url: listUrl, params: {} }),
      request: { url: listUrl, params: {} },
    });
    if (!listed.ok) throw new Error("no answer");
    const bytes = listed.response.body;
    expect(bytes).toBeInstanceOf(Uint8Array);
    const listText = Buffer.from(bytes as Uint8Array).toString("utf8");
    expect(listText.length).toBeGreaterThanOrEqual(BYTES_BODY_MIN_CHARS);
    expect(listed.response.bytes).toBe((bytes as Uint8Array).byteLength);
    expect(listed.response.etag).toBe(weakEtag(listText));
    expect(JSON.parse(listText).blocks.length).toBeGreaterThan(5);
    worker.close();
  });

  it("posts start-failed and resolves false when the index cannot be opened", async () => {
    const worker = startWorker(join(dbPath, "..", "missing", "index.db"));
    const failed = worker.next("start-failed");
    expect(await worker.started).toBe(false);
    await failed;
    expect(worker.messages.map((m) => m.type)).toEqual(["start-failed"]);
    worker.close();
  });
});

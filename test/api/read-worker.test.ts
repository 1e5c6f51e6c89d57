import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadJob, ReadWorkerMessage } from "../../src/api/read-protocol.ts";
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
  port2.on("message", (message: ReadWorkerMessage) => {
    messages.push(message);
    if (message.type !== "done") waiting.get(message.type)?.(message);
    else for (const { id } of message.results) waiting.get(id)?.(message);
  });
  const next = (key: number | string) =>
    new Promise<ReadWorkerMessage>((resolve) => waiting.set(key, resolve));
  const started = runReadWorker({ dbPath: path, listStaleMs: 1000, routeModules: [] }, port1);
  const ask = (id: number, job: ReadJob) => {
    const answer = next(id);
    port2.postMessage({ type: "jobs", jobs: [{ id, job }] });
    return answer;
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

    const found = await worker.ask(1, infoJob(encoded, `/api/v1/tokens/${token.id}`));
    expect(found).toMatchObject({ type: "done", results: [{ id: 1, outcome: { ok: true } }] });
    const response = (found as Extract<ReadWorkerMessage, { type: "done" }>).results[0]!.outcome;
    if (!response.ok) throw new Error("no answer");
    expect(response.response.status).toBe(200);
    expect(response.response.headers).toContain("public, max-age=5");
    expect(response.response.etag).toMatch(/^W\/"/);
    expect(JSON.parse(response.response.body)).toMatchObject({ token_id: token.id, name: token.name });

    const missing = await worker.ask(2, infoJob(encoded + 100_000n, "/api/v1/tokens/x"));
    expect(missing).toEqual({
      type: "done",
      results: [
        { id: 2, outcome: { ok: false, failure: { kind: "http", status: 404, messages: ["Not found"] } } },
      ],
    });

    const unknown = await worker.ask(3, { ...infoJob(encoded, "/x"), template: "/api/v1/nothing" });
    expect(unknown).toMatchObject({ results: [{ outcome: { ok: false, failure: { kind: "unexpected" } } }] });
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

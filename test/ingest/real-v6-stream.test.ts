import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  copyStream,
  REAL_STREAMS,
  startTestService,
  type TestService,
  waitForBlock,
} from "../helpers/service.ts";

const V6 = join(REAL_STREAMS, "v6/record0.0.3");
const FIRST = "2022-07-13T08_46_08.041986003Z.rcd.gz";
const SECOND = "2022-07-13T08_46_11.304284003Z.rcd.gz";

type Readiness = { status: string; reason: string | null; file: string | null; lastBlock: number | null };

async function settled(service: TestService): Promise<Readiness> {
  await service.ingest.settled;
  return (await service.get("/health/readiness")).body as Readiness;
}

describe("real v6 record streams through the watcher", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serve(dir: string, db?: string): Promise<TestService> {
    const service = await startTestService({ recordsDir: dir, ...(db ? { db } : {}) });
    cleanups.push(() => service.stop());
    return service;
  }

  it("ingests both files, reports ready, and keeps the block numbers the files carry", async () => {
    const stream = copyStream(V6);
    cleanups.push(stream.remove);
    const service = await serve(stream.dir);
    const readiness = await settled(service);
    expect(readiness.status).toBe("ready");
    expect(readiness.lastBlock).toBe(6);
    expect((await service.get("/health/readiness")).status).toBe(200);
    expect((await service.get("/health/liveness")).status).toBe(200);
  });

  it("stops at a corrupt file with one clear reason, keeps serving, and resumes once the file is fixed", async () => {
    const stream = copyStream(V6);
    cleanups.push(stream.remove);
    const original = readFileSync(join(stream.dir, SECOND));
    const flipped = Buffer.from(original);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    writeFileSync(join(stream.dir, SECOND), flipped);
    const db = join(stream.dir, "..", "index.db");

    const first = await serve(stream.dir, db);
    const readiness = await settled(first);
    expect(readiness.status).toBe("stopped");
    expect(readiness.file).toBe(SECOND);
    expect(readiness.reason).toContain(SECOND);
    expect(readiness.lastBlock).toBe(5);
    const response = await first.get("/health/readiness");
    expect(response.status).toBe(503);
    expect((await first.get("/health/liveness")).status).toBe(200);
    await first.stop();

    writeFileSync(join(stream.dir, SECOND), original);
    const second = await serve(stream.dir, db);
    await waitForBlock(second, 6n);
    expect((await settled(second)).status).toBe("ready");
  });

  it("refuses a file whose start hash is not the previous file's end hash, naming both hashes", async () => {
    const stream = copyStream(V6);
    cleanups.push(stream.remove);
    // Genuine files in the wrong order: block 5 renamed so that it sorts after block 6.
    renameSync(join(stream.dir, FIRST), join(stream.dir, "2022-07-13T08_46_12.000000000Z.rcd.gz"));
    renameSync(
      join(stream.dir, FIRST.replace(".rcd.gz", ".rcd_sig")),
      join(stream.dir, "2022-07-13T08_46_12.000000000Z.rcd_sig"),
    );
    const service = await serve(stream.dir);
    const readiness = await settled(service);
    expect(readiness.status).toBe("stopped");
    expect(readiness.file).toBe("2022-07-13T08_46_12.000000000Z.rcd.gz");
    expect(readiness.reason).toMatch(/[0-9a-f]{96}.*[0-9a-f]{96}/);
    expect(readiness.lastBlock).toBe(6);
  });

  it("refuses a file whose gzip is intact but whose content was altered", async () => {
    const stream = copyStream(V6);
    cleanups.push(stream.remove);
    const plain = gunzipSync(readFileSync(join(stream.dir, SECOND)));
    // A byte inside the record items: the recomputed running hash no longer matches the end hash.
    plain[Math.floor(plain.length / 3)]! ^= 0x01;
    writeFileSync(join(stream.dir, SECOND), gzipSync(plain));
    const service = await serve(stream.dir);
    const readiness = await settled(service);
    expect(readiness.status).toBe("stopped");
    expect(readiness.file).toBe(SECOND);
    expect(readiness.lastBlock).toBe(5);
  });

  it("ignores sidecar files and record files without a signature yet", async () => {
    const stream = copyStream(V6);
    cleanups.push(stream.remove);
    const signature = join(stream.dir, SECOND.replace(".rcd.gz", ".rcd_sig"));
    const signatureBytes = readFileSync(signature);
    renameSync(signature, `${signature}.hidden`);
    expect(readdirSync(join(stream.dir, "sidecar")).length).toBeGreaterThan(0);
    const service = await serve(stream.dir);
    expect((await settled(service)).lastBlock).toBe(5);
    // The node finishes writing the signature: the watcher picks the file up.
    writeFileSync(signature, signatureBytes);
    await waitForBlock(service, 6n);
  });
});

/**
 * The three real block stream files (blocks 7, 8 and 16 of the mirror node's own test network, HAPI 0.73) through
 * the real watcher, worker, SQLite file and HTTP server: roots recomputed, the chain from 7 to 8 checked against
 * block 8's footer, the blocks API answering them, and block 16 refused as a gap (blocks 9–15 are missing).
 */
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readBlockFile } from "../../src/streams/block-file.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { REAL_STREAMS, startTestService, type TestService, tempDir } from "../helpers/service.ts";

const REAL_BLOCKS = join(REAL_STREAMS, "blockstreams");
const ROOT_7 =
  "8b98440b3fa8b13d9d7f82e92ceb246c9707cf6c11ba38997385e7ea1097f06d752736753fe40b9ff06096211a11066a";
const FOOTER_PREVIOUS_7 =
  "e11e44567f5ca4ae23b75467b75d83c8880d0888f5c4154f08b8f221bf269b2e4f3f1686e8dcb9694beaaf287313b0fb";

function footerPreviousOf(name: string): string {
  const block = readBlockFile(name, readFileSync(join(REAL_BLOCKS, name)));
  return Buffer.from(block.previousHash).toString("hex");
}

describe("real block stream files", () => {
  it("recompute block 7's root as block 8's footer names it", () => {
    const seven = readBlockFile("007.blk.zstd", readFileSync(join(REAL_BLOCKS, "007.blk.zstd")));
    expect(Buffer.from(seven.hash).toString("hex")).toBe(ROOT_7);
    expect(footerPreviousOf("008.blk.zstd")).toBe(ROOT_7);
    expect(Buffer.from(seven.previousHash).toString("hex")).toBe(FOOTER_PREVIOUS_7);
    expect(seven.number).toBe(7n);
    expect(seven.hapiVersion).toEqual({ major: 0, minor: 73, patch: 0 });
    // Two signed transactions: a state signature (a system transaction, no result) and the NodeUpdate.
    expect(seven.transactions).toHaveLength(1);
    expect(seven.proof).toEqual({ kind: "tss", verified: false });
  });

  it("read a block without transactions at its block timestamp", () => {
    const sixteen = readBlockFile("016.blk.zstd", readFileSync(join(REAL_BLOCKS, "016.blk.zstd")));
    expect(sixteen.transactions).toHaveLength(0);
    expect(sixteen.consensusStart).toBe(sixteen.blockTimestampNs);
    expect(sixteen.consensusEnd).toBe(sixteen.blockTimestampNs);
  });
});

describe("real blocks through the service", () => {
  let service: TestService | undefined;
  let remove: (() => void) | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    remove?.();
  });

  async function serve(names: string[], layout: "flat" | "bucket" = "flat"): Promise<TestService> {
    const temp = tempDir();
    remove = temp.remove;
    const dir = join(temp.dir, "block-0.0.3");
    for (const name of names) {
      const number = name.slice(0, 3);
      const target = layout === "flat" ? dir : join(dir, "0000", "0000", "0000", "0000");
      mkdirSync(target, { recursive: true });
      const file = layout === "flat" ? `${number.padStart(36, "0")}.blk.zstd` : `${number}.blk.zstd`;
      copyFileSync(join(REAL_BLOCKS, name), join(target, file));
      writeFileSync(join(target, `${layout === "flat" ? number.padStart(36, "0") : number}.mf`), "");
    }
    service = await startTestService({ recordsDir: null, blocksDir: dir });
    await service.ingest.settled;
    return service;
  }

  it("serve blocks 7 and 8 as the mirror node renders block stream blocks", async () => {
    const running = await serve(["007.blk.zstd", "008.blk.zstd"]);
    expect(running.ingest.status().state).toBe("ready");
    const response = await running.get("/api/v1/blocks?order=asc");
    expect(response.status).toBe(200);
    validateResponse({ path: "/api/v1/blocks", status: 200, body: response.body });
    const blocks = (response.body as { blocks: Array<Record<string, unknown>> }).blocks;
    expect(blocks.map((b) => b.number)).toEqual([7, 8]);
    const [seven, eight] = blocks;
    expect(seven).toMatchObject({
      count: 1,
      hapi_version: "0.73.0",
      hash: `0x${ROOT_7}`,
      name: "0000000000000000007.blk.zstd",
      previous_hash: `0x${FOOTER_PREVIOUS_7}`,
      size: statSync(join(REAL_BLOCKS, "007.blk.zstd")).size,
      gas_used: 0,
      logs_bloom: "0x",
    });
    expect(eight).toMatchObject({ count: 1, previous_hash: `0x${ROOT_7}` });
    const seven64 = await running.get(`/api/v1/blocks/0x${ROOT_7.slice(0, 64)}`);
    expect((seven64.body as { number: number }).number).toBe(7);
  });

  it("read the bucket layout", async () => {
    const running = await serve(["007.blk.zstd", "008.blk.zstd"], "bucket");
    expect(running.ingest.status().state).toBe("ready");
    const response = await running.get("/api/v1/blocks/8");
    // Named as the mirror node names a block file it reads from a bucket: the number in 36 digits.
    expect(response.body).toMatchObject({ number: 8, name: "0000000000000000008.blk.zstd" });
  });

  it("stop at block 16, which does not follow block 8, and keep serving", async () => {
    const running = await serve(["007.blk.zstd", "008.blk.zstd", "016.blk.zstd"]);
    const status = running.ingest.status();
    expect(status.state).toBe("stopped");
    expect(status.reason).toContain("0000000000000000016.blk.zstd: is block 16 but");
    expect(status.reason).toContain("expected block 9");
    const readiness = await running.get("/health/readiness");
    expect(readiness.status).toBe(503);
    expect((await running.get("/api/v1/blocks/8")).status).toBe(200);
  });
});

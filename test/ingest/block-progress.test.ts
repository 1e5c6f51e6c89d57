/**
 * How far ingestion is behind a block folder: block names carry no time, so the newest block's start is read
 * from its header. Ten demo blocks are written, the sixth without its `.mf` marker (still being written): the
 * first five are applied and the service is ready, and `/metrics` and `/health/readiness` say five blocks are
 * left and how many consensus seconds the newest block on disk is ahead of the last one applied. The same
 * reads from the first bytes of a block file in every compression.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BlockCompression,
  blockBytes,
  writeBlockStream,
} from "../../fixtures/writer/write-block-stream.ts";
import { zstdRawFrame } from "../../fixtures/writer/write-zstd-raw.ts";
import { BLOCK_START_PREFIX_BYTES, blockStartTimeNs } from "../../src/streams/block-start-time.ts";
import { gzipDeterministic } from "../../src/streams/gzip.ts";
import { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordFile } from "../../src/streams/types.ts";
import { timestampToNs } from "../../src/time.ts";
import { FIXTURE_STREAMS, startTestService, type TestService, tempDir } from "../helpers/service.ts";

function demoFiles(count: number): RecordFile[] {
  const dir = join(FIXTURE_STREAMS, "demo", "record0.0.3");
  return readdirSync(dir)
    .filter((n) => n.endsWith(".rcd.gz"))
    .sort()
    .slice(0, count)
    .map((name) => readRecordFile(name, readFileSync(join(dir, name))));
}

function metricsOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** A file's first consensus time: the block timestamp the writer gives its block. */
const startNs = (file: RecordFile): bigint =>
  timestampToNs(proto.TransactionRecord.decode(file.items[0]!.recordBytes).consensusTimestamp);

describe("progress over a block folder", () => {
  let temp: { dir: string; remove: () => void };
  let service: TestService;
  let files: RecordFile[];
  beforeAll(async () => {
    temp = tempDir();
    files = demoFiles(10);
    const dir = join(temp.dir, "block-0.0.3");
    const written = writeBlockStream(
      files,
      files[0]!.hapiVersion!,
      files.map((f) => f.blockNumber!),
      dir,
      { compression: "zstd", layout: "flat", markers: true },
    );
    rmSync(join(dir, written[5]!.path.replace(/\.blk\.zstd$/, ".mf")));
    service = await startTestService({ recordsDir: null, blocksDir: dir });
    await service.ingest.settled;
  });
  afterAll(async () => {
    await service?.stop();
    temp?.remove();
  });

  it("counts the blocks left and the consensus seconds to the newest one", async () => {
    expect(service.ingest.status().state).toBe("ready");
    expect(service.ingest.status().lastBlock).toBe(files[4]!.blockNumber);
    const behind = Number((startNs(files[9]!) - startNs(files[4]!)) / 1_000_000n) / 1000;
    expect(behind).toBeGreaterThan(0);
    const metrics = metricsOf((await service.get("/metrics")).text);
    expect(metrics.get("mirrorlite_ingest_files_pending")).toBe(5);
    expect(metrics.get("mirrorlite_ingest_seconds_behind")).toBe(behind);
    const readiness = (await service.get("/health/readiness")).body as { progress: { filesLeft: number } };
    expect(readiness.progress.filesLeft).toBe(5);
  });
});

describe("a block's start from the first bytes of its file", () => {
  it("reads the header's block timestamp, stored, gzip or zstd, and nothing from other bytes", () => {
    const [file] = demoFiles(1);
    const bytes = blockBytes(file!.items, file!.hapiVersion!, file!.blockNumber!, new Uint8Array(48));
    const compressed: Record<BlockCompression, Uint8Array> = {
      none: bytes,
      gzip: gzipDeterministic(bytes),
      zstd: zstdRawFrame(bytes),
    };
    const suffix: Record<BlockCompression, string> = { none: ".blk", gzip: ".blk.gz", zstd: ".blk.zstd" };
    for (const [compression, onDisk] of Object.entries(compressed) as Array<[BlockCompression, Uint8Array]>) {
      const prefix = onDisk.subarray(0, BLOCK_START_PREFIX_BYTES);
      expect(blockStartTimeNs(`7${suffix[compression]}`, prefix), compression).toBe(startNs(file!));
    }
    expect(blockStartTimeNs("7.blk.zstd", new Uint8Array(3))).toBeNull();
    expect(blockStartTimeNs("7.blk", Uint8Array.of(1, 2, 3))).toBeNull();
  });
});

/**
 * A block that cannot be read or does not continue the chain stops ingestion with one reason naming the file;
 * what came before stays served and readiness says why.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { writeBlockStream } from "../../fixtures/writer/write-block-stream.ts";
import { zstdRawFrame } from "../../fixtures/writer/write-zstd-raw.ts";
import { blockNumberOf } from "../../src/ingest/block-files.ts";
import { decompressBlock } from "../../src/streams/block-decompress.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { FIXTURE_STREAMS, startTestService, type TestService, tempDir } from "../helpers/service.ts";

function writeDemoBlocks(
  dir: string,
  count: number,
  compression: "none" | "zstd" | "gzip" = "none",
  zstdChecksum = false,
) {
  const records = join(FIXTURE_STREAMS, "demo", "record0.0.3");
  const names = readdirSync(records)
    .filter((n) => n.endsWith(".rcd.gz"))
    .sort()
    .slice(0, count);
  const files = names.map((name) => readRecordFile(name, readFileSync(join(records, name))));
  return writeBlockStream(
    files,
    files[0]!.hapiVersion!,
    files.map((f) => f.blockNumber!),
    dir,
    {
      compression,
      layout: "flat",
      markers: true,
      zstdChecksum,
    },
  );
}

describe("corrupt blocks", () => {
  let service: TestService | undefined;
  let remove: (() => void) | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    remove?.();
  });

  async function ingest(
    damage: (dir: string, paths: string[]) => void,
    compression: "none" | "zstd" = "none",
    zstdChecksum = false,
  ) {
    const temp = tempDir();
    remove = temp.remove;
    const dir = join(temp.dir, "block-0.0.3");
    const written = writeDemoBlocks(dir, 4, compression, zstdChecksum);
    damage(
      dir,
      written.map((w) => w.path),
    );
    service = await startTestService({ recordsDir: null, blocksDir: dir });
    await service.ingest.settled;
    return { service, written };
  }

  it("stop on a truncated block, naming it, and keep serving the blocks before it", async () => {
    const { service: running, written } = await ingest((dir, paths) => {
      const path = join(dir, paths[2]!);
      const bytes = readFileSync(path);
      writeFileSync(path, bytes.subarray(0, bytes.length - 30));
    });
    const status = running.ingest.status();
    expect(status.state).toBe("stopped");
    expect(status.file).toBe(written[2]!.path);
    expect(status.lastBlock).toBe(written[1]!.number);
    expect((await running.get("/health/readiness")).status).toBe(503);
    expect((await running.get(`/api/v1/blocks/${written[1]!.number}`)).status).toBe(200);
  });

  it("stop on a block whose footer does not name the previous block's root", async () => {
    const { service: running, written } = await ingest((dir, paths) => {
      // Block 3's bytes with one byte of a transaction changed: its root, named by block 4, no longer matches.
      const path = join(dir, paths[2]!);
      const bytes = Buffer.from(readFileSync(path));
      bytes[bytes.length - 400] = (bytes[bytes.length - 400]! + 1) & 0xff;
      writeFileSync(path, bytes);
    });
    const status = running.ingest.status();
    expect(status.state).toBe("stopped");
    // Either block 3 no longer decodes (named by its path), or it does and block 4's footer names another root
    // (named as the blocks API names it, in 19 digits).
    expect([written[2]!.number, written[3]!.number].map(String)).toContain(
      String(blockNumberOf(status.file ?? "")),
    );
  });

  it("stop on the very block whose zstd content checksum fails, a flipped byte caught in the file itself", async () => {
    const { service: running, written } = await ingest(
      (dir, paths) => {
        // A stored byte of block 3's content: without the checksum, only block 4's footer would tell.
        const path = join(dir, paths[2]!);
        const bytes = Buffer.from(readFileSync(path));
        bytes[bytes.length - 400] = bytes[bytes.length - 400]! ^ 0x01;
        writeFileSync(path, bytes);
      },
      "zstd",
      true,
    );
    const status = running.ingest.status();
    expect(status.state).toBe("stopped");
    expect(status.file).toBe(written[2]!.path);
    expect(status.reason).toMatch(
      /bad zstd: the content of frame 1 hashes to 0x[0-9a-f]{8} but its checksum is/,
    );
    expect(status.lastBlock).toBe(written[1]!.number);
    expect((await running.get(`/api/v1/blocks/${written[1]!.number}`)).status).toBe(200);
  });

  it("refuse blocks that inflate past the limit, gzip and zstd alike", () => {
    const big = new Uint8Array(2048);
    expect(() => decompressBlock("x.blk.gz", gzipSync(big), 1024)).toThrow(/more than 1024 bytes/);
    expect(() => decompressBlock("x.blk.zstd", zstdRawFrame(big), 1024)).toThrow(/more than 1024 bytes/);
    expect(decompressBlock("x.blk.zstd", zstdRawFrame(big), 4096)).toHaveLength(2048);
  });
});

/**
 * Zip bombs: small gzip files that expand to hundreds of MB of zeros. Every stream file is read with a bound on
 * its size, on disk and decompressed (`--max-file-mb`, 256 MiB by default; a lower one here keeps the test
 * fast): past it, ingestion stops on the file with a clear reason, and memory never holds more than the bound.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommand } from "../../src/cli/args.ts";
import { type Config, ConfigError } from "../../src/config.ts";
import { parseBalanceFile } from "../../src/streams/balance-file.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService } from "../helpers/service.ts";

const MiB = 1024 * 1024;
const BOMB_BYTES = 400 * MiB;
const CAP_MB = 16;

/** `size` zero bytes, gzip-compressed without ever holding them in memory (about 1.8 MB for 400 MiB). */
async function gzipOfZeros(size: number): Promise<Buffer> {
  const chunk = Buffer.alloc(MiB);
  let sent = 0;
  const zeros = new Readable({
    read() {
      if (sent >= size) this.push(null);
      else {
        sent += chunk.length;
        this.push(chunk);
      }
    },
  });
  return buffer(zeros.pipe(createGzip({ level: 1 })));
}

/** The peak resident set of this process so far, in MiB. */
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

describe("a decompression bomb", () => {
  let bomb: Buffer;
  beforeAll(async () => {
    bomb = await gzipOfZeros(BOMB_BYTES);
    expect(bomb.length).toBeLessThan(4 * MiB);
  });

  it("in a record stream stops ingestion on that file, with the bound in the reason and bounded memory", async () => {
    const stream = copyStream(fixtureStream("demo"));
    const names = readdirSync(stream.dir)
      .filter((name) => name.endsWith(".rcd.gz"))
      .sort();
    // The node's next file, two seconds after the last one: the stream up to it is applied first.
    const bombName = "2024-06-01T08_59_59.000000000Z.rcd.gz";
    expect(bombName > names.at(-1)!).toBe(true);
    writeFileSync(join(stream.dir, bombName), bomb);
    const before = peakRssMb();
    const service = await startTestService({
      recordsDir: stream.dir,
      waitSignatures: false,
      maxFileMb: CAP_MB,
    });
    try {
      await service.ingest.settled;
      const status = service.ingest.status();
      expect(status.state).toBe("stopped");
      expect(status.file).toBe(bombName);
      expect(status.reason).toBe(
        `${bombName}: decompresses to more than ${CAP_MB} MiB, the most a stream file may hold ` +
          "(--max-file-mb)",
      );
      expect(status.lastFile).toBe(names.at(-1));
      // The whole service (ingest and reader threads, each its own V8 heap, SQLite caches) grew the peak by far less
      // than the bomb's 400 MiB.
      expect(peakRssMb() - before).toBeLessThan(256);
    } finally {
      await service.stop();
      stream.remove();
    }
  });

  it("is refused by the record file reader past the bound it is given", () => {
    expect(() => readRecordFile("x.rcd.gz", bomb, CAP_MB * MiB)).toThrow(
      `x.rcd.gz: decompresses to more than ${CAP_MB} MiB`,
    );
  });

  it("as a balance snapshot is refused past the bound, naming it", () => {
    expect(() => parseBalanceFile("2021-03-08T20_15_00Z_Balances.pb.gz", bomb, CAP_MB * MiB)).toThrow(
      `decompresses to more than ${CAP_MB} MiB, the most a stream file may hold (--max-file-mb)`,
    );
  });
});

describe("a record file larger than the bound on disk", () => {
  let stream: { dir: string; remove: () => void };
  afterAll(() => stream?.remove());

  it("is refused without being read", async () => {
    stream = copyStream(fixtureStream("demo"));
    const name = "2024-06-01T08_59_59.000000000Z.rcd";
    writeFileSync(join(stream.dir, name), Buffer.alloc((CAP_MB + 1) * MiB));
    const service = await startTestService({
      recordsDir: stream.dir,
      waitSignatures: false,
      maxFileMb: CAP_MB,
    });
    try {
      await service.ingest.settled;
      expect(service.ingest.status().reason).toBe(
        `${name}: is ${CAP_MB + 1} MiB, more than ${CAP_MB} MiB, the most a stream file may hold (--max-file-mb)`,
      );
    } finally {
      await service.stop();
    }
  });
});

describe("--max-file-mb", () => {
  it("sets the bound (flag over MIRRORLITE_MAX_FILE_MB), a whole number of MiB from 1 to 2047", () => {
    const dir = fixtureStream("demo");
    const config = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      (parseCommand(["serve", "--records", dir, ...args], env) as { config: Config }).config;
    expect(config([]).maxFileMb).toBeUndefined();
    expect(config(["--max-file-mb", "16"]).maxFileMb).toBe(16);
    expect(config([], { MIRRORLITE_MAX_FILE_MB: "64" }).maxFileMb).toBe(64);
    expect(config(["--max-file-mb", "32"], { MIRRORLITE_MAX_FILE_MB: "64" }).maxFileMb).toBe(32);
    expect(() => config(["--max-file-mb", "0"])).toThrow(ConfigError);
    expect(() => config(["--max-file-mb", "2048"])).toThrow(ConfigError);
    expect(() => config(["--max-file-mb", "1.5"])).toThrow(ConfigError);
  });
});

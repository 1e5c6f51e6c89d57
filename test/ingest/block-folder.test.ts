/**
 * A node's flat block folder is listed like a record folder (record-folder.test.ts): with 200,000 applied block
 * names in it (served by a file system the test counts), it is listed in full once at start and then only now
 * and then, with a doubling interval, while nothing arrives, and neither the newest block nor the pending count
 * lists it; a new block is applied as soon as its events are noted, and one whose events were missed by the
 * next due full listing.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeBlockStream } from "../../fixtures/writer/write-block-stream.ts";
import { createBlockFolder } from "../../src/ingest/block-folder.ts";
import { createIngestor } from "../../src/ingest/ingestor.ts";
import { createLogger } from "../../src/log.ts";
import { openWriter } from "../../src/store/db.ts";
import { createWriteStore } from "../../src/store/write-store.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { countingFolderFs } from "../helpers/counting-folder-fs.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { tempDir } from "../helpers/service.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const APPLIED_BEFORE = 200_000;
/** The demo's blocks are numbered after the 200,000 applied ones. */
const FIRST = BigInt(APPLIED_BEFORE);

describe("a flat block folder of 200,000 applied blocks", () => {
  it("is listed in full rarely while idle, and a new block is applied on its events or the next full listing", () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const demo = fixtureStream("demo");
    const files = readdirSync(demo)
      .filter((name) => name.endsWith(".rcd.gz"))
      .sort()
      .slice(0, 4)
      .map((name) => readRecordFile(name, readFileSync(join(demo, name))));
    const staged = join(dir, "staged");
    const written = writeBlockStream(
      files,
      files[0]!.hapiVersion!,
      files.map((_, i) => FIRST + BigInt(i)),
      staged,
      { compression: "zstd", layout: "flat", markers: true },
    );
    const blocks = join(dir, "block-0.0.3");
    mkdirSync(blocks);
    /** Copies block `index` into the folder, then (unless not) its marker; returns the names written. */
    const copyBlock = (index: number, marker = true): string[] => {
      const name = written[index]!.path;
      const names = marker ? [name, name.replace(/\.blk\.zstd$/, ".mf")] : [name];
      for (const n of names) copyFileSync(join(staged, n), join(blocks, n));
      return names;
    };
    copyBlock(0);
    copyBlock(1);
    // Names of blocks applied long ago, as a node's folder holds after months.
    const old = Array.from({ length: APPLIED_BEFORE }, (_, i) => `${String(i).padStart(36, "0")}.blk.zstd`);
    const { fs, counted } = countingFolderFs(old);
    const clock = { ms: 1_000_000 };
    const db = openWriter(join(dir, "index.db"), { durable: false });
    const log = createLogger("silent");
    const store = createWriteStore(db);
    const numbers = (applied: ReadonlyArray<{ blockNumber: bigint }>) => applied.map((f) => f.blockNumber);
    // The first two blocks are applied (by an earlier run, with the real file system).
    const earlier = createIngestor({ dir: null, blocksDir: blocks, store, waitSignatures: true, log });
    expect(numbers(earlier.ingestReady())).toEqual([FIRST, FIRST + 1n]);
    earlier.close();
    const pending: number[] = [];
    const ingestor = createIngestor({
      dir: null,
      blocksDir: blocks,
      store: createWriteStore(db),
      waitSignatures: true,
      folderFs: fs,
      now: () => clock.ms,
      minFullListMs: 250,
      maxFullListMs: 60_000,
      onPlanned: (_names, left) => pending.push(left),
      log,
    });
    cleanups.push(() => {
      ingestor.close();
      db.close();
    });

    expect(ingestor.ingestReady()).toEqual([]);
    expect(counted.listings).toBe(1);
    // 100 s of looks every 250 ms with nothing arriving, each also asking how many blocks are left.
    for (let look = 0; look < 400; look++) {
      clock.ms += 250;
      expect(ingestor.ingestReady()).toEqual([]);
      expect(ingestor.pendingFiles()).toBe(0);
    }
    // Full listings at 0.25, 0.75, 1.75, 3.75, 7.75, 15.75, 31.75 and 63.75 s (the interval doubles to 60 s).
    expect(counted.listings).toBe(9);
    expect(counted.entries).toBeLessThanOrEqual(9 * (APPLIED_BEFORE + 4));
    expect(counted.stats).toBe(0);

    // A block without its marker yet is left (and counted as left), not applied; once the marker's event is
    // noted the next look applies it, all without listing the folder.
    for (const name of copyBlock(2, false)) ingestor.notedBlock(name);
    clock.ms += 250;
    expect(ingestor.ingestReady()).toEqual([]);
    expect(ingestor.pendingFiles()).toBe(1);
    expect(pending.at(-1)).toBe(1);
    const marker = written[2]!.path.replace(/\.blk\.zstd$/, ".mf");
    copyFileSync(join(staged, marker), join(blocks, marker));
    ingestor.notedBlock(marker);
    clock.ms += 250;
    expect(numbers(ingestor.ingestReady())).toEqual([FIRST + 2n]);
    expect(counted.listings).toBe(9);

    // A block whose events were missed is found by the next full listing (at most a minute later), and the
    // interval drops back to the shortest, as events seem to be missed.
    copyBlock(3);
    clock.ms += 60_000;
    expect(numbers(ingestor.ingestReady())).toEqual([FIRST + 3n]);
    expect(counted.listings).toBe(10);
    clock.ms += 250;
    ingestor.ingestReady();
    expect(counted.listings).toBe(11);
  });
});

describe("a block folder's layout", () => {
  it("is a bucket walked as before when its top folder holds only folders, and flat when it holds blocks", () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const bucket = join(dir, "bucket");
    mkdirSync(join(bucket, "0000/0000/0000/0001"), { recursive: true });
    for (const n of ["001", "002", "003"])
      writeFileSync(join(bucket, `0000/0000/0000/0001/${n}.blk.zstd`), "");
    const nested = createBlockFolder(bucket);
    expect(nested.newest(1002n)).toEqual({ path: "0000/0000/0000/0001/003.blk.zstd", number: 1003n });
    expect(nested.newest(1004n)).toBeNull();
    expect(nested.list(1002n, 10, false).map((e) => e.path)).toEqual([
      "0000/0000/0000/0001/002.blk.zstd",
      "0000/0000/0000/0001/003.blk.zstd",
    ]);

    const flat = join(dir, "flat");
    mkdirSync(flat);
    const name = (n: number, suffix: string) => `${String(n).padStart(36, "0")}${suffix}`;
    for (const n of [7, 12, 9]) writeFileSync(join(flat, name(n, ".blk.zstd")), "");
    writeFileSync(join(flat, name(9, ".mf")), "");
    writeFileSync(join(flat, "notes.txt"), "");
    const folder = createBlockFolder(flat, { now: () => 0 }); // a clock that stands still: one full listing
    // The first question may be the newest block (a pass still on record files asks it first).
    expect(folder.newest(8n)).toEqual({ path: name(12, ".blk.zstd"), number: 12n });
    expect(folder.list(8n, 10, false)).toEqual([
      { path: name(9, ".blk.zstd"), number: 9n, size: 0, marked: true },
      { path: name(12, ".blk.zstd"), number: 12n, size: 0, marked: false },
    ]);
    expect(folder.list(8n, 1, false).map((e) => e.number)).toEqual([9n]);
    expect(folder.newest(13n)).toBeNull();
    // Padded otherwise, a name still sorts by its number.
    writeFileSync(join(flat, "100.blk.gz"), "");
    folder.noted("100.blk.gz");
    expect(folder.newest(13n)).toEqual({ path: "100.blk.gz", number: 100n });
    expect(folder.fullListings).toBe(1);
  });
});

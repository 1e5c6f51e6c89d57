/**
 * Listing cost does not grow with the files already applied: a folder of 200,000 applied record files (their
 * names, served by a file system the test counts) is listed in full once at start and then only now and then,
 * with a doubling interval, while nothing arrives; a new file is applied as soon as its event is noted.
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createIngestor } from "../../src/ingest/ingestor.ts";
import { createLogger } from "../../src/log.ts";
import { openWriter } from "../../src/store/db.ts";
import { createWriteStore } from "../../src/store/write-store.ts";
import { countingFolderFs } from "../helpers/counting-folder-fs.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { tempDir } from "../helpers/service.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const DEMO = fixtureStream("demo");
const DEMO_FILES = readdirSync(DEMO)
  .filter((name) => name.endsWith(".rcd.gz"))
  .sort();
const APPLIED_BEFORE = 200_000;

/** Copies demo record file `index` and its signature into `dir`; returns both names. */
function copyDemo(dir: string, index: number): [string, string] {
  const name = DEMO_FILES[index]!;
  const signature = `${name.replace(/\.gz$/, "")}_sig`;
  copyFileSync(join(DEMO, name), join(dir, name));
  copyFileSync(join(DEMO, signature), join(dir, signature));
  return [name, signature];
}

describe("a record folder of 200,000 applied files", () => {
  it("is listed in full rarely while idle, and a new file is applied on its event", () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const records = join(dir, "record0.0.3");
    mkdirSync(records);
    copyDemo(records, 0);
    copyDemo(records, 1);
    // Names of files applied long ago (before the demo's first), as a node's folder holds after months.
    const old = Array.from(
      { length: APPLIED_BEFORE },
      (_, i) => `2020-01-01T00_00_00.${String(i).padStart(9, "0")}Z.rcd.gz`,
    );
    const { fs, counted } = countingFolderFs(old);
    const clock = { ms: 1_000_000 };
    const db = openWriter(join(dir, "index.db"), { durable: false });
    const log = createLogger("silent");
    // The demo's first two files are applied (by an earlier run); the old names sort before them.
    const earlier = createIngestor({ dir: records, store: createWriteStore(db), waitSignatures: true, log });
    expect(earlier.ingestReady().map((f) => f.name)).toEqual(DEMO_FILES.slice(0, 2));
    earlier.close();
    const ingestor = createIngestor({
      dir: records,
      store: createWriteStore(db),
      waitSignatures: true,
      folderFs: fs,
      now: () => clock.ms,
      minFullListMs: 250,
      maxFullListMs: 60_000,
      log,
    });
    cleanups.push(() => {
      ingestor.close();
      db.close();
    });

    expect(ingestor.ingestReady()).toEqual([]);
    expect(counted.listings).toBe(1);
    // 100 s of looks every 250 ms with nothing arriving: main listed the folder on all 400 of them.
    for (let look = 0; look < 400; look++) {
      clock.ms += 250;
      expect(ingestor.ingestReady()).toEqual([]);
    }
    // Full listings at 0.25, 0.75, 1.75, 3.75, 7.75, 15.75, 31.75 and 63.75 s (the interval doubles to 60 s).
    expect(counted.listings).toBe(9);
    expect(counted.entries).toBeLessThanOrEqual(9 * (APPLIED_BEFORE + 4));
    expect(counted.stats).toBe(0);

    // A new file: its events are noted, and the next look applies it without listing the folder.
    for (const name of copyDemo(records, 2)) ingestor.noted(name);
    clock.ms += 250;
    expect(ingestor.ingestReady().map((f) => f.name)).toEqual([DEMO_FILES[2]]);
    expect(counted.listings).toBe(9);

    // A file whose events were missed is found by the next full listing (at most a minute later), and the
    // interval drops back to the shortest, as events seem to be missed.
    copyDemo(records, 3);
    clock.ms += 60_000;
    expect(ingestor.ingestReady().map((f) => f.name)).toEqual([DEMO_FILES[3]]);
    expect(counted.listings).toBe(10);
    clock.ms += 250;
    ingestor.ingestReady();
    expect(counted.listings).toBe(11);
  });
});

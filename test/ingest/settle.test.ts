/**
 * Without signatures a record file is complete once it has looked the same for a quiet period, measured on a
 * clock the test drives: a file written in two halves is never taken (nor called corrupt) half way, however
 * close together two looks come.
 */
import { copyFileSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createIngestor } from "../../src/ingest/ingestor.ts";
import { isSettled, nextLooks } from "../../src/ingest/settle.ts";
import { createLogger } from "../../src/log.ts";
import { openWriter } from "../../src/store/db.ts";
import { createWriteStore } from "../../src/store/write-store.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { tempDir } from "../helpers/service.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** An ingestor without signatures over `dir`, on a clock the test sets. */
function ingestorOn(dir: string, dbDir: string, settleMs: number) {
  const clock = { ms: Date.now() + 60_000 };
  const db = openWriter(join(dbDir, "index.db"), { durable: false });
  const ingestor = createIngestor({
    dir,
    store: createWriteStore(db),
    waitSignatures: false,
    settleMs,
    now: () => clock.ms,
    log: createLogger("silent"),
  });
  cleanups.push(() => {
    ingestor.close();
    db.close();
  });
  return { ingestor, clock };
}

describe("a record file still being written", () => {
  it("is not taken until it has looked the same for the quiet period, and is never called corrupt", () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const source = fixtureStream("demo");
    const names = readdirSync(source)
      .filter((name) => name.endsWith(".rcd.gz"))
      .sort();
    expect(names.length).toBeGreaterThanOrEqual(3);
    // Modification times are set on the test's clock: the two whole files were written a minute ago.
    const t = Date.now();
    for (const name of names.slice(0, 2)) {
      copyFileSync(join(source, name), join(dir, name));
      utimesSync(join(dir, name), (t - 60_000) / 1000, (t - 60_000) / 1000);
    }
    const third = names[2]!;
    const bytes = readFileSync(join(source, third));
    writeFileSync(join(dir, third), bytes.subarray(0, bytes.length >> 1));
    utimesSync(join(dir, third), t / 1000, t / 1000);

    const { ingestor, clock } = ingestorOn(dir, dir, 1000);
    // First look, 5 ms after the first half: the two whole files are old enough by their times.
    clock.ms = t + 5;
    expect(ingestor.ingestReady().map((f) => f.name)).toEqual(names.slice(0, 2));
    // A second look 5 ms later sees the same size: not enough (main took the half file here and stopped).
    clock.ms = t + 10;
    expect(() => ingestor.ingestReady()).not.toThrow();
    expect(ingestor.tip()?.name).toBe(names[1]);
    // The writer finishes the file 300 ms after the first half.
    writeFileSync(join(dir, third), bytes);
    utimesSync(join(dir, third), (t + 300) / 1000, (t + 300) / 1000);
    clock.ms = t + 310;
    expect(ingestor.ingestReady()).toEqual([]);
    clock.ms = t + 1299;
    expect(ingestor.ingestReady()).toEqual([]);
    clock.ms = t + 1300;
    expect(ingestor.ingestReady().map((f) => f.name)).toEqual([third]);
  });
});

describe("the quiet period (settle.ts)", () => {
  it("counts from the first look at the same size and modification time, or from the modification time", () => {
    const t = 1_000_000;
    const first = nextLooks([{ key: "a", size: 10, modifiedMs: t }], new Map(), t);
    expect(isSettled("a", 10, t, { looks: first, nowMs: t + 10, settleMs: 1000 })).toBe(false);
    expect(isSettled("a", 10, t, { looks: first, nowMs: t + 1000, settleMs: 1000 })).toBe(true);
    // Modified again (same size): the quiet period starts over.
    const second = nextLooks([{ key: "a", size: 10, modifiedMs: t + 500 }], first, t + 600);
    expect(isSettled("a", 10, t + 500, { looks: second, nowMs: t + 1000, settleMs: 1000 })).toBe(false);
    // A file untouched for the quiet period is whole on the first look; an empty one never is.
    expect(isSettled("b", 10, t - 1000, { looks: new Map(), nowMs: t, settleMs: 1000 })).toBe(true);
    expect(isSettled("c", 0, t - 5000, { looks: new Map(), nowMs: t, settleMs: 1000 })).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { readyRecordFiles } from "../../src/ingest/files.ts";

const A = "2025-01-01T00_00_00.000000000Z.rcd.gz";
const B = "2025-01-01T00_00_02.000000000Z.rcd.gz";
const C = "2025-01-01T00_00_04.000000000Z.rcd.gz";

describe("which record files are complete without signatures", () => {
  const now = 1_000_000;
  it("takes files untouched for the quiet time on the first look, and stops at the first recent one", () => {
    const entries = [
      { name: A, size: 10, modifiedMs: now - 5000 },
      { name: B, size: 10, modifiedMs: now - 100 },
      { name: C, size: 10, modifiedMs: now - 5000 },
    ];
    const ready = readyRecordFiles(entries, null, {
      mode: "stable-size",
      looks: new Map(),
      nowMs: now,
      settleMs: 1000,
    });
    expect(ready.map((e) => e.name)).toEqual([A]);
  });

  it("takes a recent file once its size has been unchanged for the quiet period, never an empty one", () => {
    const entries = [
      { name: A, size: 10, modifiedMs: now },
      { name: B, size: 0, modifiedMs: now - 5000 },
    ];
    // Both seen at these sizes a second ago.
    const looks = new Map([
      [A, { size: 10, modifiedMs: now, sinceMs: now - 1000 }],
      [B, { size: 0, modifiedMs: now - 5000, sinceMs: now - 1000 }],
    ]);
    const ready = readyRecordFiles(entries, null, {
      mode: "stable-size",
      looks,
      nowMs: now,
      settleMs: 1000,
    });
    expect(ready.map((e) => e.name)).toEqual([A]);
    const grown = readyRecordFiles([{ name: A, size: 12, modifiedMs: now }], null, {
      mode: "stable-size",
      looks,
      nowMs: now,
      settleMs: 1000,
    });
    expect(grown).toEqual([]);
  });

  it("without modification times, needs a second look the quiet period after the first", () => {
    const ready = readyRecordFiles([{ name: A, size: 10 }], null, {
      mode: "stable-size",
      looks: new Map(),
      nowMs: now,
      settleMs: 1000,
    });
    expect(ready).toEqual([]);
    const soon = new Map([[A, { size: 10, modifiedMs: undefined, sinceMs: now - 999 }]]);
    expect(
      readyRecordFiles([{ name: A, size: 10 }], null, {
        mode: "stable-size",
        looks: soon,
        nowMs: now,
        settleMs: 1000,
      }),
    ).toEqual([]);
  });
});

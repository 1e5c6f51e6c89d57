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
      previousSizes: new Map(),
      nowMs: now,
      quietMs: 1000,
    });
    expect(ready.map((e) => e.name)).toEqual([A]);
  });

  it("takes a recent file once its size is unchanged on a second look, never an empty one", () => {
    const entries = [
      { name: A, size: 10, modifiedMs: now },
      { name: B, size: 0, modifiedMs: now - 5000 },
    ];
    const previousSizes = new Map([
      [A, 10],
      [B, 0],
    ]);
    const ready = readyRecordFiles(entries, null, {
      mode: "stable-size",
      previousSizes,
      nowMs: now,
      quietMs: 1000,
    });
    expect(ready.map((e) => e.name)).toEqual([A]);
    const grown = readyRecordFiles([{ name: A, size: 12, modifiedMs: now }], null, {
      mode: "stable-size",
      previousSizes,
      nowMs: now,
      quietMs: 1000,
    });
    expect(grown).toEqual([]);
  });

  it("without modification times, needs the second look", () => {
    const ready = readyRecordFiles([{ name: A, size: 10 }], null, {
      mode: "stable-size",
      previousSizes: new Map(),
    });
    expect(ready).toEqual([]);
  });
});

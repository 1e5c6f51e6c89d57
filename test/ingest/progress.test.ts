import { describe, expect, it } from "vitest";
import { createProgressMeter } from "../../src/ingest/progress.ts";

describe("catch-up progress", () => {
  it("counts files and transactions, and estimates the time left from the recent pace", () => {
    let now = 0;
    const meter = createProgressMeter(() => now);
    expect(meter.snapshot(10)).toEqual({
      filesApplied: 0,
      transactionsApplied: 0,
      filesLeft: 10,
      filesPerSecond: 0,
      transactionsPerSecond: 0,
      etaSeconds: null,
    });
    for (let i = 0; i < 4; i++) meter.committed(500);
    now = 2000;
    const p = meter.snapshot(6);
    expect(p).toMatchObject({ filesApplied: 4, transactionsApplied: 2000, filesLeft: 6 });
    expect(p.filesPerSecond).toBe(2);
    expect(p.transactionsPerSecond).toBe(1000);
    expect(p.etaSeconds).toBe(3);
  });

  it("follows a change of pace within about ten seconds", () => {
    let now = 0;
    const meter = createProgressMeter(() => now);
    // 10 files a second for 30 s, then 1 file a second for 20 s.
    for (let s = 1; s <= 50; s++) {
      for (let f = 0; f < (s <= 30 ? 10 : 1); f++) meter.committed(1);
      now = s * 1000;
      meter.snapshot(100);
    }
    const p = meter.snapshot(100);
    expect(p.filesPerSecond).toBeCloseTo(1, 0);
    expect(p.etaSeconds).toBeGreaterThanOrEqual(90);
  });

  it("says nothing is left once nothing is", () => {
    const meter = createProgressMeter(() => 0);
    expect(meter.snapshot(0).etaSeconds).toBe(0);
  });
});

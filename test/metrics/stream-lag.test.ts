import { describe, expect, it } from "vitest";
import { fileNameTimeNs, secondsBehind } from "../../src/metrics/stream-lag.ts";

describe("how far the index is behind the folder", () => {
  it("reads a record file's start from its name, to the nanosecond", () => {
    expect(fileNameTimeNs("2022-07-13T08_46_08.041986003Z.rcd.gz")).toBe(1_657_701_968_041_986_003n);
    expect(fileNameTimeNs("2019-09-13T21_53_51.396440Z.rcd")).toBe(1_568_411_631_396_440_000n);
    expect(fileNameTimeNs("2019-09-13T21_53_51Z.rcd")).toBe(1_568_411_631_000_000_000n);
    expect(fileNameTimeNs("index.db")).toBeNull();
  });

  it("is the consensus time between the last applied file and the newest complete one", () => {
    const last = "2022-07-13T08_46_08.041986003Z.rcd.gz";
    expect(secondsBehind(last, "2022-07-13T08_46_11.304284003Z.rcd.gz")).toBe(3.262);
    expect(secondsBehind(last, last)).toBe(0);
    expect(secondsBehind(last, null)).toBe(0);
    expect(secondsBehind(null, null)).toBe(0);
    // Nothing applied yet: measured from the oldest file waiting, and never NaN.
    expect(secondsBehind(null, "2022-07-13T08_46_11.304284003Z.rcd.gz", last)).toBe(3.262);
    expect(secondsBehind(null, last)).toBe(0);
  });

  it("takes a block's start from its header and the last applied file's from what was applied", () => {
    const block = `${"9".padStart(36, "0")}.blk.zstd`;
    const lastBlock = `${"4".padStart(36, "0")}.blk.zstd`;
    const starts = (last: bigint | null, newest: bigint | null) => ({ last, newest });
    expect(secondsBehind(lastBlock, block, null, starts(1_000_000_000_000n, 1_012_345_678_901n))).toBe(
      12.345,
    );
    expect(secondsBehind(block, block, null, starts(1n, 2n))).toBe(0);
    // Blocks waiting behind record files: the record file's time from its name, the block's from its header.
    const record = "2022-07-13T08_46_08.041986003Z.rcd.gz";
    expect(secondsBehind(record, block, null, starts(null, 1_657_701_970_041_986_003n))).toBe(2);
    // A newest block whose header could not be read yet: nothing to measure with.
    expect(secondsBehind(lastBlock, block, null, starts(1n, null))).toBe(0);
    expect(secondsBehind(null, block, null, starts(null, 5n))).toBe(0);
  });
});

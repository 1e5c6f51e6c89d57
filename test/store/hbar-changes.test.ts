import { describe, expect, it } from "vitest";
import { balanceInChanges, encodeChanges } from "../../src/store/hbar-changes.ts";

describe("the changes blob of an hbar_balance row", () => {
  const flat = [100n, 5n, 250n, -7n, 251n, 9_223_372_036_854_775_807n, 1_000n, 0n];
  const blob = encodeChanges(flat);

  it("holds 16 bytes per change", () => {
    expect(blob).toHaveLength(64);
  });

  it.each([
    [99n, null],
    [100n, 5n],
    [249n, 5n],
    [250n, -7n],
    [251n, 9_223_372_036_854_775_807n],
    [999n, 9_223_372_036_854_775_807n],
    [1_000n, 0n],
    [5_000n, 0n],
  ])("at %s reads %s", (at, balance) => {
    expect(balanceInChanges(blob, at)).toBe(balance);
  });

  it("reads a blob that is a view into a larger buffer (as SQLite hands it over)", () => {
    const padded = new Uint8Array(blob.length + 8);
    padded.set(blob, 8);
    expect(balanceInChanges(padded.subarray(8), 250n)).toBe(-7n);
  });
});

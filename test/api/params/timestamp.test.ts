import { describe, expect, it } from "vitest";
import { formatTimestamp, isValidTimestamp, parseTimestamp } from "../../../src/api/params/timestamp.ts";

describe("parseTimestamp", () => {
  it("pads the fraction on the right", () => {
    expect(parseTimestamp("1.5")).toBe(1_500_000_000n);
    expect(parseTimestamp("1676540001.2345")).toBe(1_676_540_001_234_500_000n);
    expect(parseTimestamp("1234567890.000000002")).toBe(1_234_567_890_000_000_002n);
    expect(parseTimestamp("1234567890")).toBe(1_234_567_890_000_000_000n);
    expect(parseTimestamp("0")).toBe(0n);
  });

  it("rejects everything outside seconds (1-10 digits) with an optional 1-9 digit fraction", () => {
    for (const bad of [
      "",
      "-1",
      "-1.2",
      "1.",
      ".5",
      "12345678901",
      "1.1234567890",
      "now",
      "1e9",
      "1,5",
      " 1",
    ]) {
      expect(isValidTimestamp(bad)).toBe(false);
      expect(parseTimestamp(bad)).toBeNull();
    }
    expect(isValidTimestamp("9999999999.999999999")).toBe(true);
  });
});

describe("formatTimestamp", () => {
  it("prints seconds without leading zeros and nine nanosecond digits", () => {
    expect(formatTimestamp(5430n)).toBe("0.000005430");
    expect(formatTimestamp(0n)).toBe("0.000000000");
    expect(formatTimestamp(1_000_000_000n)).toBe("1.000000000");
    expect(formatTimestamp(1_676_540_001_234_600_000n)).toBe("1676540001.234600000");
  });

  it("round-trips through parseTimestamp", () => {
    for (const ns of [1n, 999_999_999n, 1_234_567_890_000_000_007n, 9_999_999_999_999_999_999n]) {
      expect(parseTimestamp(formatTimestamp(ns))).toBe(ns);
    }
  });
});

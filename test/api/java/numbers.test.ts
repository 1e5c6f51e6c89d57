import { describe, expect, it } from "vitest";
import { javaFloatText, javaFractionJson, roundedFractionText } from "../../../src/api/views/java-numbers.ts";

describe("Java float texts", () => {
  it("round half-up to 9 decimals", () => {
    expect(roundedFractionText(1n, 3n)).toBe("0.333333333");
    expect(roundedFractionText(2n, 3n)).toBe("0.666666667");
    expect(roundedFractionText(1n, 2_000_000_000n)).toBe("0.000000001"); // 0.5e-9 rounds up
    expect(roundedFractionText(1n, 2_000_000_001n)).toBe("0.000000000");
    expect(roundedFractionText(-1n, 3n)).toBe("-0.333333333");
  });

  it("print as Float.toString does", () => {
    expect(javaFloatText(Math.fround(1))).toBe("1.0");
    expect(javaFloatText(Math.fround(0.5))).toBe("0.5");
    expect(javaFloatText(Math.fround(0.333333333))).toBe("0.33333334");
    expect(javaFloatText(Math.fround(0.1))).toBe("0.1");
    expect(javaFloatText(Math.fround(0.0001))).toBe("1.0E-4");
    expect(javaFloatText(Math.fround(12345678))).toBe("1.2345678E7");
    expect(javaFloatText(Math.fround(100))).toBe("100.0");
    expect(javaFloatText(Math.fround(0.001))).toBe("0.001");
  });

  it("write fractions, 0.0 for a zero denominator", () => {
    expect(javaFractionJson(1n, 1n)).toBe("1.0");
    expect(javaFractionJson(1n, 3n)).toBe("0.33333334");
    expect(javaFractionJson(5n, 0n)).toBe("0.0");
    expect(javaFractionJson(1n, 10n)).toBe("0.1");
  });
});

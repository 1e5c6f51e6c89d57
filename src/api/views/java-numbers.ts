/**
 * Number and timestamp texts as upstream's Java service prints them.
 *
 * Stake fractions are Java `float`s: numerator ÷ denominator rounded half-up to 9 decimals (BigDecimal), then
 * narrowed to a float and written by Jackson as `Float.toString` does: the shortest digits that identify the
 * float, `1.0` rather than `1`, and scientific notation (`1.0E-4`) below 10^-3 or from 10^7 up.
 */
import { formatTimestamp } from "../../time.ts";

const SCALE = 1_000_000_000n;

/** `numerator / denominator` rounded half-up (away from zero on a tie) to 9 decimals, as decimal text. */
export function roundedFractionText(numerator: bigint, denominator: bigint): string {
  if (denominator === 0n) return "0";
  const negative = numerator < 0n !== denominator < 0n && numerator !== 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const scaled = n * SCALE;
  let q = scaled / d;
  if ((scaled % d) * 2n >= d) q += 1n;
  const whole = q / SCALE;
  const fraction = (q % SCALE).toString().padStart(9, "0");
  return `${negative && q !== 0n ? "-" : ""}${whole}.${fraction}`;
}

/** Java's `Float.toString` of a value already narrowed to a float (`Math.fround`). */
export function javaFloatText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  // The shortest significant digits that read back as the same float.
  let digits = "";
  let exponent = 0;
  for (let precision = 1; precision <= 9; precision++) {
    const text = abs.toExponential(precision - 1);
    if (Math.fround(Number(text)) === abs) {
      const [mantissa = "", exp = "0"] = text.split("e");
      digits = mantissa.replace(".", "");
      exponent = Number(exp);
      break;
    }
  }
  if (abs >= 1e-3 && abs < 1e7) {
    if (exponent >= 0) {
      const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
      const fraction = digits.slice(exponent + 1) || "0";
      return `${sign}${whole}.${fraction}`;
    }
    return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || "0"}E${exponent}`;
}

/** A stake fraction exactly as upstream writes it into JSON. */
export function javaFractionJson(numerator: bigint, denominator: bigint): string {
  if (denominator === 0n) return "0.0";
  return javaFloatText(Math.fround(Number(roundedFractionText(numerator, denominator))));
}

/** A consensus timestamp as the Java service prints it (`"0.0"` for 0, otherwise `seconds.nanos`). */
export function javaTimestamp(ns: bigint): string {
  return ns === 0n ? "0.0" : formatTimestamp(ns);
}

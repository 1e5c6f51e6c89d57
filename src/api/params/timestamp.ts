/**
 * Consensus timestamps as the Node REST service reads and writes them (`rest/utils.js`:
 * `isValidTimestampParam`, `parseTimestampParam`, `nsToSecNs`).
 *
 * Input is `seconds` (1-10 digits) or `seconds.fraction` (fraction 1-9 digits); the fraction is padded on the
 * right, so `1.5` is 1.500000000 s. (The Java service reads the fraction as raw nanoseconds instead; that is
 * not this module's concern.) Output is `"<seconds>.<9 digits>"`.
 */

import { formatTimestamp } from "../../time.ts";

export { formatTimestamp };

const SECONDS = /^\d{1,10}$/;
const SECONDS_AND_FRACTION = /^\d{1,10}\.\d{1,9}$/;

/** True for the two accepted forms, `1234567890` and `1234567890.000000001`. */
export function isValidTimestamp(value: string): boolean {
  return SECONDS.test(value) || SECONDS_AND_FRACTION.test(value);
}

/** Nanoseconds since the epoch, or null when the value is not an accepted timestamp. */
export function parseTimestamp(value: string): bigint | null {
  if (!isValidTimestamp(value)) return null;
  const [seconds = "0", fraction = ""] = value.split(".");
  return BigInt(seconds) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
}

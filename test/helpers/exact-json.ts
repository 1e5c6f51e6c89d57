/**
 * JSON for tests that compare int64 values exactly: every integer literal becomes a bigint (a double would
 * round amounts and fees past 2^53), everything else parses as `JSON.parse` would.
 */
const MARK = "\u0000int:";

/** Parses JSON text, giving every integer (no fraction, no exponent) as a bigint. */
export function parseExactJson(text: string): unknown {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
      const literal = text.slice(i, j);
      out += /^-?\d+$/.test(literal) ? JSON.stringify(`${MARK}${literal}`) : literal;
      i = j - 1;
      continue;
    }
    out += c;
  }
  return JSON.parse(out, (_key, value) =>
    typeof value === "string" && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value,
  );
}

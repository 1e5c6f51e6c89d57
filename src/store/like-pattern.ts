/**
 * PostgreSQL `ILIKE` matching without regular expressions, for `GET /api/v1/tokens?name=`.
 *
 * The public mirror node filters token names with `name ILIKE '%<value>%'`: the value goes into the pattern
 * as sent, so `%` in it is any run of characters, `_` any one character, and a backslash (PostgreSQL's default
 * LIKE escape) makes the next character literal. That includes the closing `%` when the value ends in an odd
 * backslash: `abc\` becomes `%abc\%`, "ends with abc%". Letters match regardless of case (both sides lower-cased
 * per character, as PostgreSQL's `lower()` does).
 *
 * Values come from requests, so the matcher must stay cheap for any pattern: a wildcard-only scan that
 * backtracks to the most recent `%` alone takes at most (name length × pattern length) steps, never the
 * exponential time a backtracking regular expression can take on `%_%_%_…`.
 */

/** One element of a compiled pattern: a code point (already lower-cased), any one character, or any run. */
type PatternItem = string | typeof ONE | typeof ANY;

const ONE = 1;
const ANY = 2;

export type LikePattern = readonly PatternItem[];

/** Compiles the `ILIKE` pattern `%<value>%` (see the module comment). */
export function compileContainsPattern(value: string): LikePattern {
  const chars = [...`%${value}%`];
  const items: PatternItem[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "\\" && i + 1 < chars.length) {
      items.push(lowerChar(chars[++i]!));
    } else if (c === "%") {
      // Consecutive `%` mean the same as one; collapsing them keeps the scan's backtracking to one point.
      if (items.at(-1) !== ANY) items.push(ANY);
    } else if (c === "_") {
      items.push(ONE);
    } else {
      items.push(lowerChar(c));
    }
  }
  return items;
}

/** Whether `text` matches the compiled pattern as a whole, ignoring case. */
export function matchesLike(text: string, pattern: LikePattern): boolean {
  const chars = [...text].map(lowerChar);
  let t = 0;
  let p = 0;
  // Where the last `%` was seen, and the text position it currently stands for the end of.
  let starP = -1;
  let starT = 0;
  while (t < chars.length) {
    const item = pattern[p];
    if (item === ANY) {
      starP = p++;
      starT = t;
    } else if (item !== undefined && (item === ONE || item === chars[t])) {
      p++;
      t++;
    } else if (starP !== -1) {
      // Let the last `%` swallow one more character and retry what follows it. Earlier `%` never need to
      // move: whatever follows the last one is free to start anywhere to its right.
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (pattern[p] === ANY) p++;
  return p === pattern.length;
}

/**
 * One character lower-cased on its own, like PostgreSQL's per-character `lower()`: a mapping that would turn
 * one character into several (`İ`) keeps the character, so `_` still counts what the name holds.
 */
function lowerChar(c: string): string {
  const lower = c.toLowerCase();
  return lower.length === c.length ? lower : c;
}

/**
 * The runs of literal characters in the `ILIKE` pattern `%<value>%`, in order (wildcards end a run; a
 * backslash makes the next character literal). A name matching the pattern contains each run, whatever the
 * case: what a substring index can look up before the exact match.
 */
export function literalRuns(value: string): string[] {
  const chars = [...value];
  const runs: string[] = [];
  let run = "";
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "\\" && i + 1 < chars.length) {
      run += chars[++i]!;
    } else if (c === "%" || c === "_" || c === "\\") {
      // A lone trailing backslash escapes the closing `%`: the run ends there too.
      if (run !== "") runs.push(run);
      run = "";
    } else {
      run += c;
    }
  }
  if (run !== "") runs.push(run);
  return runs;
}

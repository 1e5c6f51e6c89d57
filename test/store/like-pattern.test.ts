import { describe, expect, it } from "vitest";
import { compileContainsPattern, matchesLike } from "../../src/store/like-pattern.ts";

const contains = (name: string, value: string) => matchesLike(name, compileContainsPattern(value));

describe("ILIKE '%value%' without regular expressions", () => {
  it("matches substrings regardless of case, with % and _ as wildcards", () => {
    expect(contains("Rain Drop", "rain")).toBe(true);
    expect(contains("Rain Drop", "IN D")).toBe(true);
    expect(contains("Rain Drop", "ra_n")).toBe(true);
    expect(contains("Rain Drop", "ain%rop")).toBe(true);
    expect(contains("Rain Drop", "rop%ain")).toBe(false);
    expect(contains("Rain Drop", "drops")).toBe(false);
    expect(contains("abc", "a_c")).toBe(true);
    expect(contains("ac", "a_c")).toBe(false);
    expect(contains("abc", "___")).toBe(true);
    expect(contains("ab", "___")).toBe(false);
  });

  it("folds case per character, Unicode included, and counts characters for _", () => {
    expect(contains("Çafé ℏ Beans", "çAFÉ ℏ")).toBe(true);
    // Per character, as PostgreSQL lower-cases: Σ is σ, never the final ς.
    expect(contains("ΣΊΣΥΦΟΣ rolls", "σίσυφοσ")).toBe(true);
    expect(contains("ΣΊΣΥΦΟΣ rolls", "σίσυφος")).toBe(false);
    expect(contains("a😀b", "a_b")).toBe(true);
    expect(contains("a😀b", "a__b")).toBe(false);
  });

  it("takes a backslash as PostgreSQL's escape: the next character is literal", () => {
    expect(contains("50% off", "50\\%")).toBe(true);
    expect(contains("50x off", "50\\%")).toBe(false);
    expect(contains("a_b", "a\\_b")).toBe(true);
    expect(contains("axb", "a\\_b")).toBe(false);
    expect(contains("back\\slash", "k\\\\s")).toBe(true);
    // A value ending in one backslash escapes the closing `%`: the name must end with the value and `%`.
    expect(contains("gain 50%", "50\\")).toBe(true);
    expect(contains("50% gain", "50\\")).toBe(false);
    expect(contains("50\\ gain", "50\\")).toBe(false);
  });

  it("answers patterns that make a backtracking regular expression explode", () => {
    const name = "a".repeat(100);
    const hostile = `${"%_".repeat(50)}!`;
    expect(contains(name, hostile)).toBe(false);
    expect(contains(`${name}!`, hostile)).toBe(true);
    expect(contains(name, "_".repeat(100))).toBe(true);
    expect(contains(name, "_".repeat(101))).toBe(false);
  });
});

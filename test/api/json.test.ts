import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteString, toJson } from "../../src/api/json.ts";

/** Any string, lone surrogates and control characters included. */
const anyString = fc.string({ unit: "binary", maxLength: 40 });

/** JSON-like values without bigints, with any strings as values and keys. */
const plainValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("toJson", () => {
  it("writes what JSON.stringify writes for values without bigints", () => {
    fc.assert(
      fc.property(plainValue, (value) => {
        expect(toJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 2000, seed: 18 },
    );
  });

  it("quotes strings as JSON.stringify does, escapes and unpaired surrogates included", () => {
    fc.assert(
      fc.property(anyString, (text) => {
        expect(quoteString(text)).toBe(JSON.stringify(text));
      }),
      { numRuns: 5000, seed: 18 },
    );
    for (const text of ['a"b', "a\\b", "\u0000", "\u001f", "\ud800", "\udc00x", "😀", "\u2028", ""]) {
      expect(quoteString(text)).toBe(JSON.stringify(text));
    }
  });

  it("prints bigints exactly, leaves out undefined fields and keeps key order", () => {
    const value = { b: 9223372036854775807n, a: undefined, c: [-9223372036854775808n, undefined], d: {} };
    expect(toJson(value)).toBe('{"b":9223372036854775807,"c":[-9223372036854775808,null],"d":{}}');
    expect(toJson({ a: undefined })).toBe("{}");
  });
});

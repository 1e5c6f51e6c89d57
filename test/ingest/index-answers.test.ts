/**
 * The ingest path may be rewritten for speed, never for different answers: every golden stream, ingested by
 * this build, must answer every tokens and blocks question exactly as the reference build did when it wrote
 * `golden/index-answers.json` (main's ingest path before issue 11; see golden/write-index-answers.ts), and
 * hold the same rows in every table (`golden/index-tables.json`).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Answer, answersOf, GOLDEN_STREAMS, type TableDigests } from "../helpers/index-answers.ts";
import { GOLDEN_FILE, TABLES_FILE } from "./golden/golden-file.ts";

const golden = JSON.parse(readFileSync(GOLDEN_FILE, "utf8")) as Record<string, Answer[]>;
const goldenTables = JSON.parse(readFileSync(TABLES_FILE, "utf8")) as Record<string, TableDigests>;

describe("the index answers exactly as the reference build's", () => {
  it("covers every golden stream with answers that say something", () => {
    expect(Object.keys(golden).sort()).toEqual([...GOLDEN_STREAMS].sort());
    const bulk = golden["bulk:small"] ?? [];
    // Thousands of transfers, balances as of past instants, NFTs moved: not a list of 404s.
    expect(bulk.filter((a) => a.status === 200 && a.path.includes("/balances")).length).toBeGreaterThan(200);
    expect(bulk.filter((a) => a.status === 200 && a.path.includes("/nfts/")).length).toBeGreaterThan(50);
  });

  for (const stream of GOLDEN_STREAMS) {
    it(`answers ${stream} as before`, { timeout: 120_000 }, async () => {
      const reference = goldenTables[stream] ?? {};
      const columnsOf = Object.fromEntries(Object.entries(reference).map(([t, d]) => [t, d.columns]));
      const { answers, tables } = await answersOf(stream, columnsOf);
      // The index itself, row for row, over the columns the reference build had.
      expect(tables).toEqual(reference);
      const expected = golden[stream] ?? [];
      expect(answers.map((a) => a.path)).toEqual(expected.map((a) => a.path));
      for (let i = 0; i < expected.length; i++) expect(answers[i]).toEqual(expected[i]);
    });
  }
});

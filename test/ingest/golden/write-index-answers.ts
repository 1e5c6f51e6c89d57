/**
 * Writes `index-answers.json`, every answer `crawlIndex` gets from each golden stream, and `index-tables.json`,
 * a digest of every table of each stream's index. Run it with the build
 * whose answers are the reference (it was first run on main before the ingest path was made faster):
 *
 *   node --import tsx test/ingest/golden/write-index-answers.ts
 *
 * `index-answers.test.ts` then checks that the current build gives exactly these answers.
 */
import { writeFileSync } from "node:fs";
import { answersOf, GOLDEN_STREAMS } from "../../helpers/index-answers.ts";
import { GOLDEN_FILE, TABLES_FILE } from "./golden-file.ts";

const golden: Record<string, unknown> = {};
const tables: Record<string, unknown> = {};
for (const stream of GOLDEN_STREAMS) {
  const result = await answersOf(stream);
  golden[stream] = result.answers;
  tables[stream] = result.tables;
  console.log(`${stream}: ${result.answers.length} answers`);
}
writeFileSync(TABLES_FILE, `${JSON.stringify(tables, null, 1)}\n`);
// One answer per line: a difference shows as the lines of the answers that changed.
const streams = Object.entries(golden).map(
  ([stream, answers]) =>
    `${JSON.stringify(stream)}: [\n${(answers as unknown[]).map((a) => JSON.stringify(a)).join(",\n")}\n]`,
);
writeFileSync(GOLDEN_FILE, `{\n${streams.join(",\n")}\n}\n`);

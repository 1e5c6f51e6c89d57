import { fileURLToPath } from "node:url";

/** The reference answers of every golden stream (see write-index-answers.ts). */
export const GOLDEN_FILE = fileURLToPath(new URL("./index-answers.json", import.meta.url));

/** Digests of every table of each golden stream's index (see write-index-answers.ts). */
export const TABLES_FILE = fileURLToPath(new URL("./index-tables.json", import.meta.url));

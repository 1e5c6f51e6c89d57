import { type BlockQueries, createBlockQueries } from "./blocks.ts";
import type { Db } from "./db.ts";
import { createTokenQueries, type TokenQueries } from "./tokens.ts";

/** Every read query the API uses, prepared once on the read-only connection. */
export type ReadStore = { db: Db; tokens: TokenQueries; blocks: BlockQueries };

export function createReadStore(db: Db): ReadStore {
  return { db, tokens: createTokenQueries(db), blocks: createBlockQueries(db) };
}

import type { Statement } from "better-sqlite3";
import { bounds, type Condition, direction, type Order, WhereBuilder } from "./conditions.ts";
import type { Db } from "./db.ts";

/** A `record_file` row as the blocks API reads it (better-sqlite3 safe integers: every INTEGER is a bigint). */
export type BlockRow = {
  number: bigint;
  name: string;
  hapi_major: bigint | null;
  hapi_minor: bigint | null;
  hapi_patch: bigint | null;
  /** Lower-case hex, 96 digits. */
  hash: string;
  previous_hash: string;
  consensus_start: bigint;
  consensus_end: bigint;
  count: bigint;
  size: bigint | null;
  gas_used: bigint;
  /** Empty when no top-level transaction of the block has a contract result. */
  logs_bloom: Buffer | null;
};

export type BlockColumn = "number" | "consensus_end";

/** One page of blocks: conditions on the number and on the consensus end, all ANDed. */
export type BlockListQuery = {
  blockNumbers: readonly Condition<bigint>[];
  consensusEnds: readonly Condition<bigint>[];
  orderBy: BlockColumn;
  order: Order;
  limit: number;
};

export type BlockQueries = {
  /** The numbers of one page of blocks, in page order. */
  listBlockNumbers(query: BlockListQuery): bigint[];
  getBlockByNumber(number: bigint): BlockRow | undefined;
  /**
   * The block whose hash starts with `hashPrefix` (lower-case hex). Undefined when none does, or when more
   * than one does: the mirror node answers an ambiguous prefix with 404 too.
   */
  getBlockByHashPrefix(hashPrefix: string): BlockRow | undefined;
  /** The newest block's number; null before the first block. */
  latestBlockNumber(): bigint | null;
};

const COLUMNS =
  "number, name, hapi_major, hapi_minor, hapi_patch, hash, previous_hash, consensus_start, consensus_end, " +
  "count, size, gas_used, logs_bloom";

/** Distinct list-query shapes kept prepared; clients can make arbitrarily many, so the cache is bounded. */
const MAX_CACHED_STATEMENTS = 256;

type ListStatement = Statement<Array<bigint | number>, bigint>;

/**
 * Lists return block numbers only: reading 13 columns into objects costs several times more than the whole
 * page's index walk, and the API keeps the rendered JSON of recent blocks (blocks never change).
 */
export function createBlockQueries(db: Db): BlockQueries {
  const byNumber = db.prepare<[bigint], BlockRow>(`SELECT ${COLUMNS} FROM record_file WHERE number = ?`);
  // A range on the hash index instead of LIKE: SQLite only uses an index for LIKE under NOCASE collation.
  // Hex digits sort below "g", so every hash with the prefix lies in [prefix, prefix + "g").
  const byHashRange = db.prepare<[string, string], BlockRow>(
    `SELECT ${COLUMNS} FROM record_file WHERE hash >= ? AND hash < ? LIMIT 2`,
  );
  const latest = db.prepare<[], bigint | null>("SELECT max(number) FROM record_file").pluck();
  const listStatements = new Map<string, ListStatement>();

  const listStatement = (sql: string): ListStatement => {
    let statement = listStatements.get(sql);
    if (statement === undefined) {
      if (listStatements.size >= MAX_CACHED_STATEMENTS) listStatements.clear();
      statement = db.prepare<Array<bigint | number>, bigint>(sql).pluck();
      listStatements.set(sql, statement);
    }
    return statement;
  };

  return {
    listBlockNumbers({ blockNumbers, consensusEnds, orderBy, order, limit }) {
      const where = new WhereBuilder()
        .compare("number", blockNumbers)
        .compare("consensus_end", consensusEnds);
      if (!bounds(orderBy === "number" ? blockNumbers : consensusEnds)) where.startOf(orderBy, order);
      const sql = `SELECT number FROM record_file ${where.sql()} ORDER BY ${orderBy} ${direction(order)} LIMIT +?`;
      return listStatement(sql).all(...(where.params as bigint[]), limit);
    },

    getBlockByNumber(number) {
      return byNumber.get(number);
    },

    getBlockByHashPrefix(hashPrefix) {
      const rows = byHashRange.all(hashPrefix, `${hashPrefix}g`);
      return rows.length === 1 ? rows[0] : undefined;
    },

    latestBlockNumber() {
      return latest.get() ?? null;
    },
  };
}

import type { Statement } from "better-sqlite3";
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

export type BlockOperator = "eq" | "ne" | "lt" | "lte" | "gt" | "gte";

/** One condition of a block list; all of a list's conditions are ANDed. */
export type BlockCondition = { column: BlockColumn; op: BlockOperator; value: bigint };

export type BlockListQuery = {
  conditions: readonly BlockCondition[];
  orderBy: BlockColumn;
  order: "asc" | "desc";
  limit: number;
};

export type BlockQueries = {
  /** The numbers of one page of blocks, in page order. */
  listBlockNumbers(query: BlockListQuery): bigint[];
  getBlockByNumber(number: bigint): BlockRow | undefined;
  /**
   * The number of the block whose hash starts with `hashPrefix` (lower-case hex). Undefined when none does,
   * or when more than one does: the mirror node answers an ambiguous prefix with 404 too.
   */
  findBlockNumberByHashPrefix(hashPrefix: string): bigint | undefined;
  /** The newest block's number; null before the first block. */
  latestBlockNumber(): bigint | null;
};

const COLUMNS =
  "number, name, hapi_major, hapi_minor, hapi_patch, hash, previous_hash, consensus_start, consensus_end, " +
  "count, size, gas_used, logs_bloom";

const SQL_OPERATORS: Record<BlockOperator, string> = {
  eq: "=",
  ne: "<>",
  lt: "<",
  lte: "<=",
  gt: ">",
  gte: ">=",
};

const MAX_INT64 = (1n << 63n) - 1n;
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
  const byHashRange = db
    .prepare<[string, string], bigint>("SELECT number FROM record_file WHERE hash >= ? AND hash < ? LIMIT 2")
    .pluck();
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
    listBlockNumbers({ conditions, orderBy, order, limit }) {
      const where: string[] = [];
      const params: Array<bigint | number> = [];
      for (const condition of conditions) {
        const bounded = withinInt64(condition);
        if (bounded === false) return [];
        if (bounded === true) continue;
        where.push(`${condition.column} ${SQL_OPERATORS[condition.op]} ?`);
        params.push(condition.value);
      }
      const sql =
        "SELECT number FROM record_file" +
        (where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "") +
        ` ORDER BY ${orderBy} ${order === "asc" ? "ASC" : "DESC"} LIMIT ?`;
      return listStatement(sql).all(...params, limit);
    },

    getBlockByNumber(number) {
      return byNumber.get(number);
    },

    findBlockNumberByHashPrefix(hashPrefix) {
      const numbers = byHashRange.all(hashPrefix, `${hashPrefix}g`);
      return numbers.length === 1 ? numbers[0] : undefined;
    },

    latestBlockNumber() {
      return latest.get() ?? null;
    },
  };
}

/**
 * Conditions whose value lies beyond int64 (a timestamp such as `9999999999.999999999` is 10^19 - 1 ns)
 * cannot be bound to SQLite. Every stored value is an int64, so such a condition is decided without the
 * database: true when every row satisfies it, false when none does; null when it must be queried.
 */
function withinInt64({ op, value }: BlockCondition): boolean | null {
  if (value <= MAX_INT64) return null;
  return op === "lt" || op === "lte" || op === "ne";
}

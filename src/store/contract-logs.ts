/**
 * Read queries of contract logs (contracts.md §5): a page of one contract's logs (a range on the `contract_log`
 * key `(contract_id, consensus_ns, index)`) or of every log (a range on `contract_log_time`), ordered by
 * `(consensus_ns, index)`. Timestamp and index bounds are lexicographic bounds on that pair; a topic filter may
 * let SQLite read `contract_log_topicN` instead (an equality then a time range). `contract_log_time` is forced
 * only without topics, so no statement walks every log.
 */
import { MAX_INT64 } from "../int64.ts";
import { type Condition, direction, type Order, type StatementCache, WhereBuilder } from "./conditions.ts";
import {
  type ContractLogRow,
  LOG_ENTITY_JOIN,
  LOG_SELECT,
  type LogDbRow,
  toLog,
} from "./contract-results.ts";
import type { Db } from "./db.ts";

/** One side of the `(consensus_ns, index)` range: strict or not, on the time alone or on the pair. */
export type LogBound = {
  readonly consensusNs: bigint;
  readonly timeInclusive: boolean;
  /** With an index, the bound is on the pair `(consensus_ns, index)`. */
  readonly index: { readonly value: bigint; readonly inclusive: boolean } | null;
};

export type ContractLogListQuery = {
  /** Only this contract's logs; null: every log. */
  contractId: bigint | null;
  /** Per topic position, the values one of which it must hold (trimmed bytes); empty: no condition. */
  topics: readonly (readonly Buffer[])[];
  /** An exact time (with `indexes` conditions on the index alone), or lower/upper bounds. */
  consensusNs: bigint | null;
  indexes: readonly { op: "eq" | "gt" | "gte" | "lt" | "lte"; value: bigint }[];
  lower: LogBound | null;
  upper: LogBound | null;
  order: Order;
  limit: number;
};

/** The block holding a consensus time: its number, hash (96 hex digits) and gas used. */
export type LogBlock = { number: bigint; hash: string; gasUsed: bigint; startNs: bigint; endNs: bigint };

export type ContractLogQueries = {
  listLogs(query: ContractLogListQuery): ContractLogRow[];
  /** The block whose consensus range holds this time, if indexed. */
  blockAt(consensusNs: bigint): LogBlock | undefined;
  /**
   * The consensus time of the first transaction (in `order`) whose hash is this one (48 bytes) or starts with it
   * (32 bytes: also an Ethereum hash), among those meeting the time conditions; undefined when none.
   */
  firstTimeOfHash(hash: Buffer, timestamps: readonly Condition<bigint>[], order: Order): bigint | undefined;
};

const clamp = (value: bigint) => (value > MAX_INT64 ? MAX_INT64 : value);

function addBound(where: WhereBuilder, bound: LogBound, side: "lower" | "upper"): void {
  const strict = side === "lower" ? ">" : "<";
  if (bound.index === null) {
    where.add(`l.consensus_ns ${strict}${bound.timeInclusive ? "=" : ""} ?`, clamp(bound.consensusNs));
    return;
  }
  // A pair bound also bounds the time alone, which lets every index read a range on its time column.
  where.add(`l.consensus_ns ${strict}= ?`, clamp(bound.consensusNs));
  where.add(
    `(l.consensus_ns, l."index") ${strict}${bound.index.inclusive ? "=" : ""} (?, ?)`,
    clamp(bound.consensusNs),
    bound.index.value,
  );
}

const SQL_OPS = { eq: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** Whether a time meets every condition. */
function meets(value: bigint, conditions: readonly Condition<bigint>[]): boolean {
  return conditions.every(({ op, value: bound }) => {
    if (op === "eq") return value === bound;
    if (op === "ne") return value !== bound;
    if (op === "gt") return value > bound;
    if (op === "gte") return value >= bound;
    if (op === "lt") return value < bound;
    return value <= bound;
  });
}

export function createContractLogQueries(db: Db, statements: StatementCache): ContractLogQueries {
  const blockAt = db.prepare(
    `SELECT number, hash, gas_used, consensus_start, consensus_end FROM record_file WHERE consensus_end >= ?
     ORDER BY consensus_end LIMIT 1`,
  );
  // Hash lookups read the first 4 bytes' entries of the transaction index, then compare the whole prefix.
  const transactionsByHash = db
    .prepare(`SELECT consensus_ns, hash FROM "transaction" WHERE substr(hash, 1, 4) = ? LIMIT 1000`)
    .raw(true);
  const contractHashes = db
    .prepare("SELECT consensus_ns FROM contract_transaction_hash WHERE hash = ? LIMIT 1000")
    .pluck();
  return {
    blockAt(consensusNs) {
      const row = blockAt.get(clamp(consensusNs)) as
        | { number: bigint; hash: string; gas_used: bigint; consensus_start: bigint; consensus_end: bigint }
        | undefined;
      if (row === undefined || row.consensus_start > consensusNs) return undefined;
      return {
        number: row.number,
        hash: row.hash,
        gasUsed: row.gas_used,
        startNs: row.consensus_start,
        endNs: row.consensus_end,
      };
    },

    firstTimeOfHash(hash, timestamps, order) {
      const times: bigint[] = [];
      for (const [ns, full] of transactionsByHash.all(hash.subarray(0, 4)) as Array<[bigint, Buffer]>) {
        if (full.subarray(0, hash.length).equals(hash)) times.push(ns);
      }
      if (hash.length === 32) times.push(...(contractHashes.all(hash) as bigint[]));
      const matching = times.filter((t) => meets(t, timestamps)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return order === "asc" ? matching[0] : matching.at(-1);
    },

    listLogs(query) {
      const { contractId, topics, order, limit } = query;
      const where = new WhereBuilder();
      if (contractId !== null) where.add("l.contract_id = ?", contractId);
      if (query.consensusNs !== null) {
        where.add("l.consensus_ns = ?", clamp(query.consensusNs));
        for (const { op, value } of query.indexes) where.add(`l."index" ${SQL_OPS[op]} ?`, value);
      } else {
        if (query.lower !== null) addBound(where, query.lower, "lower");
        else where.startOf("l.consensus_ns", order);
        if (query.upper !== null) addBound(where, query.upper, "upper");
        for (const { op, value } of query.indexes) where.add(`l."index" ${SQL_OPS[op]} ?`, value);
      }
      // The most selective topic leads: topic0 is usually an event signature shared by every log of that event,
      // the later topics its indexed arguments (addresses, ids). Without statistics SQLite cannot tell, so the
      // all-logs list reads the index of the highest topic given; by contract, SQLite picks between the key and it.
      let lead = -1;
      topics.forEach((values, position) => {
        if (values.length === 0) return;
        lead = position;
        where.in(`l.topic${position}`, values);
      });
      const table =
        contractId !== null
          ? ""
          : `INDEXED BY ${lead === -1 ? "contract_log_time" : `contract_log_topic${lead}`}`;
      const dir = direction(order);
      const sql = `${LOG_SELECT} ${table} ${LOG_ENTITY_JOIN} ${where.sql()}
        ORDER BY l.consensus_ns ${dir}, l."index" ${dir} LIMIT +?`;
      const rows = statements(sql)
        .raw(true)
        .all(...where.params, limit) as LogDbRow[];
      return rows.map(toLog);
    },
  };
}

/**
 * Read queries of the schedules group: a schedule's current version by id, and a page of schedules in id order
 * with conditions on the id and on the creator, each with the signatures it collected.
 *
 * A page is one range read of the current versions: on `schedule_current` (ids between two bounds), or, when the
 * creator conditions name one account, on `schedule_current_by_creator` (that creator, ids between two bounds).
 * Other creator conditions filter the rows of the id range as they are read. `ne` conditions skip at most one
 * row each. The page's signatures are one seek per schedule on `schedule_signature`, in one statement.
 */
import { type Condition, matchesNothing, type Order, type StatementCache } from "./conditions.ts";
import type { Db } from "./db.ts";
import { integerRange } from "./integer-range.ts";

/** A signature a schedule collected. */
export type ScheduleSignatureRow = {
  consensusNs: bigint;
  publicKeyPrefix: Buffer;
  signature: Buffer;
  /** The SignaturePair oneof field number. */
  type: number;
};

/** A schedule as the API shows it (current version). */
export type ScheduleRow = {
  id: bigint;
  createdNs: bigint;
  creatorId: bigint;
  payerId: bigint;
  expirationNs: bigint | null;
  waitForExpiry: boolean;
  memo: string;
  adminKey: Buffer | null;
  deleted: boolean;
  executedNs: bigint | null;
  transactionBody: Buffer;
  /** In consensus order, then signature-map order. */
  signatures: ScheduleSignatureRow[];
};

export type SchedulesQuery = {
  /** ANDed conditions on the schedule id; a null value (an EVM address that names no entity) matches nothing. */
  scheduleIds: readonly Condition<bigint | null>[];
  /** ANDed conditions on the creator; a null value (an EVM address that names no entity) matches nothing. */
  creatorIds: readonly Condition<bigint | null>[];
  order: Order;
  limit: number;
};

export type ScheduleQueries = {
  getSchedule(id: bigint): ScheduleRow | undefined;
  listSchedules(query: SchedulesQuery): ScheduleRow[];
};

const COLUMNS = `id, created_ns, creator_id, payer_id, expiration_ns, wait_for_expiry, memo, admin_key, deleted,
  executed_ns, transaction_body`;

type ScheduleDbRow = [
  id: bigint,
  createdNs: bigint,
  creatorId: bigint,
  payerId: bigint,
  expirationNs: bigint | null,
  waitForExpiry: bigint,
  memo: string,
  adminKey: Buffer | null,
  deleted: bigint,
  executedNs: bigint | null,
  transactionBody: Buffer,
];

type SignatureDbRow = [
  scheduleId: bigint,
  consensusNs: bigint,
  publicKeyPrefix: Buffer,
  signature: Buffer,
  type: bigint,
];

function toRow(row: ScheduleDbRow, signatures: ScheduleSignatureRow[]): ScheduleRow {
  return {
    id: row[0],
    createdNs: row[1],
    creatorId: row[2],
    payerId: row[3],
    expirationNs: row[4],
    waitForExpiry: row[5] !== 0n,
    memo: row[6],
    adminKey: row[7],
    deleted: row[8] !== 0n,
    executedNs: row[9],
    transactionBody: row[10],
    signatures,
  };
}

function toSignature(row: SignatureDbRow): ScheduleSignatureRow {
  return { consensusNs: row[1], publicKeyPrefix: row[2], signature: row[3], type: Number(row[4]) };
}

/**
 * The statement of a page: ids in an inclusive range (and one creator, when `byCreator`), plus, only when asked,
 * the excluded ids and creators as JSON arrays and a creator range, so `ne` values never change the SQL text.
 */
function pageSql(
  order: Order,
  shape: { byCreator: boolean; excludesIds: boolean; excludesCreators: boolean },
) {
  const direction = order === "asc" ? "ASC" : "DESC";
  const index = shape.byCreator ? "schedule_current_by_creator" : "schedule_current";
  return `SELECT ${COLUMNS} FROM schedule INDEXED BY ${index}
    WHERE valid_to IS NULL AND ${shape.byCreator ? "creator_id = ?" : "creator_id >= ? AND creator_id <= ?"}
      AND id >= ? AND id <= ?
      ${shape.excludesIds ? "AND id NOT IN (SELECT value FROM json_each(?))" : ""}
      ${shape.excludesCreators ? "AND creator_id NOT IN (SELECT value FROM json_each(?))" : ""}
    ORDER BY id ${direction} LIMIT +?`;
}

export function createScheduleQueries(db: Db, statements: StatementCache): ScheduleQueries {
  const byId = db.prepare(`SELECT ${COLUMNS} FROM schedule WHERE id = ? AND valid_to IS NULL`).raw(true);
  const signaturesOf = db
    .prepare(
      `SELECT schedule_id, consensus_ns, public_key_prefix, signature, type FROM schedule_signature
       WHERE schedule_id = ? ORDER BY consensus_ns, position`,
    )
    .raw(true);
  const signaturesOfPage = db
    .prepare(
      `SELECT schedule_id, consensus_ns, public_key_prefix, signature, type FROM schedule_signature
       WHERE schedule_id IN (SELECT value FROM json_each(?)) ORDER BY schedule_id, consensus_ns, position`,
    )
    .raw(true);

  return {
    getSchedule(id) {
      const row = byId.get(id) as ScheduleDbRow | undefined;
      if (row === undefined) return undefined;
      return toRow(row, (signaturesOf.all(id) as SignatureDbRow[]).map(toSignature));
    },

    listSchedules({ scheduleIds, creatorIds, order, limit }) {
      if (matchesNothing(scheduleIds) || matchesNothing(creatorIds)) return [];
      const ids = integerRange(scheduleIds as readonly Condition<bigint>[]);
      const creators = integerRange(creatorIds as readonly Condition<bigint>[]);
      if (ids === null || creators === null) return [];
      const byCreator = creators.lower === creators.upper;
      const params: unknown[] = byCreator ? [creators.lower] : [creators.lower, creators.upper];
      params.push(ids.lower, ids.upper);
      if (ids.excluded.length > 0) params.push(jsonIntegers(ids.excluded));
      if (!byCreator && creators.excluded.length > 0) params.push(jsonIntegers(creators.excluded));
      params.push(limit);
      const sql = pageSql(order, {
        byCreator,
        excludesIds: ids.excluded.length > 0,
        excludesCreators: !byCreator && creators.excluded.length > 0,
      });
      const rows = statements(sql)
        .raw(true)
        .all(...params) as ScheduleDbRow[];
      if (rows.length === 0) return [];
      const signatures = new Map<bigint, ScheduleSignatureRow[]>();
      for (const row of signaturesOfPage.all(jsonIntegers(rows.map((r) => r[0]))) as SignatureDbRow[]) {
        const list = signatures.get(row[0]);
        if (list === undefined) signatures.set(row[0], [toSignature(row)]);
        else list.push(toSignature(row));
      }
      return rows.map((row) => toRow(row, signatures.get(row[0]) ?? []));
    },
  };
}

/** A JSON array of int64 values, exact (SQLite's JSON reads integers as 64-bit). */
function jsonIntegers(values: readonly bigint[]): string {
  return `[${values.join(",")}]`;
}

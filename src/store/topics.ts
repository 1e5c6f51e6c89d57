/**
 * Read queries of the topics group: a topic's current version, and consensus messages by topic (a page in
 * consensus order, filtered by time and sequence number), by topic and sequence number, and by consensus time.
 *
 * Every statement is an index seek or a bounded range. A page reads the topic's messages between two consensus
 * times on `topic_message_by_topic`; sequence-number bounds become consensus-time bounds first, one seek each on
 * `topic_message_by_sequence` (a topic's sequence numbers grow with consensus time, so the two orders agree).
 * `ne` conditions only skip rows inside the range, one row each at most.
 */

import type { Condition, Order, StatementCache } from "./conditions.ts";
import { type CustomFeeValue, decodeCustomFees } from "./custom-fees.ts";
import type { Db } from "./db.ts";
import { integerRange } from "./integer-range.ts";

/** A topic's current version, as `GET /api/v1/topics/{id}` shows it. */
export type TopicRow = {
  id: bigint;
  /** Start of the current version: the last create, update or delete. */
  validFrom: bigint;
  createdNs: bigint;
  deleted: boolean;
  memo: string;
  adminKey: Buffer | null;
  submitKey: Buffer | null;
  feeScheduleKey: Buffer | null;
  /** Protobuf `FeeExemptKeyList` (a `KeyList` on the wire) bytes, or null for none. */
  feeExemptKeys: Buffer | null;
  customFees: CustomFeeValue[];
  /** When the fee schedule was last set (create, or an update carrying custom fees); null if never recorded. */
  customFeesNs: bigint | null;
  autoRenewAccountId: bigint | null;
  autoRenewPeriod: bigint | null;
};

/** One consensus message. */
export type TopicMessageRecord = {
  consensusNs: bigint;
  topicId: bigint;
  sequenceNumber: bigint;
  payerId: bigint;
  runningHashVersion: bigint;
  /** The running hash and the message bytes, base64 as the index keeps them. */
  runningHashBase64: string;
  messageBase64: string;
  chunkNum: bigint | null;
  chunkTotal: bigint | null;
  /** The body's initial `TransactionID`, protobuf bytes. */
  initialTransactionId: Buffer | null;
  /** Stored only for a chunk without an initial transaction id. */
  validStartNs: bigint | null;
};

export type TopicMessagesQuery = {
  topicId: bigint;
  /** ANDed conditions on the consensus time (ns). */
  timestamps: readonly Condition<bigint>[];
  /** ANDed conditions on the sequence number. */
  sequenceNumbers: readonly Condition<bigint>[];
  order: Order;
  limit: number;
};

/**
 * A message as a gRPC subscription streams it, in the fewest columns (every column costs the reader more than the
 * bytes in it): consensus time, sequence number, whether the row is `special` (a chunk, or a running hash version
 * other than 3: read it whole with `getMessageAt`), the running hash and the message, base64.
 */
export type TopicStreamRow = [
  consensusNs: bigint,
  sequenceNumber: bigint,
  special: bigint | null,
  runningHashBase64: string,
  messageBase64: string,
];

export type TopicQueries = {
  getTopic(topicId: bigint): TopicRow | undefined;
  /** A page of a topic's messages in consensus order. */
  listMessages(query: TopicMessagesQuery): TopicMessageRecord[];
  /**
   * Up to `limit` messages of a topic with `afterNs < consensus time <= untilNs`, ascending: one range seek on
   * `topic_message_by_topic` (the gRPC API's pages).
   */
  streamMessages(topicId: bigint, afterNs: bigint, untilNs: bigint, limit: number): TopicStreamRow[];
  getMessageBySequence(topicId: bigint, sequenceNumber: bigint): TopicMessageRecord | undefined;
  getMessageAt(consensusNs: bigint): TopicMessageRecord | undefined;
};

/** Running hashes of version 3 (every current node's) are stored as NULL. */
const CURRENT_RUNNING_HASH_VERSION = 3n;

const MESSAGE_COLUMNS = `consensus_ns, topic_id, sequence_number, payer_id, running_hash_version, chunk_num,
  chunk_total, initial_transaction_id, valid_start_ns, running_hash_base64, message_base64`;

/** A row of MESSAGE_COLUMNS, read as an array: a page builds no object per row and column. */
type MessageDbRow = [
  consensusNs: bigint,
  topicId: bigint,
  sequenceNumber: bigint,
  payerId: bigint,
  runningHashVersion: bigint | null,
  chunkNum: bigint | null,
  chunkTotal: bigint | null,
  initialTransactionId: Buffer | null,
  validStartNs: bigint | null,
  runningHashBase64: string,
  messageBase64: string,
];

type TopicDbRow = {
  id: bigint;
  valid_from: bigint;
  created_ns: bigint;
  deleted: bigint;
  memo: string;
  admin_key: Buffer | null;
  submit_key: Buffer | null;
  fee_schedule_key: Buffer | null;
  fee_exempt_keys: Buffer | null;
  custom_fees: string;
  custom_fees_ns: bigint | null;
  auto_renew_account_id: bigint | null;
  auto_renew_period: bigint | null;
};

function toRecord(row: MessageDbRow): TopicMessageRecord {
  return {
    consensusNs: row[0],
    topicId: row[1],
    sequenceNumber: row[2],
    payerId: row[3],
    runningHashVersion: row[4] ?? CURRENT_RUNNING_HASH_VERSION,
    chunkNum: row[5],
    chunkTotal: row[6],
    initialTransactionId: row[7],
    validStartNs: row[8],
    runningHashBase64: row[9],
    messageBase64: row[10],
  };
}

/**
 * The statement of a page: the topic and an inclusive consensus-time range, plus (only when asked) the
 * excluded times and sequence numbers as JSON arrays, so a request's `ne` values never change the SQL text.
 */
function pageSql(order: Order, excludesTimes: boolean, excludesSequences: boolean): string {
  const direction = order === "asc" ? "ASC" : "DESC";
  return `SELECT ${MESSAGE_COLUMNS} FROM topic_message
    WHERE topic_id = ? AND consensus_ns >= ? AND consensus_ns <= ?
    ${excludesTimes ? "AND consensus_ns NOT IN (SELECT value FROM json_each(?))" : ""}
    ${excludesSequences ? "AND sequence_number NOT IN (SELECT value FROM json_each(?))" : ""}
    ORDER BY consensus_ns ${direction} LIMIT +?`;
}

export function createTopicQueries(db: Db, statements: StatementCache): TopicQueries {
  const topic = db.prepare(
    `SELECT id, valid_from, created_ns, deleted, memo, admin_key, submit_key, fee_schedule_key, fee_exempt_keys,
       custom_fees, custom_fees_ns, auto_renew_account_id, auto_renew_period
     FROM topic WHERE id = ? AND valid_to IS NULL`,
  );
  const bySequence = db
    .prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM topic_message WHERE topic_id = ? AND sequence_number = ? LIMIT 1`,
    )
    .raw(true);
  const atTime = db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM topic_message WHERE consensus_ns = ?`).raw(true);
  const streamPage = db
    .prepare(
      `SELECT consensus_ns, sequence_number,
         CASE WHEN running_hash_version IS NULL AND chunk_num IS NULL THEN NULL ELSE 1 END,
         running_hash_base64, message_base64
       FROM topic_message WHERE topic_id = ? AND consensus_ns > ? AND consensus_ns <= ?
       ORDER BY consensus_ns LIMIT +?`,
    )
    .raw(true);
  const firstAtOrAfterSequence = db
    .prepare(
      `SELECT consensus_ns FROM topic_message WHERE topic_id = ? AND sequence_number >= ?
       ORDER BY sequence_number ASC LIMIT 1`,
    )
    .pluck();
  const lastAtOrBeforeSequence = db
    .prepare(
      `SELECT consensus_ns FROM topic_message WHERE topic_id = ? AND sequence_number <= ?
       ORDER BY sequence_number DESC LIMIT 1`,
    )
    .pluck();

  return {
    getTopic(topicId) {
      const row = topic.get(topicId) as TopicDbRow | undefined;
      if (row === undefined) return undefined;
      return {
        id: row.id,
        validFrom: row.valid_from,
        createdNs: row.created_ns,
        deleted: row.deleted !== 0n,
        memo: row.memo,
        adminKey: row.admin_key,
        submitKey: row.submit_key,
        feeScheduleKey: row.fee_schedule_key,
        feeExemptKeys: row.fee_exempt_keys,
        customFees: decodeCustomFees(row.custom_fees),
        customFeesNs: row.custom_fees_ns,
        autoRenewAccountId: row.auto_renew_account_id,
        autoRenewPeriod: row.auto_renew_period,
      };
    },

    listMessages({ topicId, timestamps, sequenceNumbers, order, limit }) {
      const times = integerRange(timestamps);
      const sequences = integerRange(sequenceNumbers);
      if (times === null || sequences === null) return [];
      let { lower, upper } = times;
      if (sequenceNumbers.some((c) => c.op !== "ne")) {
        const from = firstAtOrAfterSequence.get(topicId, sequences.lower) as bigint | undefined;
        const to = lastAtOrBeforeSequence.get(topicId, sequences.upper) as bigint | undefined;
        if (from === undefined || to === undefined) return [];
        if (from > lower) lower = from;
        if (to < upper) upper = to;
        if (lower > upper) return [];
      }
      const params: unknown[] = [topicId, lower, upper];
      if (times.excluded.length > 0) params.push(jsonIntegers(times.excluded));
      if (sequences.excluded.length > 0) params.push(jsonIntegers(sequences.excluded));
      params.push(limit);
      const sql = pageSql(order, times.excluded.length > 0, sequences.excluded.length > 0);
      // Statements are shared by SQL text: the array form is set on every use, not assumed.
      return (
        statements(sql)
          .raw(true)
          .all(...params) as MessageDbRow[]
      ).map(toRecord);
    },

    streamMessages(topicId, afterNs, untilNs, limit) {
      return streamPage.all(topicId, afterNs, untilNs, limit) as TopicStreamRow[];
    },

    getMessageBySequence(topicId, sequenceNumber) {
      const row = bySequence.get(topicId, sequenceNumber) as MessageDbRow | undefined;
      return row === undefined ? undefined : toRecord(row);
    },

    getMessageAt(consensusNs) {
      const row = atTime.get(consensusNs) as MessageDbRow | undefined;
      return row === undefined ? undefined : toRecord(row);
    },
  };
}

/** A JSON array of int64 values, exact (SQLite's JSON reads integers as 64-bit). */
function jsonIntegers(values: readonly bigint[]): string {
  return `[${values.join(",")}]`;
}

import { createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";

/** One consensus message as the index keeps it (migration 0030-topic-messages). */
export type TopicMessageRow = {
  consensusNs: bigint;
  topicId: bigint;
  sequenceNumber: bigint;
  payerId: bigint;
  /** Null for version 3, the one every current node uses. */
  runningHashVersion: number | null;
  runningHash: Uint8Array;
  message: Uint8Array;
  /** Chunk number and total; null for a message that is not chunked. */
  chunk: { number: number; total: number } | null;
  /** The body's `chunkInfo.initialTransactionID` as protobuf bytes, when it has one. */
  initialTransactionId: Uint8Array | null;
  /** Set only for a chunk without an initial transaction id (the message's own valid start stands in). */
  validStartNs: bigint | null;
};

/** Writes consensus messages, many rows per statement; flushed with the rest of a file's rows. */
export type TopicMessageWrites = {
  add(row: TopicMessageRow): void;
  flush(): void;
  /** Drops rows not yet written (after a rolled-back file), and forgets the topics they named. */
  clear(): void;
  /**
   * The topics that received messages since the last call (after a commit: that commit's), at most
   * `MAX_NAMED_TOPICS`; null when more did (any topic may have new messages). Forgets them.
   */
  takeTopics(): bigint[] | null;
};

/**
 * The most topics one commit names to the main thread (the gRPC subscriptions read only those); past it the
 * notice says "many" and every topic with live subscribers is read once.
 */
export const MAX_NAMED_TOPICS = 1000;

/** Standard base64 of a byte view, read in place. */
function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

export function createTopicMessageWrites(db: Db): TopicMessageWrites {
  const rows = createBatchInsert(db, "topic_message", [
    "consensus_ns",
    "topic_id",
    "sequence_number",
    "payer_id",
    "running_hash_version",
    "chunk_num",
    "chunk_total",
    "initial_transaction_id",
    "valid_start_ns",
    "running_hash_base64",
    "message_base64",
  ]);
  let topics = new Set<bigint>();
  let tooMany = false;
  return {
    add(row) {
      if (!tooMany) {
        topics.add(row.topicId);
        if (topics.size > MAX_NAMED_TOPICS) {
          tooMany = true;
          topics = new Set();
        }
      }
      rows.add(
        row.consensusNs,
        row.topicId,
        row.sequenceNumber,
        row.payerId,
        row.runningHashVersion,
        row.chunk?.number ?? null,
        row.chunk?.total ?? null,
        row.initialTransactionId,
        row.validStartNs,
        base64(row.runningHash),
        base64(row.message),
      );
    },
    flush: () => rows.flush(),
    clear() {
      rows.clear();
      topics = new Set();
      tooMany = false;
    },
    takeTopics() {
      const named = tooMany ? null : [...topics];
      topics = new Set();
      tooMany = false;
      return named;
    },
  };
}

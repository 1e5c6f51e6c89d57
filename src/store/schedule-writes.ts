/**
 * Writes of the schedules group (tables in migrations/schedules.ts): the schedule versions and the signatures
 * schedules collect. Held back like every other write until the commit group's `flush()`.
 */
import { type BatchInsert, createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";
import { createVersionedTable } from "./versioned.ts";

/** A successful ScheduleCreate's facts. */
export type ScheduleCreated = {
  scheduleId: bigint;
  consensusNs: bigint;
  creatorId: bigint;
  payerId: bigint;
  expirationNs: bigint | null;
  waitForExpiry: boolean;
  memo: string;
  adminKey: Uint8Array | null;
  transactionBody: Uint8Array;
};

/** One signature pair as kept: the prefix, the signature bytes and the SignaturePair oneof field number. */
export type SignatureRow = { publicKeyPrefix: Uint8Array; signature: Uint8Array; type: number };

export type ScheduleWrites = {
  create(schedule: ScheduleCreated): void;
  /** The schedule's execution (the record carrying its scheduleRef); false when the schedule is not indexed. */
  executed(scheduleId: bigint, consensusNs: bigint): boolean;
  deleted(scheduleId: bigint, consensusNs: bigint): void;
  /** Signatures one transaction added to a schedule, in the order kept. */
  addSignatures(scheduleId: bigint, consensusNs: bigint, signatures: readonly SignatureRow[]): void;
  flush(): void;
  reset(): void;
};

export function createScheduleWrites(db: Db): ScheduleWrites {
  const schedule = createVersionedTable(
    db,
    "schedule",
    ["id"],
    [
      "created_ns",
      "creator_id",
      "payer_id",
      "expiration_ns",
      "wait_for_expiry",
      "memo",
      "admin_key",
      "deleted",
      "executed_ns",
      "transaction_body",
    ],
  );
  const signatures: BatchInsert = createBatchInsert(db, "schedule_signature", [
    "schedule_id",
    "consensus_ns",
    "position",
    "public_key_prefix",
    "signature",
    "type",
  ]);
  return {
    create(s) {
      schedule.create([s.scheduleId], s.consensusNs, {
        created_ns: s.consensusNs,
        creator_id: s.creatorId,
        payer_id: s.payerId,
        expiration_ns: s.expirationNs,
        wait_for_expiry: s.waitForExpiry,
        memo: s.memo,
        admin_key: s.adminKey,
        deleted: false,
        executed_ns: null,
        transaction_body: s.transactionBody,
      });
    },
    executed: (scheduleId, consensusNs) =>
      schedule.change([scheduleId], consensusNs, { executed_ns: consensusNs }),
    deleted(scheduleId, consensusNs) {
      schedule.change([scheduleId], consensusNs, { deleted: true });
    },
    addSignatures(scheduleId, consensusNs, rows) {
      rows.forEach((row, position) => {
        signatures.add(scheduleId, consensusNs, position, row.publicKeyPrefix, row.signature, row.type);
      });
    },
    flush() {
      signatures.flush();
      schedule.flush();
    },
    reset() {
      signatures.clear();
      schedule.reset();
    },
  };
}

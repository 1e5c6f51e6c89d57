import { createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";

/** One record as the transaction index keeps it (see migrations/transactions.ts for the columns). */
export type TransactionIndexRow = {
  consensusNs: bigint;
  type: number;
  result: number;
  payerId: bigint;
  validStartNs: bigint;
  nonce: number;
  /** TRANSACTION_FLAGS bits. */
  flags: number;
  chargedFee: bigint;
  maxFee: bigint;
  validDurationSeconds: bigint | null;
  nodeId: bigint | null;
  entityId: bigint | null;
  parentNs: bigint | null;
  /** Null when the memo is empty. */
  memo: Uint8Array | null;
  hash: Uint8Array;
  /** Packed hbar transfers (transaction-lists.ts), null when none. */
  transfers: Uint8Array | null;
  /** Packed extras, null when none. */
  extras: Uint8Array | null;
  /** Involved accounts and their `transaction_account.kind`, as parallel arrays. */
  accountIds: readonly bigint[];
  accountKinds: readonly number[];
};

/** Batched writes of the transaction index; rows are held back until `flush` (before the file's commit). */
export type TransactionWrites = {
  insert(row: TransactionIndexRow): void;
  flush(): void;
  clear(): void;
};

export function createTransactionWrites(db: Db): TransactionWrites {
  const transactions = createBatchInsert(db, '"transaction"', [
    "consensus_ns",
    "type",
    "result",
    "payer_id",
    "valid_start_ns",
    "nonce",
    "flags",
    "charged_fee",
    "max_fee",
    "valid_duration",
    "node_id",
    "entity_id",
    "parent_ns",
    "memo",
    "hash",
    "transfers",
    "extras",
  ]);
  const accounts = createBatchInsert(db, "transaction_account", ["account_id", "kind", "consensus_ns"]);
  return {
    insert(row) {
      transactions.add(
        row.consensusNs,
        row.type,
        row.result,
        row.payerId,
        row.validStartNs,
        row.nonce,
        row.flags,
        row.chargedFee,
        row.maxFee,
        row.validDurationSeconds,
        row.nodeId,
        row.entityId,
        row.parentNs,
        row.memo,
        row.hash,
        row.transfers,
        row.extras,
      );
      for (let i = 0; i < row.accountIds.length; i++) {
        accounts.add(row.accountIds[i], row.accountKinds[i], row.consensusNs);
      }
    },
    flush() {
      transactions.flush();
      accounts.flush();
    },
    clear() {
      transactions.clear();
      accounts.clear();
    },
  };
}

import { createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";
import { type HbarTransfer, PackWriter, packDetails, type TransactionExtras } from "./transaction-lists.ts";

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
  /** Ids and small integers read off the wire may be numbers (exact below 2^49); they bind the same. */
  maxFee: number | bigint;
  validDurationSeconds: number | bigint | null;
  nodeId: number | bigint | null;
  entityId: number | bigint | null;
  parentNs: bigint | null;
  /** Null when the memo is empty. */
  memo: Uint8Array | null;
  hash: Uint8Array;
  /** The record's hbar transfers, by account then amount. */
  transfers: readonly HbarTransfer[];
  /** The rarely present lists, null when the record has none of them. */
  extras: TransactionExtras | null;
  /** Involved accounts and their `account_transaction.kind`, as parallel arrays. */
  accountIds: readonly bigint[];
  accountKinds: readonly number[];
};

/**
 * Batched writes of the transaction index. Transaction rows go out as they come (their key, the consensus time,
 * grows). Account entries are gathered per record file and written sorted by account then time (`cutFile`):
 * account_transaction is clustered on (account, time), and in that order each account's entries of a file land
 * together at the end of its range instead of one random B-tree place per entry. Every other key with random
 * order (id, hash) is a read-only index, which a catch-up builds once at the end (store/catch-up-indexes.ts).
 */
export type TransactionWrites = {
  insert(row: TransactionIndexRow): void;
  /** Writes the current record file's account entries (call after its last record, before `flush`). */
  cutFile(): void;
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
    "hash",
    "details",
  ]);
  const accountEntries = createBatchInsert(db, "account_transaction", ["account_id", "consensus_ns", "kind"]);
  const details = new PackWriter();

  // The current file's account entries as parallel arrays: account (a number where exact), kind, and
  // consensus time as an offset from the file's first record (exact in a double: a file spans seconds).
  let base = 0n;
  let accounts: (number | bigint)[] = [];
  let kinds: number[] = [];
  let offsets: number[] = [];

  const cutFile = () => {
    const count = accounts.length;
    if (count === 0) return;
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    // By account, then arrival (consensus) order.
    order.sort((a, b) => (accounts[a] !== accounts[b] ? (accounts[a]! < accounts[b]! ? -1 : 1) : a - b));
    for (let k = 0; k < count; k++) {
      const i = order[k]!;
      accountEntries.add(accounts[i]!, base + BigInt(offsets[i]!), kinds[i]!);
    }
    accounts = [];
    kinds = [];
    offsets = [];
  };

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
        row.hash,
        packDetails(details, row.consensusNs, row),
      );
      const ids = row.accountIds;
      if (ids.length === 0) return;
      if (accounts.length === 0) base = row.consensusNs;
      let offset = Number(row.consensusNs - base);
      if (offset > MAX_OFFSET) {
        // A file spanning months (never seen): write what is gathered rather than lose exactness.
        cutFile();
        base = row.consensusNs;
        offset = 0;
      }
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        accounts.push(id <= MAX_SAFE && id >= 0n ? Number(id) : id);
        kinds.push(row.accountKinds[i]!);
        offsets.push(offset);
      }
    },
    cutFile,
    flush() {
      cutFile();
      transactions.flush();
      accountEntries.flush();
    },
    clear() {
      transactions.clear();
      accountEntries.clear();
      accounts = [];
      kinds = [];
      offsets = [];
    },
  };
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_OFFSET = 2 ** 52;

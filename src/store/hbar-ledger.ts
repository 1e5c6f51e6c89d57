import { createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";
import { encodeChanges } from "./hbar-changes.ts";
import { unreleasedSupplyAccount } from "./unreleased-supply.ts";

/** Where the hbar history starts: every listed account's balance at `consensusNs` (others hold nothing). */
export type HbarStartState = {
  consensusNs: bigint;
  /** What the state came from: a balance file name, or "genesis". */
  source: string;
  shard: bigint;
  realm: bigint;
  balances: Iterable<readonly [accountId: bigint, tinybars: bigint]>;
};

/**
 * The hbar balances of every account, kept exact at every consensus instant.
 *
 * Every record moves hbar (at least its fee: payer, node account, 0.0.98, staking accounts), so one history row
 * per account per transaction would be the largest write of ingestion. Instead balances are written behind,
 * once per record file: each account touched in the file gets ONE row holding its balance after the file, plus,
 * when it changed more than once in the file, a compact blob of every (consensus time, balance) pair inside the
 * file. A lookup at T finds the newest row at or before T (one index seek) and, for a multi-change row, a
 * binary search in its blob, so every instant inside a file stays exact while the row count drops to the
 * number of distinct accounts per file (the fee collector and node accounts cost one row per file, not one per
 * transaction). Nothing between records reads these rows: within a file the running balances live here in
 * memory; they are written at the end of each file (so the rows do not depend on which files shared a commit)
 * and the commit group's transaction commits them with everything else.
 *
 * The summed balance of the unreleased supply accounts is kept the same way in `hbar_supply`, one row per
 * transaction that moves any of them (rare on a real network), so the supply at T is a single seek.
 */
export type HbarLedger = {
  /** Whether a starting state exists; until one does, transfers are not applied (no balance is known). */
  tracking(): boolean;
  /** Records the starting state (call once, before the first record file is applied). */
  start(state: HbarStartState): void;
  /**
   * Adds `amountTinybars` to an account's balance at consensus time `t` (non-decreasing within a file). Without
   * a starting state, only accounts `open`ed by this index (created in the stream) are tracked.
   */
  add(t: bigint, accountId: bigint, amountTinybars: bigint): void;
  /**
   * An account created at `t`: it holds 0 from then on, so its balance is known exactly even when the stream
   * has no starting state (the mirror node's entity balance starts the same way). Call before the creating
   * record's transfers are added.
   */
  open(t: bigint, accountId: bigint): void;
  /** Writes the file's balance rows; call at the end of each file, inside its commit group's transaction. */
  flush(): void;
  /** Forgets everything held for an uncommitted file and every cached balance (after a rollback). */
  reset(): void;
};

type Pending = {
  first: bigint;
  lastT: bigint;
  balance: bigint;
  /** Flat [t0, b0, t1, b1, ...], created once the account changes at a second instant in the file. */
  changes: bigint[] | null;
};

/** Current balances of recently touched accounts; fee and node accounts always stay in it. */
const MAX_CACHED = 100_000;
/** Accounts found to have no balance history (no starting state, not created in the stream), remembered. */
const MAX_UNTRACKED = 10_000;

export function createHbarLedger(db: Db): HbarLedger {
  const selectStart = db.prepare("SELECT consensus_ns, shard, realm FROM hbar_start WHERE id = 1");
  const insertStart = db.prepare(
    "INSERT INTO hbar_start (id, consensus_ns, source, shard, realm) VALUES (1, ?, ?, ?, ?)",
  );
  const selectBalance = db
    .prepare("SELECT balance FROM hbar_balance WHERE account_id = ? ORDER BY valid_from DESC LIMIT 1")
    .pluck();
  const selectUnreleased = db
    .prepare("SELECT unreleased FROM hbar_supply ORDER BY valid_from DESC LIMIT 1")
    .pluck();
  // OR REPLACE: a starting snapshot taken at the very instant of the first record is replaced by that record's
  // effect at the same instant.
  const insertBalance = db.prepare(
    "INSERT OR REPLACE INTO hbar_balance (account_id, valid_from, balance, changes) VALUES (?, ?, ?, ?)",
  );
  const insertSupply = db.prepare(
    "INSERT OR REPLACE INTO hbar_supply (valid_from, unreleased) VALUES (?, ?)",
  );
  const balanceRows = createBatchInsert(
    db,
    "hbar_balance",
    ["account_id", "valid_from", "balance", "changes"],
    {
      orReplace: true,
    },
  );

  type StartRow = { consensus_ns: bigint; shard: bigint; realm: bigint };
  let loaded: { isUnreleased: (id: bigint) => boolean } | null | undefined;
  let unreleased: bigint | null = null;
  let pending = new Map<bigint, Pending>();
  let supplyRows: bigint[] = [];
  const cache = new Map<bigint, bigint>();
  // Without a starting state: accounts seen in transfer lists that were not created in the stream.
  let untracked = new Set<bigint>();

  function state() {
    if (loaded === undefined) {
      const row = selectStart.get() as StartRow | undefined;
      loaded = row === undefined ? null : { isUnreleased: unreleasedSupplyAccount(row.shard, row.realm) };
    }
    return loaded;
  }

  function currentBalance(accountId: bigint): bigint {
    const cached = cache.get(accountId);
    if (cached !== undefined) return cached;
    return (selectBalance.get(accountId) as bigint | undefined) ?? 0n;
  }

  /** Whether an account has a balance history although no starting state exists (it was created in the stream). */
  function knownWithoutStart(accountId: bigint): boolean {
    if (pending.has(accountId) || cache.has(accountId)) return true;
    if (untracked.has(accountId)) return false;
    const balance = selectBalance.get(accountId) as bigint | undefined;
    if (balance !== undefined) {
      remember(accountId, balance);
      return true;
    }
    if (untracked.size >= MAX_UNTRACKED) untracked = new Set();
    untracked.add(accountId);
    return false;
  }

  function remember(accountId: bigint, balance: bigint): void {
    cache.delete(accountId);
    cache.set(accountId, balance);
    if (cache.size > MAX_CACHED) {
      // Drop the least recently written half; Map iteration is in insertion order.
      let drop = cache.size / 2;
      for (const key of cache.keys()) {
        if (drop-- <= 0) break;
        cache.delete(key);
      }
    }
  }

  return {
    tracking: () => state() !== null,
    start(start) {
      if (state() !== null) throw new Error("the hbar balance history already has a starting state");
      insertStart.run(start.consensusNs, start.source, start.shard, start.realm);
      const isUnreleased = unreleasedSupplyAccount(start.shard, start.realm);
      let total = 0n;
      for (const [accountId, balance] of start.balances) {
        insertBalance.run(accountId, start.consensusNs, balance, null);
        if (isUnreleased(accountId)) total += balance;
      }
      insertSupply.run(start.consensusNs, total);
      loaded = undefined;
      unreleased = null;
      cache.clear();
    },
    open(t, accountId) {
      if (state() !== null || pending.has(accountId)) return;
      untracked.delete(accountId);
      pending.set(accountId, { first: t, lastT: t, balance: 0n, changes: null });
    },
    add(t, accountId, amount) {
      const tracked = state();
      if (tracked === null && !knownWithoutStart(accountId)) return;
      let entry = pending.get(accountId);
      if (entry === undefined) {
        entry = { first: t, lastT: t, balance: currentBalance(accountId) + amount, changes: null };
        pending.set(accountId, entry);
      } else if (entry.lastT === t) {
        entry.balance += amount;
        if (entry.changes !== null) entry.changes[entry.changes.length - 1] = entry.balance;
      } else {
        entry.changes ??= [entry.lastT, entry.balance];
        entry.balance += amount;
        entry.changes.push(t, entry.balance);
        entry.lastT = t;
      }
      if (tracked?.isUnreleased(accountId)) {
        unreleased ??= (selectUnreleased.get() as bigint | undefined) ?? 0n;
        unreleased += amount;
        const last = supplyRows.length - 2;
        if (last >= 0 && supplyRows[last] === t) supplyRows[last + 1] = unreleased;
        else supplyRows.push(t, unreleased);
      }
    },
    flush() {
      for (const [accountId, entry] of pending) {
        const blob = entry.changes === null ? null : encodeChanges(entry.changes);
        balanceRows.add(accountId, entry.first, entry.balance, blob);
        remember(accountId, entry.balance);
      }
      balanceRows.flush();
      for (let i = 0; i < supplyRows.length; i += 2) insertSupply.run(supplyRows[i], supplyRows[i + 1]);
      pending = new Map();
      supplyRows = [];
    },
    reset() {
      balanceRows.clear();
      untracked = new Set();
      pending = new Map();
      supplyRows = [];
      cache.clear();
      unreleased = null;
      loaded = undefined;
    },
  };
}

import type { Db } from "./db.ts";
import { balanceInChanges } from "./hbar-changes.ts";

export type HbarStartRow = { consensusNs: bigint; source: string };

/** The unreleased supply at an instant: the summed balance and the latest change among those accounts. */
export type UnreleasedSupply = { unreleasedTinybars: bigint; consensusNs: bigint };

/** Reads of the exact hbar balance history (written by hbar-ledger.ts). */
export type HbarQueries = {
  /** Where the history starts, or null when no hbar balance is known. */
  start(): HbarStartRow | null;
  /**
   * The unreleased supply as of `atNs` (inclusive): null when no balance is known then (no starting state,
   * or `atNs` before it).
   */
  unreleasedAt(atNs: bigint): UnreleasedSupply | null;
  /** An account's hbar balance as of `atNs` (inclusive); null when no balance is known then. */
  balanceAt(accountId: bigint, atNs: bigint): bigint | null;
  /** An account's balance of a token as of `atNs` (inclusive) from the token balance history; 0 when none. */
  tokenBalanceAt(tokenId: bigint, accountId: bigint, atNs: bigint): bigint;
};

export function createHbarQueries(db: Db): HbarQueries {
  const selectStart = db.prepare("SELECT consensus_ns, source FROM hbar_start WHERE id = 1");
  const selectSupply = db.prepare(
    "SELECT valid_from, unreleased FROM hbar_supply WHERE valid_from <= ? ORDER BY valid_from DESC LIMIT 1",
  );
  const selectBalance = db.prepare(
    `SELECT balance, changes FROM hbar_balance WHERE account_id = ? AND valid_from <= ?
     ORDER BY valid_from DESC LIMIT 1`,
  );
  const selectTokenBalance = db
    .prepare(
      `SELECT balance FROM token_balance WHERE token_id = ? AND account_id = ? AND valid_from <= ?
       ORDER BY valid_from DESC LIMIT 1`,
    )
    .pluck();

  const start = () => {
    const row = selectStart.get() as { consensus_ns: bigint; source: string } | undefined;
    return row === undefined ? null : { consensusNs: row.consensus_ns, source: row.source };
  };

  return {
    start,
    unreleasedAt(atNs) {
      const row = selectSupply.get(atNs) as { valid_from: bigint; unreleased: bigint } | undefined;
      return row === undefined ? null : { unreleasedTinybars: row.unreleased, consensusNs: row.valid_from };
    },
    balanceAt(accountId, atNs) {
      const begin = start();
      if (begin === null || atNs < begin.consensusNs) return null;
      const row = selectBalance.get(accountId, atNs) as
        | { balance: bigint; changes: Uint8Array | null }
        | undefined;
      if (row === undefined) return 0n;
      if (row.changes === null) return row.balance;
      // The row's first pair is at valid_from <= atNs, so the search always finds one.
      return balanceInChanges(row.changes, atNs) ?? row.balance;
    },
    tokenBalanceAt: (tokenId, accountId, atNs) =>
      (selectTokenBalance.get(tokenId, accountId, atNs) as bigint | undefined) ?? 0n,
  };
}

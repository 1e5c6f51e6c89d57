import type { Db } from "./db.ts";

/** One comparison of a later balance snapshot with the indexed balances. */
export type BalanceCheckRow = {
  file: string;
  consensusNs: bigint;
  accounts: number;
  differences: number;
  /** A few of the differences, as text. */
  examples: string[];
};

/** What the index remembers of its balance snapshot comparisons. */
export type BalanceCheckSummary = { checked: number; disagreeing: number; recent: BalanceCheckRow[] };

export type BalanceChecks = {
  /** Records a comparison (once per snapshot instant; a second one of the same instant is ignored). */
  record(check: BalanceCheckRow): void;
  /** The instant of the newest snapshot compared, or null. */
  lastCheckedNs(): bigint | null;
  /** The totals and the `recent` newest comparisons, oldest first. */
  summary(recent: number): BalanceCheckSummary;
};

/** Reads and writes of `balance_check` on the writer connection (each statement a key seek). */
export function createBalanceChecks(db: Db): BalanceChecks {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO balance_check (consensus_ns, file_name, accounts, differences, examples)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const addTotals = db.prepare(
    `INSERT INTO balance_check_totals (id, checked, disagreeing) VALUES (1, 1, ?)
     ON CONFLICT (id) DO UPDATE SET checked = checked + 1, disagreeing = disagreeing + excluded.disagreeing`,
  );
  const selectLast = db.prepare("SELECT max(consensus_ns) FROM balance_check").pluck();
  const selectTotals = db.prepare("SELECT checked, disagreeing FROM balance_check_totals WHERE id = 1");
  const selectRecent = db.prepare(
    `SELECT consensus_ns, file_name, accounts, differences, examples FROM balance_check
     ORDER BY consensus_ns DESC LIMIT +?`,
  );
  const record = db.transaction((check: BalanceCheckRow) => {
    const inserted = insert.run(
      check.consensusNs,
      check.file,
      check.accounts,
      check.differences,
      JSON.stringify(check.examples),
    ).changes;
    if (inserted > 0) addTotals.run(check.differences > 0 ? 1 : 0);
  });
  return {
    record: (check) => record(check),
    lastCheckedNs: () => (selectLast.get() as bigint | null | undefined) ?? null,
    summary(recent) {
      const totals = selectTotals.get() as { checked: bigint; disagreeing: bigint } | undefined;
      const rows = selectRecent.all(recent) as Array<{
        consensus_ns: bigint;
        file_name: string;
        accounts: bigint;
        differences: bigint;
        examples: string;
      }>;
      return {
        checked: Number(totals?.checked ?? 0),
        disagreeing: Number(totals?.disagreeing ?? 0),
        recent: rows.reverse().map((row) => ({
          file: row.file_name,
          consensusNs: row.consensus_ns,
          accounts: Number(row.accounts),
          differences: Number(row.differences),
          examples: JSON.parse(row.examples) as string[],
        })),
      };
    },
  };
}

/** How fast catch-up goes and how long it has left, from the running totals of applied files and transactions. */
export type Progress = {
  filesApplied: number;
  transactionsApplied: number;
  /** Complete record files on disk not applied yet (as of the last look at the folder). */
  filesLeft: number;
  filesPerSecond: number;
  transactionsPerSecond: number;
  /** Seconds until `filesLeft` are applied at the current pace; null while there is no pace to go by. */
  etaSeconds: number | null;
};

export type ProgressMeter = {
  /** Counts one committed file of `transactions` transactions. */
  committed(transactions: number): void;
  snapshot(filesLeft: number): Progress;
};

const WINDOW_MS = 10_000;
const SAMPLE_EVERY_MS = 1_000;

/**
 * Rates over roughly the last ten seconds (so the estimate follows a stream whose files grow or shrink), or
 * since the start while there is less history than that. Samples are taken when asked, at most one a second,
 * so memory stays bounded however often readiness is polled.
 */
export function createProgressMeter(now: () => number = () => performance.now()): ProgressMeter {
  let files = 0;
  let transactions = 0;
  const samples: Array<{ at: number; files: number; transactions: number }> = [
    { at: now(), files: 0, transactions: 0 },
  ];
  return {
    committed(count) {
      files += 1;
      transactions += count;
    },
    snapshot(filesLeft) {
      const at = now();
      if (at - samples.at(-1)!.at >= SAMPLE_EVERY_MS) samples.push({ at, files, transactions });
      while (samples.length > 2 && at - samples[1]!.at >= WINDOW_MS) samples.shift();
      const from = samples[0]!;
      const seconds = (at - from.at) / 1000;
      const filesPerSecond = seconds > 0 ? (files - from.files) / seconds : 0;
      const transactionsPerSecond = seconds > 0 ? (transactions - from.transactions) / seconds : 0;
      return {
        filesApplied: files,
        transactionsApplied: transactions,
        filesLeft,
        filesPerSecond: round(filesPerSecond),
        transactionsPerSecond: round(transactionsPerSecond),
        etaSeconds: filesLeft === 0 ? 0 : filesPerSecond > 0 ? Math.ceil(filesLeft / filesPerSecond) : null,
      };
    },
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

import type { LogFormat, LogLevel } from "../log.ts";
import type { BalanceFileInfo } from "./balance-folder.ts";
import type { SidecarMode } from "./sidecars.ts";

/** What the main thread hands the ingest worker. */
export type IngestWorkerData = {
  /** The record stream folder (null: blocks only). */
  recordsDir: string | null;
  /** The block stream folder (null: records only). */
  blocksDir?: string | null;
  dbPath: string;
  durable: boolean;
  waitSignatures: boolean;
  /** A `NodeAddressBook` file: when set, every record file must carry a valid signature of its node. */
  addressBookPath: string | null;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** How often to look for new files besides file-system events, in ms (events can be missed on some mounts). */
  pollMs: number;
  /** Past this size the write-ahead log is checkpointed and started over (default 64 MiB; tests pass less). */
  walLimitBytes?: number;
  /** The first delay before a transient failure is tried again, in ms (default 1000, doubling to 60 s). */
  retryMs?: number;
  /** Without signatures: how long a file must look the same before it is complete, in ms (`--settle-ms`). */
  settleMs?: number;
  /** Keep following the folder after the files present at start are applied (serve), or stop there (ingest). */
  follow: boolean;
  /**
   * One Int32 the main thread sets to 1 to stop: the worker reads it between files and every few transactions,
   * so it stops promptly even while a long synchronous catch-up keeps its message queue unread.
   */
  stopFlag: SharedArrayBuffer;
  /** The account balance files of `--balances`, by the instants in their names, oldest first (null: no folder). */
  balanceFiles: BalanceFileInfo[] | null;
  /** The `--balances` folder, looked at again while following for snapshots written later (null: none). */
  balancesDir: string | null;
  /** While catching up, the most transactions one commit may hold (see `Config.commitTransactions`). */
  commitTransactions?: number;
  /** The most bytes a stream file may hold, on disk and decompressed (see `Config.maxFileMb`). */
  maxFileBytes: number;
  /** Sidecar files of record files (see `Config.sidecars`; absent: optional). */
  sidecars?: SidecarMode;
  /**
   * Prepare files on a reader thread ahead of the one being applied (absent: yes), or on the ingest thread itself
   * (tests compare the two indexes).
   */
  readerThread?: boolean;
};

/** Messages from the ingest worker. bigint values travel as decimal strings. */
export type IngestWorkerMessage =
  | { type: "db-ready" }
  /** The index could not be opened or migrated; the worker exits after sending this. */
  | { type: "db-failed"; reason: string }
  | {
      type: "committed";
      file: string;
      blockNumber: string;
      transactions: number;
      /** The file's first consensus time (a block's, when it has no transaction: its block timestamp). */
      consensusStart: string;
      consensusEnd: string;
      durationMs: number;
      /**
       * The topics (encoded ids) that received messages in the commit this file belongs to, on the first notice
       * of a commit group (the later ones carry none); null when more than `MAX_NAMED_TOPICS` did.
       */
      topics: string[] | null;
    }
  | { type: "caught-up"; files: number; transactions: number }
  /**
   * A pass is about to apply `files` files (record files or blocks), the first being `oldest` and the newest on
   * disk `newest`. Block names carry no time: for a block, `newestStartNs` is its header's block timestamp (absent
   * when unread).
   */
  | { type: "planned"; files: number; oldest: string; newest: string; newestStartNs?: string }
  /** A refused file (corrupt, out of chain, badly signed): looked at again once it changes. */
  | { type: "stopped"; file: string | null; reason: string }
  /** A transient failure (I/O, full disk, failed commit): tried again in `retryInMs` (`attempts` so far). */
  | { type: "retrying"; file: string | null; reason: string; attempts: number; retryInMs: number }
  /** A pass succeeded after a stop or a transient failure. */
  | { type: "resumed" }
  | { type: "balances-start"; source: string; consensusNs: string }
  | ({ type: "balances-checked" } & BalanceCheckMessage)
  /** A resumed index's earlier comparisons: totals, and the most recent ones, oldest first. */
  | { type: "balances-history"; checked: number; disagreeing: number; recent: BalanceCheckMessage[] };

/** One comparison of a later balance snapshot with the index (`consensusNs` as a decimal string). */
export type BalanceCheckMessage = {
  file: string;
  consensusNs: string;
  accounts: number;
  differences: number;
  examples: string[];
};

/** Messages to the ingest worker. */
export type IngestWorkerCommand = { type: "stop" };

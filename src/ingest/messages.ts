import type { LogLevel } from "../log.ts";

/** What the main thread hands the ingest worker. */
export type IngestWorkerData = {
  recordsDir: string;
  dbPath: string;
  durable: boolean;
  waitSignatures: boolean;
  /** A `NodeAddressBook` file: when set, every record file must carry a valid signature of its node. */
  addressBookPath: string | null;
  logLevel: LogLevel;
  /** How often to look for new files besides file-system events, in ms (events can be missed on some mounts). */
  pollMs: number;
  /** Keep following the folder after the files present at start are applied (serve), or stop there (ingest). */
  follow: boolean;
  /** While catching up, the most transactions one commit may hold (see `Config.commitTransactions`). */
  commitTransactions?: number;
};

/** Messages from the ingest worker. bigint values travel as decimal strings. */
export type IngestWorkerMessage =
  | { type: "db-ready" }
  | {
      type: "committed";
      file: string;
      blockNumber: string;
      transactions: number;
      consensusEnd: string;
      durationMs: number;
    }
  | { type: "caught-up"; files: number; transactions: number }
  | { type: "stopped"; file: string | null; reason: string };

/** Messages to the ingest worker. */
export type IngestWorkerCommand = { type: "stop" };

import type { Config } from "../config.ts";
import type { IngestWorkerData } from "../ingest/messages.ts";
import type { DbLocation } from "../store/db.ts";

/** What the ingest worker needs from the configuration; `follow` keeps it watching after the first pass. */
export function ingestWorkerData(config: Config, location: DbLocation, follow: boolean): IngestWorkerData {
  return {
    recordsDir: config.recordsDir,
    dbPath: location.path,
    durable: !location.inMemory,
    waitSignatures: config.waitSignatures,
    addressBookPath: config.verifySignatures,
    logLevel: config.logLevel,
    pollMs: config.pollMs,
    follow,
    ...(config.commitTransactions === undefined ? {} : { commitTransactions: config.commitTransactions }),
  };
}

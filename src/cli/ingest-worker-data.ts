import type { Config } from "../config.ts";
import { scanBalanceFolder } from "../ingest/balance-folder.ts";
import type { IngestWorkerData } from "../ingest/messages.ts";
import type { DbLocation } from "../store/db.ts";

/**
 * What the ingest worker needs from the configuration; `follow` keeps it watching after the first pass. Reads
 * and checks every balance file first: throws BalanceFileReadError on the first bad one.
 */
export function ingestWorkerData(
  config: Config,
  location: DbLocation,
  follow: boolean,
): Omit<IngestWorkerData, "stopFlag"> {
  return {
    recordsDir: config.recordsDir,
    blocksDir: config.blocksDir ?? null,
    dbPath: location.path,
    durable: !location.inMemory,
    waitSignatures: config.waitSignatures,
    addressBookPath: config.verifySignatures,
    logLevel: config.logLevel,
    logFormat: config.logFormat ?? "json",
    pollMs: config.pollMs,
    follow,
    balanceFiles: config.balancesDir ? scanBalanceFolder(config.balancesDir) : null,
    balancesDir: config.balancesDir ?? null,
    ...(config.commitTransactions === undefined ? {} : { commitTransactions: config.commitTransactions }),
  };
}

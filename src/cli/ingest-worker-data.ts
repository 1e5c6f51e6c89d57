import type { Config } from "../config.ts";
import { listBalanceFolder } from "../ingest/balance-folder.ts";
import type { IngestWorkerData } from "../ingest/messages.ts";
import type { DbLocation } from "../store/db.ts";
import { MAX_DECOMPRESSED_BYTES } from "../streams/decompress.ts";

/**
 * What the ingest worker needs from the configuration; `follow` keeps it watching after the first pass. Lists the
 * balance folder by its file names (reading none): throws BalanceFileReadError for a folder that cannot be
 * listed or a name without an instant.
 */
export function ingestWorkerData(
  config: Config,
  location: DbLocation,
  follow: boolean,
): Omit<IngestWorkerData, "stopFlag"> {
  const maxFileBytes =
    config.maxFileMb === undefined ? MAX_DECOMPRESSED_BYTES : config.maxFileMb * 1024 * 1024;
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
    ...(config.settleMs === undefined ? {} : { settleMs: config.settleMs }),
    ...(config.walLimitBytes === undefined ? {} : { walLimitBytes: config.walLimitBytes }),
    follow,
    balanceFiles: config.balancesDir ? listBalanceFolder(config.balancesDir) : null,
    balancesDir: config.balancesDir ?? null,
    ...(config.commitTransactions === undefined ? {} : { commitTransactions: config.commitTransactions }),
    maxFileBytes,
    ...(config.sidecars === undefined ? {} : { sidecars: config.sidecars }),
  };
}

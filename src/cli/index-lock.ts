import { UnsafeCacheError } from "../runtime/private-folder.ts";
import type { DbLocation } from "../store/db.ts";
import { acquireWriterLock, IndexInUseError, type WriterLock } from "../store/writer-lock.ts";
import { StartupError } from "./startup-error.ts";

/**
 * Takes the index for this process (`serve` or `ingest`) before anything else touches it: another process
 * holding it is a start-up failure whose one line names that process. An in-memory index is this process's own
 * file, locked all the same.
 */
export function takeIndex(db: string, location: DbLocation, command: "serve" | "ingest"): WriterLock {
  try {
    return acquireWriterLock(location.path, command);
  } catch (error) {
    if (error instanceof IndexInUseError)
      throw new StartupError(error.message.replace(location.path, db), error);
    // The single executable's addon folder is unsafe: said as it is (see main).
    if (error instanceof UnsafeCacheError) throw error;
    throw new StartupError(`cannot open the database ${db}: ${(error as Error).message}`, error);
  }
}

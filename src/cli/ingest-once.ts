import type { Config } from "../config.ts";
import { startIngestService } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { resolveDbLocation } from "../store/db.ts";
import { takeIndex } from "./index-lock.ts";
import { ingestWorkerData } from "./ingest-worker-data.ts";

export type IngestOutcome =
  | { ok: true; files: number; transactions: number }
  | { ok: false; file: string | null; reason: string };

/**
 * `mirrorlite ingest`: the same ingest worker `serve` runs, told to stop once the files present are applied.
 * Aborting `stop` (SIGTERM/SIGINT) stops it early at a file boundary, as `serve` does. Throws StartupError when
 * another process holds the index.
 */
export async function ingestOnce(config: Config, log: Logger, stop?: AbortSignal): Promise<IngestOutcome> {
  const location = resolveDbLocation(config.db);
  let data: ReturnType<typeof ingestWorkerData>;
  let lock: ReturnType<typeof takeIndex>;
  try {
    lock = takeIndex(config.db, location, "ingest");
    try {
      data = ingestWorkerData(config, location, false);
    } catch (error) {
      lock.release();
      throw error;
    }
  } catch (error) {
    location.dispose();
    throw error;
  }
  const ingest = startIngestService(data, log, { heapMb: config.workerHeapMb });
  try {
    const aborted = new Promise<"aborted">((resolve) => {
      if (stop?.aborted) resolve("aborted");
      stop?.addEventListener("abort", () => resolve("aborted"), { once: true });
    });
    const outcome = await Promise.race([ingest.settled, ingest.crashed, aborted]);
    if (outcome === "aborted") {
      return {
        ok: false,
        file: null,
        reason: `interrupted by ${String(stop?.reason)}; the index ends at a whole file`,
      };
    }
    if (typeof outcome === "string") return { ok: false, file: null, reason: outcome };
    if (outcome !== null) return { ok: true, ...outcome };
    const status = ingest.status();
    return { ok: false, file: status.file, reason: status.reason ?? "ingestion stopped" };
  } finally {
    await ingest.stop();
    lock.release();
    location.dispose();
  }
}

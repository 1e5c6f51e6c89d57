import type { Config } from "../config.ts";
import { startIngestService } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { resolveDbLocation } from "../store/db.ts";
import { ingestWorkerData } from "./ingest-worker-data.ts";

export type IngestOutcome =
  | { ok: true; files: number; transactions: number }
  | { ok: false; file: string | null; reason: string };

/**
 * `mirrorlite ingest`: the same ingest worker `serve` runs, told to stop once the files present are applied.
 */
export async function ingestOnce(config: Config, log: Logger): Promise<IngestOutcome> {
  const location = resolveDbLocation(config.db);
  let data: ReturnType<typeof ingestWorkerData>;
  try {
    data = ingestWorkerData(config, location, false);
  } catch (error) {
    location.dispose();
    throw error;
  }
  const ingest = startIngestService(data, log);
  try {
    const outcome = await ingest.settled;
    if (outcome !== null) return { ok: true, ...outcome };
    const status = ingest.status();
    return { ok: false, file: status.file, reason: status.reason ?? "ingestion stopped" };
  } finally {
    await ingest.stop();
    location.dispose();
  }
}

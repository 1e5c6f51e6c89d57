import { setTimeout as sleep } from "node:timers/promises";
import type { Config } from "../config.ts";
import { createIngestor } from "../ingest/ingestor.ts";
import { loadSignatureCheck } from "../ingest/signature-check.ts";
import { describeStop } from "../ingest/stop-reason.ts";
import type { Logger } from "../log.ts";
import { openWriter, resolveDbLocation } from "../store/db.ts";
import { createWriteStore } from "../store/write-store.ts";

export type IngestOutcome =
  | { ok: true; files: number; transactions: number }
  | { ok: false; file: string | null; reason: string };

/** `mirrorlite ingest`: applies every complete file in the folder, in order, then returns. */
export async function ingestOnce(config: Config, log: Logger): Promise<IngestOutcome> {
  const location = resolveDbLocation(config.db);
  const db = openWriter(location.path, { durable: !location.inMemory });
  try {
    const ingestor = createIngestor({
      dir: config.recordsDir,
      store: createWriteStore(db),
      waitSignatures: config.waitSignatures,
      log,
      checkSignature: config.verifySignatures
        ? loadSignatureCheck(config.verifySignatures, config.recordsDir)
        : null,
    });
    let files = 0;
    let transactions = 0;
    const pass = () => {
      for (const applied of ingestor.ingestReady()) {
        files += 1;
        transactions += applied.transactions;
      }
    };
    try {
      pass();
      if (!config.waitSignatures) {
        // A file is complete when its size holds still between two looks.
        await sleep(config.pollMs);
        pass();
      }
    } catch (error) {
      return { ok: false, ...describeStop(error) };
    }
    return { ok: true, files, transactions };
  } finally {
    db.close();
    location.dispose();
  }
}

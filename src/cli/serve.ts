import type { Server } from "node:http";
import { createApp } from "../api/app.ts";
import { listen } from "../api/server.ts";
import type { Config } from "../config.ts";
import { type IngestService, startIngestService } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { openReader, resolveDbLocation } from "../store/db.ts";
import { createReadStore } from "../store/read-store.ts";
import { ingestWorkerData } from "./ingest-worker-data.ts";

export type RunningService = {
  port: number;
  server: Server;
  ingest: IngestService;
  stop(): Promise<void>;
};

/**
 * Starts the ingest worker on the records folder and, once the index exists, the HTTP server. The server keeps
 * answering whatever happens to ingestion; readiness tells how ingestion is doing.
 */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const location = resolveDbLocation(config.db);
  let data: ReturnType<typeof ingestWorkerData>;
  try {
    data = ingestWorkerData(config, location, true);
  } catch (error) {
    location.dispose();
    throw error;
  }
  const ingest = startIngestService(data, log);
  try {
    await ingest.dbReady;
  } catch (error) {
    location.dispose();
    throw error;
  }
  const reader = openReader(location.path);
  const app = createApp({
    store: createReadStore(reader),
    status: ingest.status,
    log: log.child({ component: "api" }),
  });
  const { server, port } = await listen(app, config.host, config.port);
  log.info(
    { host: config.host, port, records: config.recordsDir, db: config.db },
    "serving the mirror node API",
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ingest.stop();
      reader.close();
      location.dispose();
    })();
    return stopping;
  };
  return { port, server, ingest, stop };
}

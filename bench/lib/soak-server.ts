/**
 * The service for `npm run soak`, in its own process: `startService` (the production path) on a records folder,
 * printing `ready <port>` once it is ready and then, every 2 s, its memory as a JSON line: the main thread's
 * heap after a full collection (the read path's own memory; the ingest worker has its own heap) and the
 * process's resident set (SQLite caches and the worker included).
 *
 *   node --expose-gc --import tsx bench/lib/soak-server.ts <recordsDir> <dbFile>
 */
import { parseCommand } from "../../src/cli/args.ts";
import { startService } from "../../src/cli/serve.ts";
import { createLogger } from "../../src/log.ts";

const [recordsDir, db] = process.argv.slice(2) as [string, string];
const gc = (globalThis as { gc?: () => void }).gc;
// The flags an operator would give, so that the service is configured exactly as `mirrorlite serve` is.
const command = parseCommand(
  [
    "serve",
    "--records",
    recordsDir,
    "--db",
    db,
    "--port",
    "0",
    "--no-wait-signatures",
    "--log-level",
    "warn",
    "--java-port",
    "0",
  ],
  {},
);
if (command.name !== "serve") throw new Error("not a serve command");
const service = await startService(command.config, createLogger("warn"));
await service.ingest.settled;
process.stdout.write(`ready ${service.port}\n`);
setInterval(() => {
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ heapUsedMb: heapUsed / 2 ** 20, rssMb: rss / 2 ** 20 })}\n`);
}, 2000);
process.once("SIGTERM", () => {
  void service.stop().then(() => process.exit(0));
});

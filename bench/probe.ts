import { rmSync } from "node:fs";
import { createIngestor } from "../src/ingest/ingestor.ts";
import { createLogger } from "../src/log.ts";
import { openWriter } from "../src/store/db.ts";
import { createWriteStore } from "../src/store/write-store.ts";

const [dir, dbPath] = process.argv.slice(2) as [string, string];
for (const s of ["", "-wal", "-shm"]) rmSync(dbPath + s, { force: true });
const c0 = process.cpuUsage();
const t0 = performance.now();
const db = openWriter(dbPath, { durable: true });
if (process.env.CS) db.pragma(`cache_size = -${process.env.CS}`);
if (process.env.DROP) db.exec(process.env.DROP);
const ing = createIngestor({
  dir,
  store: createWriteStore(db),
  waitSignatures: true,
  log: createLogger("silent"),
});
// no signatures in the dir: treat as signature mode off by faking? use stable-size twice
const ing2 = createIngestor({
  dir,
  store: createWriteStore(db),
  waitSignatures: false,
  log: createLogger("silent"),
});
void ing;
ing2.ingestReady();
const n = ing2.ingestReady().reduce((a, f) => a + f.transactions, 0);
globalThis.gc?.();
const mu = process.memoryUsage();
console.log(Object.fromEntries(Object.entries(mu).map(([k, v]) => [k, Math.round(v / 1048576)])));
db.close();
const c = process.cpuUsage(c0);
console.log(
  JSON.stringify({
    n,
    wallS: ((performance.now() - t0) / 1000).toFixed(2),
    cpuS: ((c.user + c.system) / 1e6).toFixed(2),
    rssMB: (process.resourceUsage().maxRSS / 1024).toFixed(0),
  }),
);

// Ad-hoc A/B of GET /transactions?account.id=…&timestamp=lt:… (a new URL every request): builds given as dirs.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { BULK_FIRST_ENTITY, bulkAccountCount } from "./fixtures/writer/scenario/bulk.ts";
import { freePort, startBareServer } from "./bench/lib/processes.ts";

const [dbFile, rounds, seconds, ...builds] = process.argv.slice(2) as [string, string, string, ...string[]];
const db = new Database(dbFile, { readonly: true });
db.defaultSafeIntegers(true);
const [first, last] = db.prepare('SELECT MIN(consensus_ns), MAX(consensus_ns) FROM "transaction"').raw().get() as [bigint, bigint];
db.close();
const span = last - first; const accounts = bulkAccountCount(200_000);
const bound = (i: number) => { const ns = last - (span * BigInt(i % 9973)) / 9973n - BigInt(i); return `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`; };
const url = (i: number) => `/api/v1/transactions?account.id=0.0.${BULK_FIRST_ENTITY + ((i * 7919) % accounts)}&timestamp=lt:${bound(i)}`;
const ticks = 100;
const cpu = (pid: number) => { const t = readFileSync(`/proc/${pid}/stat`, "utf8"); const f = t.slice(t.lastIndexOf(")") + 2).split(" "); return (Number(f[11]) + Number(f[12])) / ticks; };
let next = 0;
function script(count: number): string {
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify(url(next++)));
  const file = `/tmp/txb/wrk-${process.pid}.lua`;
  writeFileSync(file, `local paths = {${lines.join(",\n")}}\nlocal n = 0\nrequest = function() n = n + 1 return wrk.format("GET", paths[(n - 1) % #paths + 1]) end\n` +
    `done = function(s, l, r) io.write(string.format('RESULT %d %d %d\\n', s.requests, s.duration, s.errors.status + s.errors.connect + s.errors.read + s.errors.timeout)) end\n`);
  return file;
}
function wrk(port: number, secs: number, file: string | null): Promise<{ requests: number; rps: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const args = ["-t1", "-c32", `-d${secs}s`, "--timeout", "10s", ...(file ? ["-s", file] : []), `http://127.0.0.1:${port}/`];
    const c = spawn("wrk", args, { stdio: ["ignore", "pipe", "inherit"] }); let out = "";
    c.stdout.on("data", (d) => (out += d)); c.once("exit", () => {
      const m = /RESULT (\d+) (\d+) (\d+)/.exec(out);
      if (m) resolve({ requests: +m[1]!, rps: +m[1]! / (+m[2]! / 1e6), errors: +m[3]! });
      else { const r = /Requests\/sec:\s+([\d.]+)/.exec(out); const n = /(\d+) requests in/.exec(out); r && n ? resolve({ requests: +n[1]!, rps: +r[1]!, errors: 0 }) : reject(new Error(out)); }
    });
  });
}
async function serve(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [`${dir}/bin/mirrorlite.js`, "serve", "--records", "/tmp/txb/record0.0.3", "--db", dbFile, "--port", String(port), "--log-level", "warn", "--no-wait-signatures"], { stdio: ["ignore", "inherit", "inherit"] });
  for (;;) { try { if ((await fetch(`http://127.0.0.1:${port}/health/readiness`)).status === 200) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
  return { child, port };
}
const stop = (c: ChildProcess) => new Promise<void>((r) => { if (c.exitCode !== null) return r(); c.once("exit", () => r()); c.kill("SIGTERM"); });
const size = 21824;
const bare = await startBareServer(size);
const results: Record<string, { rps: number; us: number }[]> = {};
for (let round = 0; round < +rounds; round++) {
  for (const dir of [...builds, "bare"]) {
    let pid: number; let port: number; let child: ChildProcess | null = null;
    if (dir === "bare") { pid = bare.process.pid!; port = bare.port; await wrk(port, 1, null); }
    else { const s = await serve(dir); child = s.child; pid = child.pid!; port = s.port; await wrk(port, 2, script(6000)); }
    const file = dir === "bare" ? null : script(40000);
    const c0 = cpu(pid); const r = await wrk(port, +seconds, file); const c1 = cpu(pid);
    const us = ((c1 - c0) * 1e6) / r.requests;
    (results[dir] ??= []).push({ rps: r.rps, us });
    console.log(`round ${round + 1} ${dir}: ${r.rps.toFixed(0)} req/s, CPU ${us.toFixed(0)} µs/request (all threads), errors ${r.errors}`);
    if (child) await stop(child);
  }
}
await bare.stop();
const med = (v: number[]) => { const s = [...v].sort((a, b) => a - b); const m = Math.floor(s.length / 2); return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };
for (const [dir, rs] of Object.entries(results)) console.log(`median ${dir}: ${med(rs.map((r) => r.rps)).toFixed(0)} req/s, ${med(rs.map((r) => r.us)).toFixed(0)} µs CPU/request`);

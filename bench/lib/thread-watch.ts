/**
 * Runs a node script to completion and watches it from Linux's /proc: wall seconds, the CPU seconds of each of its
 * threads (utime + stime of /proc/<pid>/task/<tid>/stat, with the thread's name) and its peak RSS (VmHWM of
 * /proc/<pid>/status). Sampled every 50 ms: a thread's last sample may miss up to that much of its time, and
 * the peak is the last seen high-water mark (it only grows). Elsewhere the thread figures are empty.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export type ThreadCpu = { tid: number; name: string; seconds: number };
export type Watched = { seconds: number; threads: ThreadCpu[]; peakRssMb: number | null; stdout: string };

const TICKS_PER_SECOND = 100;

export function runWatched(script: string, args: readonly string[]): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    const threads = new Map<number, ThreadCpu>();
    let peakKb: number | null = null;
    const sample = () => {
      const pid = child.pid;
      if (pid === undefined) return;
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const hwm = /VmHWM:\s+(\d+)/.exec(status);
        if (hwm) peakKb = Math.max(peakKb ?? 0, Number(hwm[1]));
        for (const entry of readdirSync(`/proc/${pid}/task`)) {
          try {
            const stat = readFileSync(`/proc/${pid}/task/${entry}/stat`, "utf8");
            const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
            const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
            // utime and stime: fields 14 and 15 of stat(5), counted from the state field (3).
            const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
            threads.set(Number(entry), { tid: Number(entry), name, seconds });
          } catch {
            // The thread ended between the listing and the read.
          }
        }
      } catch {
        // The process is gone, or not on Linux.
      }
    };
    const timer = setInterval(sample, 50);
    child.once("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`${script} ${args.join(" ")} exited with ${code}`));
      resolve({
        seconds: (performance.now() - started) / 1000,
        threads: [...threads.values()].sort((a, b) => b.seconds - a.seconds),
        peakRssMb: peakKb === null ? null : peakKb / 1024,
        stdout,
      });
    });
  });
}

/** The busiest threads' CPU seconds, named: `main 3.1 s, reader 1.2 s, …` (those under 0.05 s left out). */
export function describeThreads(threads: readonly ThreadCpu[], most = 4): string {
  const shown = threads.filter((t) => t.seconds >= 0.05).slice(0, most);
  if (shown.length === 0) return "n/a";
  return shown.map((t) => `${t.name} ${t.seconds.toFixed(1)}`).join(", ");
}

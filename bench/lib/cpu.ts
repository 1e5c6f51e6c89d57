/**
 * CPU time a process spends, read from `/proc` (Linux): on a machine whose cores are shared with other work,
 * requests per second swing with the neighbours' load, but the CPU a server spends per request does not (much),
 * and on a saturated box throughput follows it. The figures cover every thread of the process (user + system);
 * the main thread (the HTTP front) is also given alone.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** A process's CPU use so far, in seconds: all its threads, and its main thread alone. */
export type CpuSample = { total: number; main: number };

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of a `/proc/.../stat` line, in clock ticks (fields 14 and 15, after the parenthesised name). */
function statTicks(path: string): number {
  const text = readFileSync(path, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is the state (field 3), so utime (field 14) is fields[11] and stime fields[12].
  return Number(fields[11]) + Number(fields[12]);
}

/** The CPU `pid` has used so far; null where `/proc` is not there (not Linux). */
export function cpuSample(pid: number): CpuSample | null {
  try {
    const ticks = clockTicks();
    return {
      total: statTicks(`/proc/${pid}/stat`) / ticks,
      main: statTicks(`/proc/${pid}/task/${pid}/stat`) / ticks,
    };
  } catch {
    return null;
  }
}

/** Threads of `pid` by CPU used so far (seconds), busiest first: to see where a load's time went. */
export function threadCpu(pid: number): { tid: number; seconds: number }[] {
  const ticks = clockTicks();
  const threads: { tid: number; seconds: number }[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.push({ tid: Number(tid), seconds: statTicks(`/proc/${pid}/task/${tid}/stat`) / ticks });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads.sort((a, b) => b.seconds - a.seconds);
}

/** CPU per request over a load, in microseconds: every thread, and the main thread alone. */
export type CpuPerRequest = { totalUs: number; mainUs: number };

/**
 * Runs `load` and divides the CPU `pid` used meanwhile by the requests it reports. Null when `/proc` cannot be
 * read or no request was answered.
 */
export async function withCpu<T extends { requests: number }>(
  pid: number | undefined,
  load: () => Promise<T>,
): Promise<{ result: T; cpu: CpuPerRequest | null }> {
  const before = pid === undefined ? null : cpuSample(pid);
  const result = await load();
  const after = pid === undefined ? null : cpuSample(pid);
  if (before === null || after === null || result.requests === 0) return { result, cpu: null };
  return {
    result,
    cpu: {
      totalUs: ((after.total - before.total) * 1e6) / result.requests,
      mainUs: ((after.main - before.main) * 1e6) / result.requests,
    },
  };
}

/** The median of some figures (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

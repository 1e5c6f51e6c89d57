/**
 * Load from `wrk`, a native load generator: a JavaScript one on the same two cores takes CPU from the server
 * and inflates every ratio. `ensureWrk` installs it from the Debian package when it is missing and this user
 * can (root with apt-get), and otherwise says how.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type WrkResult = {
  label: string;
  /** Requests answered during the run. */
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection, read, write and timeout errors. */
  errors: number;
  /** Answers with a status other than 2xx/3xx. */
  non2xx: number;
};

function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // `wrk --version` prints its usage and exits 1: it is there.
    return (error as { status?: number }).status === 1;
  }
}

/** Makes sure `wrk` is on the PATH; throws with instructions when it cannot be installed here. */
export function ensureWrk(): void {
  if (hasWrk()) return;
  const root = process.getuid?.() === 0;
  let aptGet = false;
  try {
    execFileSync("apt-get", ["--version"], { stdio: "ignore" });
    aptGet = true;
  } catch {
    // no apt-get
  }
  if (!root || !aptGet) {
    throw new Error(
      "wrk is not installed: install the Debian package (sudo apt-get install wrk) or build it from source, then run again",
    );
  }
  console.log("installing wrk (apt-get install wrk)");
  const install = () =>
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "wrk"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    install();
  } catch {
    execFileSync("apt-get", ["update"], { stdio: "ignore" });
    install();
  }
  if (!hasWrk()) throw new Error("apt-get install wrk did not put wrk on the PATH");
}

/**
 * How the load picks each request's path, as a Lua expression of `n` (the request's number, from `start` + 1:
 * runs that must not repeat each other's URLs start at different numbers).
 */
export type WrkPaths =
  | { kind: "fixed"; path: string }
  | { kind: "lua"; expression: string; prelude?: string; start?: number };

const DONE = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('RESULT {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;

/** Runs wrk (1 thread, `connections` connections) for `seconds` against `port` and reads its figures. */
export async function runWrk(options: {
  label: string;
  port: number;
  paths: WrkPaths;
  seconds: number;
  connections?: number;
}): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), "mirrorlite-wrk-"));
  try {
    const request =
      options.paths.kind === "fixed"
        ? `request = function() return wrk.format("GET", ${JSON.stringify(options.paths.path)}) end`
        : `${options.paths.prelude ?? ""}
local n = ${options.paths.start ?? 0}
request = function()
  n = n + 1
  return wrk.format("GET", ${options.paths.expression})
end`;
    const script = join(dir, "load.lua");
    writeFileSync(script, `${request}\n${DONE}`);
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        "wrk",
        [
          "-t1",
          `-c${options.connections ?? 32}`,
          `-d${options.seconds}s`,
          "--timeout",
          "10s",
          "-s",
          script,
          `http://127.0.0.1:${options.port}`,
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.once("error", reject);
      child.once("exit", (code) =>
        code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}`)),
      );
    });
    const line = output.split("\n").find((l) => l.startsWith("RESULT "));
    if (line === undefined) throw new Error(`no figures from wrk:\n${output}`);
    const figures = JSON.parse(line.slice("RESULT ".length)) as {
      requests: number;
      durationUs: number;
      p50Us: number;
      p99Us: number;
      errors: number;
      non2xx: number;
    };
    return {
      label: options.label,
      requests: figures.requests,
      requestsPerSecond: figures.requests / (figures.durationUs / 1e6),
      p50Ms: figures.p50Us / 1000,
      p99Ms: figures.p99Us / 1000,
      errors: figures.errors,
      non2xx: figures.non2xx,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { REPO_ROOT } from "./service.ts";

export type CliResult = { status: number | null; stdout: string; stderr: string };

/**
 * Tests start many services at once: the gRPC API takes any free port unless a test says otherwise (its default,
 * 5600, would collide).
 */
const TEST_ENV = { MIRRORLITE_GRPC_PORT: "0" };

/** Runs `mirrorlite …` as an operator would, in a child process. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const result = spawnSync(process.execPath, [`${REPO_ROOT}bin/mirrorlite.js`, ...args], {
    encoding: "utf8",
    env: { ...TEST_ENV, ...process.env, ...env },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export type RunningCli = {
  child: ChildProcess;
  /** Every JSON log line so far (stdout), parsed. */
  readonly logs: Array<Record<string, unknown>>;
  stderr(): string;
  /** Resolves with the first log line matching, failing if the process exits first. */
  waitForLog(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** The HTTP port, once the "serving" line is logged. */
  port(): Promise<number>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/**
 * Starts `mirrorlite …` in the background with JSON logs on its stdout. `prefix` is a command that runs it
 * (e.g. `unshare … sh -c '…; exec "$@"'`), given node and its arguments last.
 */
export function startCli(args: readonly string[], options: { prefix?: readonly string[] } = {}): RunningCli {
  const node = [process.execPath, `${REPO_ROOT}bin/mirrorlite.js`, ...args, "--log-format", "json"];
  const [command, ...commandArgs] = [...(options.prefix ?? []), ...node] as [string, ...string[]];
  const child = spawn(command, commandArgs, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...TEST_ENV, ...process.env },
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  let stderr = "";
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
    for (const waiter of waiters.splice(0)) waiter();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      resolve({ code, signal });
      for (const waiter of waiters.splice(0)) waiter();
    });
  });
  const waitForLog = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = logs.find(match);
        if (found) return resolve(found);
        if (child.exitCode !== null || child.signalCode !== null) {
          return reject(new Error(`exited before the expected log line; stderr: ${stderr}`));
        }
        waiters.push(check);
      };
      check();
    });
  return {
    child,
    logs,
    stderr: () => stderr,
    waitForLog,
    port: async () => (await waitForLog((line) => line.msg === "serving the mirror node API")).port as number,
    exited,
  };
}

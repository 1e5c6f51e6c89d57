import { spawnSync } from "node:child_process";
import { REPO_ROOT } from "./service.ts";

export type CliResult = { status: number | null; stdout: string; stderr: string };

/** Runs `mirrorlite …` as an operator would, in a child process. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const result = spawnSync(process.execPath, [`${REPO_ROOT}bin/mirrorlite.js`, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatLine } from "../../src/log.ts";
import { runCli } from "../helpers/cli.ts";
import { REPO_ROOT } from "../helpers/service.ts";

describe("mirrorlite --version and --help", () => {
  it("--version prints the package version", () => {
    const { version } = JSON.parse(readFileSync(`${REPO_ROOT}package.json`, "utf8")) as { version: string };
    const result = runCli(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`mirrorlite ${version} (node ${process.versions.node})\n`);
  });

  it("--help lists the commands; serve --help every flag with its variable and default", () => {
    const main = runCli(["--help"]);
    expect(main.status).toBe(0);
    expect(main.stdout).toContain("mirrorlite serve");
    expect(main.stdout).toContain("mirrorlite ingest");
    const serve = runCli(["serve", "--help"]);
    expect(serve.status).toBe(0);
    for (const [flag, variable] of [
      ["--records DIR", "MIRRORLITE_RECORDS"],
      ["--blocks DIR", "MIRRORLITE_BLOCKS"],
      ["--db FILE", "MIRRORLITE_DB"],
      ["--port N", "MIRRORLITE_PORT"],
      ["--host H", "MIRRORLITE_HOST"],
      ["--log-level L", "MIRRORLITE_LOG_LEVEL"],
      ["--log-format F", "MIRRORLITE_LOG_FORMAT"],
      ["--list-cache-ms MS", "MIRRORLITE_LIST_CACHE_MS"],
      ["--poll-ms MS", "MIRRORLITE_POLL_MS"],
      ["--worker-heap-mb MB", "MIRRORLITE_WORKER_HEAP_MB"],
      ["--max-file-mb MB", "MIRRORLITE_MAX_FILE_MB"],
      ["--metrics-port N", "MIRRORLITE_METRICS_PORT"],
      ["--java-port N", "MIRRORLITE_JAVA_PORT"],
    ]) {
      const line = serve.stdout.split("\n").find((l) => l.trimStart().startsWith(`${flag} `));
      expect(line, flag).toContain(variable);
    }
    expect(serve.stdout).toContain("(5551)");
    expect(serve.stdout).toContain("(127.0.0.1)");
    expect(serve.stdout).toContain("--no-wait-signatures");
    expect(serve.stdout).toContain("--verify-signatures FILE");
    const ingest = runCli(["ingest", "--help"]);
    expect(ingest.status).toBe(0);
    expect(ingest.stdout).toContain("Usage: mirrorlite ingest --records DIR --db FILE");
  });

  it("an unknown flag is a usage error (exit 2) naming it", () => {
    const result = runCli(["serve", "--bogus"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^mirrorlite: .*--bogus/);
  });
});

describe("readable log lines for a terminal", () => {
  it("puts time, level, component and message first, then the fields", () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
      pid: 1,
      name: "mirrorlite",
      component: "ingest",
      file: "a.rcd",
      transactions: 3,
      msg: "ingested record file",
    });
    expect(formatLine(line)).toBe(
      "03:04:05.678 INFO  [ingest] ingested record file file=a.rcd transactions=3\n",
    );
  });
});

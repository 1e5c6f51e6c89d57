import { describe, expect, it } from "vitest";
import { parseCommand, SERVE_USAGE } from "../../src/cli/args.ts";
import { ingestWorkerData } from "../../src/cli/ingest-worker-data.ts";
import { type Config, ConfigError } from "../../src/config.ts";

const RECORDS = ["--records", "/tmp/records", "--db", "/tmp/index.db"];

function sidecarsOf(args: string[], env: NodeJS.ProcessEnv = {}): Config["sidecars"] {
  return (parseCommand(["ingest", ...RECORDS, ...args], env) as { config: Config }).config.sidecars;
}

describe("--sidecars", () => {
  it("is unset by default (the ingestor then reads sidecars when present)", () => {
    expect(sidecarsOf([])).toBeUndefined();
    const config = (parseCommand(["ingest", ...RECORDS], {}) as { config: Config }).config;
    expect(
      ingestWorkerData(config, { path: "/tmp/index.db", inMemory: false, dispose: () => {} }, false).sidecars,
    ).toBeUndefined();
  });

  it("takes off, optional and required from the flag or MIRRORLITE_SIDECARS, the flag winning", () => {
    expect(sidecarsOf(["--sidecars", "off"])).toBe("off");
    expect(sidecarsOf(["--sidecars", "required"])).toBe("required");
    expect(sidecarsOf([], { MIRRORLITE_SIDECARS: "optional" })).toBe("optional");
    expect(sidecarsOf(["--sidecars", "off"], { MIRRORLITE_SIDECARS: "required" })).toBe("off");
    const config = (parseCommand(["ingest", ...RECORDS, "--sidecars", "required"], {}) as { config: Config })
      .config;
    expect(
      ingestWorkerData(config, { path: "/tmp/index.db", inMemory: false, dispose: () => {} }, false).sidecars,
    ).toBe("required");
  });

  it("refuses any other value, naming it", () => {
    for (const [args, env] of [
      [["--sidecars", "yes"], {}],
      [[], { MIRRORLITE_SIDECARS: "Required" }],
      [["--sidecars", ""], {}],
    ] as Array<[string[], NodeJS.ProcessEnv]>) {
      let error: unknown;
      try {
        sidecarsOf(args, env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join(" ")).toMatch(
        /^sidecars must be off, optional or required, not "/,
      );
    }
  });

  it("is listed in serve --help with its variable", () => {
    const line = SERVE_USAGE.split("\n").find((l) => l.trimStart().startsWith("--sidecars MODE "));
    expect(line).toContain("MIRRORLITE_SIDECARS");
  });
});

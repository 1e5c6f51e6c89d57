/**
 * What `npm pack` (and so `npm install` from the registry or a tarball) ships: everything the program reads at
 * run time beside its compiled code (src/runtime/assets.ts), and nothing of the single-executable build.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/service.ts";

/** Files `src/runtime/assets.ts` (compiled into dist/runtime/) reads at run time, relative to the package. */
const READ_AT_RUN_TIME = [
  "package.json",
  "bin/mirrorlite.js",
  "dist/cli/main.js",
  "dist/ingest/worker.js",
  "dist/api/openapi.yaml",
  "dist/api/openapi.json",
  "proto/simple-fee-schedule.proto",
  "fixtures/streams/demo/record0.0.3/2024-06-01T08_00_00.063259037Z.rcd.gz",
  "fixtures/streams/demo/balance0.0.3/2024-06-01T07_59_59.700000000Z_Balances.pb.gz",
];

describe("the npm package", () => {
  it("holds every file the program reads at run time, and no single-executable build output", () => {
    const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const files = new Set(
      (JSON.parse(output) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path),
    );
    for (const path of READ_AT_RUN_TIME) expect(files.has(path), path).toBe(true);
    expect([...files].filter((path) => path === "dist/mirrorlite" || path.startsWith("dist/sea/"))).toEqual(
      [],
    );
  }, 120_000);
});

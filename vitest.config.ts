import { defineConfig } from "vitest/config";

/**
 * Tests that kill processes, fill file systems, flood or soak: `npm run test:slow` (`.ci/run` runs them after
 * `npm test`). Everything else is `npm test`.
 */
const SLOW = [
  "test/ingest/crash-resume.test.ts",
  "test/ingest/disk-full.test.ts",
  "test/ingest/wal-bound.test.ts",
  "test/ingest/progress-log.test.ts",
  "test/cli/lifecycle.test.ts",
  "test/cli/drain.test.ts",
  "test/api/cache-flood.test.ts",
  "test/streams/scenario-bulk-mainnet.test.ts",
  "test/fees/high-volume.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The CLI tests run the compiled program: compile it once before any test file starts.
    globalSetup: ["test/helpers/build-dist.ts"],
    // Test services start their worker threads from that compiled program (see the file).
    setupFiles: ["test/helpers/compiled-workers.ts"],
    // Tests start worker threads and servers of their own; forks keep each file's processes apart.
    pool: "forks",
    // The CLI listens on 8084 for the SDKs' Java-service queries by default: never in tests, whose programs
    // (spawned with this environment) run side by side. Tests that want the second port ask for port 0.
    env: { MIRRORLITE_JAVA_PORT: "0" },
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});

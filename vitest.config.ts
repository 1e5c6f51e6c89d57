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

/**
 * Exhaustive tests run in both projects: `npm test` runs a part that covers every route and code path, the slow
 * project (where `MIRRORLITE_TEST_SLOW=1`) the rest: more fuzz requests from another seed, the remaining
 * record/block equivalence cases (see each file).
 */
const SPLIT = ["test/api/fuzz/fuzz.test.ts", "test/ingest/block-streams-equivalence.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The CLI tests run the compiled program: compile it once before any test file starts.
    globalSetup: ["test/helpers/build-dist.ts"],
    // Test services start their worker threads from that compiled program (see the file).
    setupFiles: ["test/helpers/compiled-workers.ts"],
    // Tests start worker threads and servers of their own; forks keep them out of vitest's own threads.
    pool: "forks",
    // Two test files at a time, whatever the machine: a file spends much of its time waiting for its service's
    // threads (ingest, read workers), which have cores of their own to use meanwhile.
    maxWorkers: 2,
    minWorkers: 1,
    // Test files share their fork's loaded modules (the sources, SQLite, the EVM, ajv's compiled schemas):
    // loading them again for each of ~150 files cost more than most files' tests. Nothing in the suite mocks a
    // module or changes global state for later files to see; each file still runs its own hooks and services.
    isolate: false,
    // The CLI listens on 8084 for the SDKs' Java-service queries by default: never in tests, whose programs
    // (spawned with this environment) run side by side. Tests that want the second port ask for port 0.
    env: { MIRRORLITE_JAVA_PORT: "0" },
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW } },
      {
        extends: true,
        test: {
          name: "slow",
          include: [...SLOW, ...SPLIT],
          env: { MIRRORLITE_JAVA_PORT: "0", MIRRORLITE_TEST_SLOW: "1" },
          // Kills, full disks and floods: one file at a time, each with modules of its own.
          isolate: true,
          poolOptions: { forks: { singleFork: true, isolate: true } },
        },
      },
    ],
  },
});

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The CLI tests run the compiled program: compile it once before any test file starts.
    globalSetup: ["test/helpers/build-dist.ts"],
    // Tests start worker threads and servers of their own; forks keep each file's processes apart.
    pool: "forks",
    // The CLI listens on 8084 for the SDKs' Java-service queries by default: never in tests, whose programs
    // (spawned with this environment) run side by side. Tests that want the second port ask for port 0.
    env: { MIRRORLITE_JAVA_PORT: "0" },
  },
});

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
  },
});

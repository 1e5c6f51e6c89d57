/**
 * Vitest setup file: services that tests start run on the TypeScript sources, but their worker threads (ingest,
 * block reader, read workers) start from the compiled program in dist/, which the global setup has just compiled
 * from the same sources. Loading every module of every thread through the tsx loader was most of the cost of
 * starting a test service. Should dist/ be older than a source file (a source edited while vitest watches), the
 * threads load the sources as before: a test never runs stale code.
 */
import { startWorkersFromCompiledCode } from "../../src/runtime/assets.ts";
import { distIsFresh } from "./build-dist.ts";

startWorkersFromCompiledCode(distIsFresh() ? new URL("../../dist/", import.meta.url) : null);

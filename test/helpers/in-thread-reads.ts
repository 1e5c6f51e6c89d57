import Database from "better-sqlite3";
import { createJobAnswerer } from "../../src/api/answer-job.ts";
import type { ReadAnswerer } from "../../src/api/read-pool.ts";
import type { RouteDef } from "../../src/api/routes/route-table.ts";
import type { ReadStore } from "../../src/store/read-store.ts";

/**
 * The answer step run in the test's own thread, for tests of the front with routes of their own: the same
 * `createJobAnswerer` every read worker runs, without a thread. The service itself always uses the pool. A store
 * without a connection (routes that read no index) gets an empty in-memory one: every job runs in a read
 * transaction on it.
 */
export function inThreadReads(routes: readonly RouteDef[], store: ReadStore): ReadAnswerer {
  const answer = createJobAnswerer(
    routes,
    store.db === undefined ? { ...store, db: new Database(":memory:") } : store,
  );
  return {
    run: (job) => Promise.resolve(answer(structuredClone(job))).then((outcome) => structuredClone(outcome)),
  };
}

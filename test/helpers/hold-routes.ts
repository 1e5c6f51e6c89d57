/**
 * Test-only routes that hold a read worker on purpose, loaded by URL through `ServiceExtras.routeModules` (on
 * the front and in every read worker); nothing in production can reach them.
 *
 * - `/api/v1/test/hold/{ms}`: one SQL statement that calls a JavaScript function spinning for `ms`;
 * - `/api/v1/test/hold-until/{token}`: one SQL statement that calls a JavaScript function which says it has
 *   started and then waits until the test releases it (`heldQuery`): a query held for as long as the test wants,
 *   whatever the machine's load;
 * - `/api/v1/test/spin/{steps}`: one SQL statement that counts to `steps` in SQLite itself (a recursive CTE),
 *   never returning to JavaScript until it ends;
 * - `/api/v1/network/test-hold/{ms}` and `/api/v1/network/test-hold-until/{token}`: the holds, in the Java style;
 * - `/api/v1/test/uncloneable`: a `parse` that returns a function, which could not travel between threads (the
 *   read worker parses, so it never has to).
 */
import { randomBytes } from "node:crypto";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineRoute, jsonAnswer, type RouteDef } from "../../src/api/routes/route-table.ts";
import type { ReadStore } from "../../src/store/read-store.ts";

export const HOLD_ROUTES_URL = new URL("./hold-routes.ts", import.meta.url).href;

const HOLD_FUNCTION = "mirrorlite_test_hold";
const HOLD_UNTIL_FUNCTION = "mirrorlite_test_hold_until";
const registered = new WeakSet<object>();
const registeredUntil = new WeakSet<object>();

/** A held query's marker files: written by the worker when it starts, by the test to release it. */
const holdFiles = (token: string) => {
  const base = join(tmpdir(), `mirrorlite-hold-${token.replace(/[^0-9a-f]/g, "")}`);
  return { started: `${base}.started`, release: `${base}.release` };
};

/** A query that stays held until released, however long, but never past a bound a failing test cannot exceed. */
const HOLD_UNTIL_BOUND_MS = 120_000;

function holdUntilReleased(store: ReadStore, token: string): boolean {
  if (!registeredUntil.has(store.db)) {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    store.db.function(HOLD_UNTIL_FUNCTION, (wanted: unknown) => {
      const files = holdFiles(String(wanted));
      writeFileSync(files.started, "");
      const bound = Date.now() + HOLD_UNTIL_BOUND_MS;
      // Short waits: a worker terminated meanwhile stops as soon as JavaScript runs again.
      while (!existsSync(files.release) && Date.now() < bound) Atomics.wait(pause, 0, 0, 2);
      return existsSync(files.release) ? 1 : 0;
    });
    registeredUntil.add(store.db);
  }
  return Number(store.db.prepare(`SELECT ${HOLD_UNTIL_FUNCTION}(?)`).pluck().get(token)) === 1;
}

export type HeldQuery = {
  /** The route's path: GET it to start the held query. */
  readonly path: string;
  /** The same hold on the Java-style route. */
  readonly javaPath: string;
  /** Resolves once a read worker runs the query (checked every 10 ms). */
  started(): Promise<void>;
  /** Whether a read worker has started the query. */
  hasStarted(): boolean;
  /** Lets the query end (a query never released ends after two minutes). */
  release(): void;
  /** Releases it and removes its files. */
  dispose(): void;
};

/** A new query to hold on a read worker until the test releases it (see the module comment). */
export function heldQuery(): HeldQuery {
  const token = randomBytes(8).toString("hex");
  const files = holdFiles(token);
  const release = () => writeFileSync(files.release, "");
  return {
    path: `/api/v1/test/hold-until/${token}`,
    javaPath: `/api/v1/network/test-hold-until/${token}`,
    hasStarted: () => existsSync(files.started),
    async started() {
      while (!existsSync(files.started)) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    release,
    dispose() {
      release();
      // The worker may still be between its last look and its answer: the files go after the test's own.
      setTimeout(() => {
        rmSync(files.started, { force: true });
        rmSync(files.release, { force: true });
      }, 1000).unref();
    },
  };
}

function hold(store: ReadStore, ms: number): bigint {
  if (!registered.has(store.db)) {
    store.db.function(HOLD_FUNCTION, (wanted: unknown) => {
      const until = Date.now() + Number(wanted);
      let spins = 0n;
      while (Date.now() < until) spins++;
      return spins;
    });
    registered.add(store.db);
  }
  return store.db.prepare(`SELECT ${HOLD_FUNCTION}(?)`).pluck().get(ms) as bigint;
}

export function routes(): RouteDef[] {
  const readNumber = (text: string | undefined) => Number(text ?? "0");
  return [
    defineRoute({
      template: "/api/v1/test/hold/{ms}",
      caching: "none",
      maxAge: 1,
      parse: ({ params }) => readNumber(params.ms),
      answer: (store, ms) => jsonAnswer({ held: ms, spins: hold(store, ms) > 0n }),
    }),
    defineRoute({
      template: "/api/v1/test/hold-until/{token}",
      caching: "none",
      maxAge: 1,
      parse: ({ params }) => params.token ?? "",
      answer: (store, token) => jsonAnswer({ released: holdUntilReleased(store, token) }),
    }),
    defineRoute({
      template: "/api/v1/test/spin/{steps}",
      caching: "none",
      maxAge: 1,
      parse: ({ params }) => readNumber(params.steps),
      answer: (store, steps) => {
        const counted = store.db
          .prepare(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) FROM c",
          )
          .pluck()
          .get(steps) as bigint;
        return jsonAnswer({ counted: counted.toString() });
      },
    }),
    defineRoute({
      template: "/api/v1/test/uncloneable",
      caching: "none",
      maxAge: 1,
      parse: () => () => 1,
      answer: () => jsonAnswer({ reached: true }),
    }),
    defineRoute({
      template: "/api/v1/network/test-hold/{ms}",
      caching: "none",
      maxAge: 60,
      style: "java",
      parse: ({ params }) => readNumber(params.ms),
      answer: (store, ms) => jsonAnswer({ held: ms, spins: hold(store, ms) > 0n }),
    }),
    defineRoute({
      template: "/api/v1/network/test-hold-until/{token}",
      caching: "none",
      maxAge: 60,
      style: "java",
      parse: ({ params }) => params.token ?? "",
      answer: (store, token) => jsonAnswer({ released: holdUntilReleased(store, token) }),
    }),
  ];
}

/**
 * Test-only routes that hold a read worker on purpose, loaded by URL through `ServiceExtras.routeModules` (on
 * the front and in every read worker); nothing in production can reach them.
 *
 * - `/api/v1/test/hold/{ms}`: one SQL statement that calls a JavaScript function spinning for `ms`;
 * - `/api/v1/test/spin/{steps}`: one SQL statement that counts to `steps` in SQLite itself (a recursive CTE),
 *   never returning to JavaScript until it ends;
 * - `/api/v1/network/test-hold/{ms}`: the first, in the Java style;
 * - `/api/v1/test/uncloneable`: a `parse` that returns a function, which could not travel between threads (the
 *   read worker parses, so it never has to).
 */
import { defineRoute, jsonAnswer, type RouteDef } from "../../src/api/routes/route-table.ts";
import type { ReadStore } from "../../src/store/read-store.ts";

export const HOLD_ROUTES_URL = new URL("./hold-routes.ts", import.meta.url).href;

const HOLD_FUNCTION = "mirrorlite_test_hold";
const registered = new WeakSet<object>();

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
  ];
}

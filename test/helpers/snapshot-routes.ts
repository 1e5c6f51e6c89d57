/**
 * A test-only route that shows whether one answer reads one snapshot, loaded by URL through
 * `ServiceExtras.routeModules` (nothing in production can reach it).
 *
 * `/api/v1/test/snapshot/{id}?staging=DIR&stream=DIR&after=N`: inside one job it answers `/api/v1/accounts/{id}`
 * (the real route: entity, balances, token balances, transactions), then moves the record files of `staging`
 * into the watched `stream` folder and waits (on a connection of its own) until the ingest has committed a
 * block past `after`, then answers `/api/v1/accounts/{id}` again in the same job. Both bodies come back: they
 * are equal exactly when the job's statements all read the snapshot of its first statement. No timing decides
 * anything: the commit has happened (or the route says it did not) before the second answer is computed.
 */
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { apiRoutes } from "../../src/api/app.ts";
import { defineRoute, type RouteDef } from "../../src/api/routes/route-table.ts";
import type { ReadStore } from "../../src/store/read-store.ts";

export const SNAPSHOT_ROUTES_URL = new URL("./snapshot-routes.ts", import.meta.url).href;

type SnapshotQuery = { id: string; staging: string; stream: string; after: string };

const ACCOUNT_TEMPLATE = "/api/v1/accounts/{idOrAliasOrEvmAddress}";
/** How long the route waits for the commit before it gives up (it says so: `committed: false`). */
const COMMIT_WAIT_MS = 20_000;

function answerAccount(store: ReadStore, id: string): string {
  const route = apiRoutes().find((r) => r.template === ACCOUNT_TEMPLATE);
  if (route === undefined) throw new Error("no accounts route");
  const request = { url: `/api/v1/accounts/${id}`, params: { idOrAliasOrEvmAddress: id } };
  return route.answer(store, route.parse(request), request).json;
}

/** Copies record files before their signatures: the watcher takes a file once its signature exists. */
function moveStaged(staging: string, stream: string): void {
  const files = readdirSync(staging).sort(
    (a, b) => Number(a.endsWith("_sig")) - Number(b.endsWith("_sig")) || a.localeCompare(b),
  );
  for (const file of files) copyFileSync(join(staging, file), join(stream, file));
}

/** Waits, on a connection of its own, until a block numbered above `after` is committed. */
function waitForCommit(path: string, after: bigint): boolean {
  const own = new Database(path, { readonly: true, fileMustExist: true });
  own.defaultSafeIntegers(true);
  const last = own.prepare("SELECT MAX(number) FROM record_file").pluck();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  try {
    for (let waited = 0; waited < COMMIT_WAIT_MS; waited += 20) {
      const number = last.get() as bigint | null;
      if (number !== null && number > after) return true;
      Atomics.wait(pause, 0, 0, 20);
    }
    return false;
  } finally {
    own.close();
  }
}

export function routes(): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/test/snapshot/{id}",
      caching: "none",
      maxAge: 1,
      parse: ({ url, params }): SnapshotQuery => {
        const query = new URL(url, "http://test").searchParams;
        return {
          id: params.id ?? "",
          staging: query.get("staging") ?? "",
          stream: query.get("stream") ?? "",
          after: query.get("after") ?? "0",
        };
      },
      answer: (store, query: SnapshotQuery) => {
        const before = answerAccount(store, query.id);
        moveStaged(query.staging, query.stream);
        const committed = waitForCommit(store.db.name, BigInt(query.after));
        const after = answerAccount(store, query.id);
        // The two bodies verbatim (no parse and print again: int64 fields stay exact).
        return {
          status: 200,
          json: `{"committed":${committed},"before":${before},"after":${after}}`,
          next: null,
        };
      },
    }),
  ];
}

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Condition, Op } from "../../src/store/conditions.ts";
import { type Db, openReader } from "../../src/store/db.ts";
import { createReadStore, type ReadStore } from "../../src/store/read-store.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService, type TestService, tempDir } from "../helpers/service.ts";

/**
 * List statements are prepared from SQL whose text depends on which operators a request's filters use (a
 * repeated filter folds to one shape, see where-fold.test.ts, but the mixes of operators, orders and columns
 * still make dozens): the cache of prepared statements must stay within its bound however many shapes arrive,
 * and answers must not change when statements are dropped and prepared again.
 */
const SCENARIO = "tokens-group-nfts";
const ledger = expectedLedger(SCENARIO);
const OPS: Op[] = ["eq", "ne", "lt", "lte", "gt", "gte"];
const BOUND = 16;

let service: TestService;
let removeStream: () => void;
let removeDb: () => void;
let reader: Db;
let store: ReadStore;

beforeAll(async () => {
  const stream = copyStream(fixtureStream(SCENARIO));
  removeStream = stream.remove;
  const dbDir = tempDir();
  removeDb = dbDir.remove;
  service = await startTestService({ recordsDir: stream.dir, db: join(dbDir.dir, "index.db") });
  await service.ingest.settled;
  reader = openReader(join(dbDir.dir, "index.db"));
  store = createReadStore(reader, BOUND);
});

afterAll(async () => {
  reader?.close();
  await service?.stop();
  removeStream?.();
  removeDb?.();
});

/** The `i`-th shape: a different count and mix of operators on the account. */
function accountConditions(i: number): Condition<bigint>[] {
  const count = 1 + (i % 40);
  return Array.from({ length: count }, (_, k) => ({
    op: OPS[(i + k * 7) % OPS.length]!,
    value: 3000n + BigInt(k),
  }));
}

const num = (id: string) => BigInt(id.split(".")[2]!);
const DROP = num(Object.values(ledger.tokens).find((t) => t.name === "Rain Drop")!.id);

describe("the list statement cache", () => {
  it("stays within its bound over hundreds of distinct shapes, with the same answers", () => {
    const fresh = () => createReadStore(reader, BOUND);
    for (let i = 0; i < 400; i++) {
      const query = {
        scope: { kind: "one" as const, tokenId: DROP },
        accountIds: accountConditions(i),
        balances: accountConditions(i + 1).map((c) => ({ ...c, value: c.value - 3000n })),
        publicKey: null,
        order: i % 2 === 0 ? ("asc" as const) : ("desc" as const),
        limit: 25,
        atNs: null,
      };
      const rows = store.balances.listBalances(query);
      expect(store.statements.size).toBeLessThanOrEqual(BOUND);
      // Every 50th shape is checked against a store that has never seen a statement.
      if (i % 50 === 0) expect(rows).toEqual(fresh().balances.listBalances(query));
    }
    for (let i = 0; i < 200; i++) {
      store.nfts.listNfts({
        scope: { kind: "all", tokenIds: [], tokenConditions: [], lower: null, upper: null },
        accountIds: [],
        serials: accountConditions(i).map((c) => ({ ...c, value: c.value - 3000n })),
        order: "asc",
        limit: 10,
      });
    }
    expect(store.statements.size).toBe(BOUND);
  });

  it("prepares a repeated shape once", () => {
    const own = createReadStore(reader, BOUND);
    const query = {
      tokenIds: [],
      tokenConditions: [],
      accountId: undefined,
      publicKeys: [],
      types: [],
      names: ["rain", "drop"],
      order: "asc" as const,
      limit: 25,
    };
    const first = own.tokenLists.listTokens(query);
    expect(first.map((row) => row.id)).toEqual([DROP]);
    // Any number of names shares one statement.
    own.tokenLists.listTokens({ ...query, names: ["rain", "drop", "ain", "dro", "rai"] });
    own.tokenLists.listTokens({ ...query, names: ["sea"] });
    expect(own.statements.size).toBe(1);
  });
});

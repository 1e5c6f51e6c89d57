/**
 * `GET /api/v1/transactions/{transactionIdOrHash}` on real ingested streams, compared field by field with what
 * the public mirror node would serve (`transaction-oracle.ts`): every transaction id of each stream, `nonce` and
 * `scheduled`, hashes in every accepted spelling, and the 400 / 404 answers.
 */

import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { cacheControlOf, createJobAnswerer } from "../../src/api/answer-job.ts";
import { responseOf } from "../../src/api/cache.ts";
import { transactionRoutes } from "../../src/api/routes/transactions.ts";
import type { ReadStore } from "../../src/store/read-store.ts";
import type { TransactionRow } from "../../src/store/transactions.ts";
import { expectedLedger, fixtureStream, useStreams } from "../helpers/fixtures.ts";
import { REAL_STREAMS, type TestService } from "../helpers/service.ts";
import { type OracleTransaction, oracleTransactions } from "../helpers/transaction-oracle.ts";
import { errorsOf, getJson } from "./transactions-helpers.ts";

type Tx = Record<string, unknown>;
type Details = { transactions: Tx[] };
type Stream = { service: TestService; oracle: OracleTransaction[] };

const SOURCES: Record<string, string> = {
  transactions: fixtureStream("transactions"),
  "accounts-and-nfts": fixtureStream("accounts-and-nfts"),
  tokens: fixtureStream("tokens"),
  "real-v6": join(REAL_STREAMS, "v6/record0.0.3"),
  "real-v2": join(REAL_STREAMS, "v2/record0.0.3"),
};
const services = useStreams(SOURCES);
const streams = new Map<string, Stream>();

beforeAll(() => {
  for (const [name, source] of Object.entries(SOURCES))
    streams.set(name, { service: services.get(name)!, oracle: oracleTransactions(source) });
});

const stream = (name = "transactions") => streams.get(name)!;
const ledger = expectedLedger("transactions");
const step = (label: string) =>
  ledger.steps.find((s) => s.label === label) as unknown as {
    consensusTimestamp: string;
    transactionId: string;
    children?: { consensusTimestamp: string }[];
    scheduled?: { consensusTimestamp: string; status: string };
  };
/** The REST form of a scenario transaction id (nine digits of nanoseconds). */
const restId = (id: string) => {
  const [payer, seconds, nanos] = id.split("-") as [string, string, string];
  return `${payer}-${seconds}-${nanos.padStart(9, "0")}`;
};
const byTime = (oracle: OracleTransaction[], time: string) =>
  oracle.find((t) => t.listed.consensus_timestamp === time)!;

describe("by transaction id", () => {
  it.each(Object.keys(SOURCES))(
    "%s: every id lists its transactions, oldest first, field by field",
    async (name) => {
      const { service, oracle } = stream(name);
      const ids = new Map<string, OracleTransaction[]>();
      for (const tx of oracle) {
        const id = tx.listed.transaction_id as string;
        ids.set(id, [...(ids.get(id) ?? []), tx]);
      }
      expect(ids.size).toBeGreaterThan(1);
      for (const [id, expected] of ids) {
        const body = await getJson<Details>(service, `/api/v1/transactions/${id}`);
        expect(body.transactions, id).toEqual(expected.map((t) => t.detailed));
        expect(Object.keys(body)).toEqual(["transactions"]);
      }
    },
  );

  it("gives a parent with its children, filtered by nonce", async () => {
    const { service, oracle } = stream();
    const parent = step("auto-create");
    const id = restId(parent.transactionId);
    const child = byTime(oracle, parent.children![0]!.consensusTimestamp);
    const own = byTime(oracle, parent.consensusTimestamp);
    expect((await getJson<Details>(service, `/api/v1/transactions/${id}`)).transactions).toEqual([
      child.detailed,
      own.detailed,
    ]);
    expect((await getJson<Details>(service, `/api/v1/transactions/${id}?nonce=1`)).transactions).toEqual([
      child.detailed,
    ]);
    expect((await getJson<Details>(service, `/api/v1/transactions/${id}?nonce=0`)).transactions).toEqual([
      own.detailed,
    ]);
    expect(
      (await getJson<Details>(service, `/api/v1/transactions/${id}?nonce=7&nonce=0`)).transactions,
    ).toEqual([own.detailed]);
    await errorsOf(service, `/api/v1/transactions/${id}?nonce=2`, 404);
  });

  it("gives a ScheduleCreate with its execution, filtered by scheduled", async () => {
    const { service, oracle } = stream();
    const create = step("pay-create");
    const id = restId(create.transactionId);
    const created = byTime(oracle, create.consensusTimestamp);
    const executed = byTime(oracle, step("pay-sign").scheduled!.consensusTimestamp);
    expect(executed.listed).toMatchObject({ scheduled: true, transaction_id: id, result: "SUCCESS" });
    expect((await getJson<Details>(service, `/api/v1/transactions/${id}`)).transactions).toEqual([
      created.detailed,
      executed.detailed,
    ]);
    expect(
      (await getJson<Details>(service, `/api/v1/transactions/${id}?scheduled=true`)).transactions,
    ).toEqual([executed.detailed]);
    expect(
      (await getJson<Details>(service, `/api/v1/transactions/${id}?scheduled=FALSE`)).transactions,
    ).toEqual([created.detailed]);
    expect(
      (await getJson<Details>(service, `/api/v1/transactions/${id}?scheduled=true&scheduled=false`))
        .transactions,
    ).toEqual([created.detailed]);
    // A schedule never signed: its create alone, and nothing scheduled.
    const later = restId(step("later-create").transactionId);
    expect((await getJson<Details>(service, `/api/v1/transactions/${later}`)).transactions).toHaveLength(1);
    await errorsOf(service, `/api/v1/transactions/${later}?scheduled=true`, 404);
    // An execution that failed is listed with its status.
    const broke = restId(step("broke-create").transactionId);
    const failed = (await getJson<Details>(service, `/api/v1/transactions/${broke}?scheduled=true`))
      .transactions;
    expect(failed).toMatchObject([{ scheduled: true, result: "INSUFFICIENT_ACCOUNT_BALANCE" }]);
  });

  it("shows assessed custom fees only where a transaction was assessed some, and only here", async () => {
    const { service, oracle } = stream();
    const fees = byTime(oracle, step("gold-fees").consensusTimestamp);
    const [detail] = (
      await getJson<Details>(service, `/api/v1/transactions/${restId(step("gold-fees").transactionId)}`)
    ).transactions;
    expect(detail!.assessed_custom_fees).toEqual(fees.detailed.assessed_custom_fees);
    expect(detail!.assessed_custom_fees).toContainEqual(
      expect.objectContaining({ effective_payer_account_ids: [ledger.accounts.bob!.id] }),
    );
    expect(Object.keys(detail!)[0]).toBe("assessed_custom_fees");
    const plain = (
      await getJson<Details>(service, `/api/v1/transactions/${restId(step("bob-pays").transactionId)}`)
    ).transactions[0]!;
    expect("assessed_custom_fees" in plain).toBe(false);
    const list = await getJson<{ transactions: Tx[] }>(
      service,
      `/api/v1/transactions?timestamp=${step("gold-fees").consensusTimestamp}`,
    );
    expect("assessed_custom_fees" in list.transactions[0]!).toBe(false);
  });

  it("answers with the lookup's cache lifetime", async () => {
    const response = await stream().service.get(
      `/api/v1/transactions/${restId(step("bob-pays").transactionId)}`,
    );
    expect(response.headers.get("cache-control")).toBe("public, max-age=600");
  });

  it("ages fast while a recent ScheduleCreate waits for its execution, as upstream's header does", () => {
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const row = (consensusNs: bigint, type: number, scheduled: boolean): TransactionRow => ({
      consensusNs,
      type,
      result: 22,
      payerId: 2n,
      validStartNs: 1_000_000_001n,
      nonce: 0,
      scheduled,
      highVolume: false,
      chargedFee: 1n,
      maxFee: 1n,
      validDurationSeconds: 120n,
      nodeId: 3n,
      entityId: null,
      parentNs: null,
      memo: new Uint8Array(),
      hash: new Uint8Array(48),
      transfers: [],
      tokenTransfers: [],
      nftTransfers: [],
      extras: {
        stakingRewardTransfers: [],
        assessedCustomFees: [],
        maxCustomFees: [],
        batchKey: null,
        highVolumePricingMultiplier: 0n,
        innerTransactions: [],
      },
    });
    const headerFor = (rows: TransactionRow[]) => {
      // An empty connection: every job runs in a read transaction.
      const store = {
        db: new Database(":memory:"),
        transactions: { getTransactionsById: () => rows, getTransactionsByHash: () => rows },
      } as unknown as ReadStore;
      const routes = transactionRoutes();
      const answer = createJobAnswerer(routes, store);
      const path = "/api/v1/transactions/0.0.2-1-1";
      const outcome = answer({
        template: "/api/v1/transactions/{transactionIdOrHash}",
        method: "GET",
        query: { locator: { kind: "id", payerId: 2n, validStartNs: 1_000_000_001n }, filter: {} },
        request: { url: path, params: { transactionIdOrHash: "0.0.2-1-1" } },
      });
      if (!outcome.ok) throw new Error("no answer");
      // The header as the front writes it: the route's, unless the answer carries its own max-age.
      const route = routes.find((r) => r.template === "/api/v1/transactions/{transactionIdOrHash}")!;
      return responseOf(outcome.response, cacheControlOf(route, 1000)).cacheControl;
    };
    expect(headerFor([row(nowNs - 1_000_000_000n, 42, false)])).toBe("public, max-age=5");
    // Executed already, or created longer ago than the 62-day window: the lookup's own lifetime.
    expect(headerFor([row(nowNs - 2_000_000_000n, 42, false), row(nowNs - 1_000_000_000n, 14, true)])).toBe(
      "public, max-age=600",
    );
    expect(headerFor([row(nowNs - 63n * 86_400n * 1_000_000_000n, 42, false)])).toBe("public, max-age=600");
  });
});

describe("by hash", () => {
  it("finds a transaction by its hash in hex, 0x hex, upper-case hex and base64url", async () => {
    const { service, oracle } = stream();
    for (const label of ["alice-pays", "gold-fees", "pay-create", "dave-fails"]) {
      const tx = byTime(oracle, step(label).consensusTimestamp);
      const hash = Buffer.from(tx.listed.transaction_hash as string, "base64");
      expect(hash).toHaveLength(48);
      for (const spelling of [
        hash.toString("hex"),
        `0x${hash.toString("hex")}`,
        hash.toString("hex").toUpperCase(),
        hash.toString("base64url"),
      ]) {
        const body = await getJson<Details>(service, `/api/v1/transactions/${spelling}`);
        expect(body.transactions, `${label} ${spelling}`).toEqual([tx.detailed]);
      }
    }
  });

  it("answers 404 for a hash nobody has, even one sharing a prefix with a real one", async () => {
    const { service, oracle } = stream();
    const real = Buffer.from(oracle[0]!.listed.transaction_hash as string, "base64");
    const near = Buffer.from(real);
    near[47] = (near[47]! + 1) % 256;
    expect(await errorsOf(service, `/api/v1/transactions/${near.toString("hex")}`, 404)).toEqual([
      "Not found",
    ]);
    expect(await errorsOf(service, `/api/v1/transactions/${"ab".repeat(48)}`, 404)).toEqual(["Not found"]);
  });
});

describe("bad requests and absent transactions", () => {
  const INVALID_ID =
    'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';
  const cases: Array<[string, number, string[]]> = [
    ["0.0.2", 400, [INVALID_ID]],
    ["0.0.2-1717228800", 400, [INVALID_ID]],
    ["0.0.2-1717228800-1234567890", 400, [INVALID_ID]],
    ["0.0.2@1717228800.000000000", 400, [INVALID_ID]],
    ["0.0.2-1717228800.5-1", 400, [INVALID_ID]],
    ["0.0.274877906944-1-1", 400, ['Invalid entity ID "0.0.274877906944"']],
    ["0.0.2-9999999999999999999-1", 400, [INVALID_ID]],
    ["0.0.2-1717228800-000000000?foo=1", 400, ["Unknown query parameter: foo"]],
    ["nonsense?foo=1&nonce=x", 400, ["Invalid parameter: nonce", "Unknown query parameter: foo"]],
    ["0.0.2-1717228800-000000000?nonce=-1", 400, ["Invalid parameter: nonce"]],
    ["0.0.2-1717228800-000000000?nonce=gt:1", 400, ["Invalid parameter: nonce"]],
    ["0.0.2-1717228800-000000000?nonce=2147483648", 400, ["Invalid parameter: nonce"]],
    ["0.0.2-1717228800-000000000?scheduled=yes", 400, ["Invalid parameter: scheduled"]],
    ["0.0.2-1717228800-000000000?scheduled=ne:true", 400, ["Invalid parameter: scheduled"]],
    ["0.0.2-1717228800-000000000?timestamp=1", 400, ["Unknown query parameter: timestamp"]],
    ["0.0.2-1717228800-000000000", 404, ["Not found"]],
    ["0.0.2-1-1", 404, ["Not found"]],
  ];
  it.each(cases)("/transactions/%s → %d %j", async (tail, status, messages) => {
    expect(await errorsOf(stream().service, `/api/v1/transactions/${tail}`, status)).toEqual(messages);
  });
});

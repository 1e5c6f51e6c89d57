/**
 * `GET /api/v1/transactions` on real ingested streams (the transactions scenario, other scenarios, the real
 * v2/v5/v6 record files), compared field by field with what the public mirror node would serve for the same
 * records (`transaction-oracle.ts`, computed from the record files with the generated decoders), through every
 * filter, both orders and paging to the end.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { expectedLedger, fixtureStream, useStreams } from "../helpers/fixtures.ts";
import { REAL_STREAMS, type TestService } from "../helpers/service.ts";
import { type OracleTransaction, oracleTransactions } from "../helpers/transaction-oracle.ts";
import { allPages, errorsOf, getJson, type TransactionsPage, times } from "./transactions-helpers.ts";

type Tx = Record<string, unknown>;
type Stream = { service: TestService; oracle: OracleTransaction[]; listed: Tx[] };

const SOURCES: Record<string, string> = {
  transactions: fixtureStream("transactions"),
  tokens: fixtureStream("tokens"),
  "accounts-and-nfts": fixtureStream("accounts-and-nfts"),
  "batch-keys": fixtureStream("batch-keys"),
  "real-v6": join(REAL_STREAMS, "v6/record0.0.3"),
  "real-v5": join(REAL_STREAMS, "v5/record0.0.3"),
  "real-v2": join(REAL_STREAMS, "v2/record0.0.3"),
};
const services = useStreams(SOURCES);
const streams = new Map<string, Stream>();

beforeAll(() => {
  for (const [name, source] of Object.entries(SOURCES)) {
    const oracle = oracleTransactions(source);
    streams.set(name, { service: services.get(name)!, oracle, listed: oracle.map((t) => t.listed) });
  }
});

const stream = (name = "transactions") => streams.get(name)!;
const newestFirst = (items: readonly Tx[]) => [...items].reverse();
const ledger = expectedLedger("transactions");
const account = (name: string) => ledger.accounts[name]!.id;
const stepTime = (label: string) => ledger.steps.find((s) => s.label === label)!.consensusTimestamp;
const num = (id: string) => BigInt(id.split(".")[2]!);

const SUCCESS_RESULTS = new Set([
  "SUCCESS",
  "FEE_SCHEDULE_FILE_PART_UPLOADED",
  "SUCCESS_BUT_MISSING_EXPECTED_OPERATION",
]);
const PRECEDING_TYPES = new Set(["CRYPTOCREATEACCOUNT", "CRYPTOUPDATEACCOUNT"]);

/** Upstream's account match: payer (of a user transaction, a child with a parent, a crypto create/update) or in transfers. */
function involves(tx: Tx, matches: (id: string) => boolean, creditDebit?: "credit" | "debit"): boolean {
  const amountOk = (amount: bigint) =>
    creditDebit === undefined || (creditDebit === "credit" ? amount > 0n : amount < 0n);
  const lists = [tx.transfers, tx.token_transfers] as { account: string; amount: bigint }[][];
  if (lists.some((list) => list.some((t) => matches(t.account) && amountOk(t.amount)))) return true;
  if (creditDebit !== undefined) return false;
  const payer = (tx.transaction_id as string).split("-")[0]!;
  return (
    matches(payer) &&
    (tx.nonce === 0n || tx.parent_consensus_timestamp !== null || PRECEDING_TYPES.has(tx.name as string))
  );
}

const hasAmount = (tx: Tx, credit: boolean) =>
  ([tx.transfers, tx.token_transfers] as { amount: bigint }[][]).some((list) =>
    list.some((t) => (credit ? t.amount > 0n : t.amount < 0n)),
  );

describe("GET /api/v1/transactions: every record, as the mirror node lists it", () => {
  it.each(Object.keys(SOURCES))(
    "%s: every page, newest first and oldest first, field by field",
    async (name) => {
      const { service, listed } = stream(name);
      expect(listed.length).toBeGreaterThan(0);
      const desc = await allPages(service, "/api/v1/transactions?limit=100");
      expect(times(desc)).toEqual(times(newestFirst(listed)));
      expect(desc).toEqual(newestFirst(listed));
      const asc = await allPages(service, "/api/v1/transactions?order=asc&limit=7");
      expect(asc).toEqual(listed);
    },
  );

  it("prints a body's batch key as a key object of each shape, null without one (upstream 0.154)", async () => {
    const { service } = stream("batch-keys");
    const keys = expectedLedger("batch-keys");
    const at = (label: string) => keys.steps.find((s) => s.label === label)!.consensusTimestamp;
    const page = await getJson<TransactionsPage>(service, "/api/v1/transactions?order=asc&limit=100");
    const batchKey = (label: string) =>
      page.transactions.find((t) => t.consensus_timestamp === at(label))!.batch_key as {
        _type: string;
        key: string;
      } | null;
    const ed25519 = batchKey("ed25519-key")!;
    expect(ed25519._type).toBe("ED25519");
    expect(ed25519.key).toMatch(/^[0-9a-f]{64}$/);
    expect(batchKey("one-key-list")).toEqual(ed25519);
    expect(batchKey("ecdsa-key")!._type).toBe("ECDSA_SECP256K1");
    expect(batchKey("ecdsa-key")!.key).toMatch(/^0[23][0-9a-f]{64}$/);
    const threshold = batchKey("threshold-key")!;
    expect(threshold._type).toBe("ProtobufEncoded");
    expect(threshold.key).toContain(ed25519.key);
    expect(batchKey("no-key")).toBeNull();
  });

  it("includes failed, child and scheduled records with what marks them", () => {
    const { listed } = stream();
    const byTime = (label: string) => listed.find((t) => t.consensus_timestamp === stepTime(label))!;
    expect(byTime("dave-fails")).toMatchObject({
      result: "INSUFFICIENT_ACCOUNT_BALANCE",
      token_transfers: [],
    });
    // A failed transaction lists only its fee: the payer's debit, the node's and 0.0.98's credits.
    expect((byTime("dave-fails").transfers as { account: string }[]).map((t) => t.account)).toEqual([
      "0.0.3",
      "0.0.98",
      account("dave"),
    ]);
    const child = ledger.steps.find((s) => s.label === "auto-create")! as unknown as {
      children: { consensusTimestamp: string }[];
    };
    const created = listed.find((t) => t.consensus_timestamp === child.children[0]!.consensusTimestamp)!;
    expect(created).toMatchObject({ name: "CRYPTOCREATEACCOUNT", nonce: 1n, entity_id: "0.0.3005" });
    expect(created.transaction_id).toBe(byTime("auto-create").transaction_id);
    const sign = ledger.steps.find((s) => s.label === "pay-sign")! as unknown as {
      scheduled: { consensusTimestamp: string };
    };
    const execution = listed.find((t) => t.consensus_timestamp === sign.scheduled.consensusTimestamp)!;
    expect(execution).toMatchObject({ scheduled: true, nonce: 0n, name: "CRYPTOTRANSFER" });
    expect(execution.transaction_id).toBe(byTime("pay-create").transaction_id);
    // Memos as the body's bytes, non-ASCII included; none is "".
    expect(byTime("alice-pays").memo_base64).toBe(Buffer.from("rent ✓").toString("base64"));
    expect(byTime("bob-pays").memo_base64).toBe("");
    expect(byTime("hbar-approval").transfers as { account: string; is_approval: boolean }[]).toContainEqual({
      account: account("alice"),
      amount: -300000000n,
      is_approval: true,
    });
    // Staking reward payouts, with the transfers from 0.0.800 that pay them; a failed transaction's too.
    expect(byTime("rewards").staking_reward_transfers).toEqual([
      { account: account("carol"), amount: 1500000n },
      { account: account("bob"), amount: 2500000n },
    ]);
    expect((byTime("rewards").transfers as { account: string }[]).map((t) => t.account)).toContain("0.0.800");
    expect(byTime("rewards-failed")).toMatchObject({
      result: "INSUFFICIENT_ACCOUNT_BALANCE",
      staking_reward_transfers: [{ account: account("carol"), amount: 700000n }],
    });
  });

  it("answers the first page with a link to the next, and a full last page with a link to an empty one", async () => {
    const { service, listed } = stream();
    const page = await getJson<TransactionsPage>(service, "/api/v1/transactions");
    expect(page.transactions).toEqual(newestFirst(listed).slice(0, 25));
    expect(page.links.next).toBe(
      `/api/v1/transactions?timestamp=lt:${page.transactions[24]!.consensus_timestamp}`,
    );
    const all = listed.length;
    const last = await getJson<TransactionsPage>(service, `/api/v1/transactions?order=asc&limit=${all}`);
    expect(last.links.next).toBe(
      `/api/v1/transactions?order=asc&limit=${all}&timestamp=gt:${listed.at(-1)!.consensus_timestamp}`,
    );
    expect((await getJson<TransactionsPage>(service, last.links.next!)).transactions).toEqual([]);
    const capped = await getJson<TransactionsPage>(service, "/api/v1/transactions?limit=1000&order=asc");
    expect(capped.transactions).toEqual(listed.slice(0, 100));
  });
});

describe("filters", () => {
  const cases: Array<[string, (tx: Tx) => boolean]> = [
    ["transactiontype=CRYPTOTRANSFER", (tx) => tx.name === "CRYPTOTRANSFER"],
    [
      "transactiontype=cryptotransfer&transactiontype=ScheduleCreate",
      (tx) => tx.name === "CRYPTOTRANSFER" || tx.name === "SCHEDULECREATE",
    ],
    [
      "transactiontype=CONSENSUSCREATETOPIC&result=success",
      (tx) => tx.name === "CONSENSUSCREATETOPIC" && tx.result === "SUCCESS",
    ],
    ["result=fail", (tx) => !SUCCESS_RESULTS.has(tx.result as string)],
    ["result=SUCCESS", (tx) => SUCCESS_RESULTS.has(tx.result as string)],
    ["result=success&result=fail", (tx) => !SUCCESS_RESULTS.has(tx.result as string)],
    ["type=credit", (tx) => hasAmount(tx, true)],
    ["type=DEBIT", (tx) => hasAmount(tx, false)],
    [`account.id=${account("alice")}`, (tx) => involves(tx, (id) => id === account("alice"))],
    [`account.id=${num(account("bob"))}`, (tx) => involves(tx, (id) => id === account("bob"))],
    [`account.id=0.0.98`, (tx) => involves(tx, (id) => id === "0.0.98")],
    [
      `account.id=${account("carol")}&account.id=${account("dave")}`,
      (tx) => involves(tx, (id) => id === account("carol") || id === account("dave")),
    ],
    [
      `account.id=gte:${account("bob")}&account.id=lte:${account("dave")}`,
      (tx) => involves(tx, (id) => num(id) >= num(account("bob")) && num(id) <= num(account("dave"))),
    ],
    [
      `account.id=gt:0.0.3000&account.id=ne:${account("alice")}`,
      (tx) => involves(tx, (id) => num(id) > 3000n && id !== account("alice")),
    ],
    [`account.id=${account("alice")}&account.id=lt:${account("alice")}`, () => false],
    [
      `account.id=${account("carol")}&type=credit`,
      (tx) => involves(tx, (id) => id === account("carol"), "credit"),
    ],
    [`account.id=${account("bob")}&type=debit`, (tx) => involves(tx, (id) => id === account("bob"), "debit")],
    ["type=credit&type=debit", () => false],
    ["type=credit&type=CREDIT", () => false],
    [
      `account.id=${account("alice")}&transactiontype=cryptotransfer&result=success&type=debit`,
      (tx) =>
        involves(tx, (id) => id === account("alice"), "debit") &&
        tx.name === "CRYPTOTRANSFER" &&
        SUCCESS_RESULTS.has(tx.result as string),
    ],
    [
      `account.id=${account("dave")}&result=fail`,
      (tx) => involves(tx, (id) => id === account("dave")) && !SUCCESS_RESULTS.has(tx.result as string),
    ],
    // An NFT transfer alone does not involve its parties: carol received ART #1 in art-transfer, paid by alice.
    [
      `account.id=${account("carol")}&transactiontype=cryptotransfer&timestamp=${stepTime("art-transfer")}`,
      () => false,
    ],
    [`timestamp=${stepTime("gold-fees")}`, (tx) => tx.consensus_timestamp === stepTime("gold-fees")],
    [
      `timestamp=gte:${stepTime("gold-create")}&timestamp=lt:${stepTime("art-mint")}`,
      (tx) => inRange(tx, "gold-create", "art-mint"),
    ],
    [
      `timestamp[]=gte:${stepTime("gold-create")}&timestamp[]=lte:${stepTime("art-mint")}`,
      (tx) => inRange(tx, "gold-create", "art-mint", true),
    ],
    [`timestamp=${stepTime("gold-fees")}&timestamp=${stepTime("gold-mint")}`, () => false],
    [`timestamp=gt:${stepTime("gold-mint")}&timestamp=lt:${stepTime("gold-create")}`, () => false],
    [
      `timestamp=lte:${stepTime("gold-create").split(".")[0]}`,
      (tx) => (tx.consensus_timestamp as string) <= `${stepTime("gold-create").split(".")[0]}.000000000`,
    ],
  ];

  function inRange(tx: Tx, from: string, to: string, inclusive = false): boolean {
    const t = tx.consensus_timestamp as string;
    return t >= stepTime(from) && (inclusive ? t <= stepTime(to) : t < stepTime(to));
  }

  it.each(cases)(
    "%s: the matching records, newest first and oldest first, page by page",
    async (query, keep) => {
      const { service, listed } = stream();
      const expected = listed.filter(keep);
      const desc = await allPages(service, `/api/v1/transactions?${query}&limit=4`);
      expect(times(desc)).toEqual(times(newestFirst(expected)));
      expect(desc).toEqual(newestFirst(expected));
      const asc = await allPages(service, `/api/v1/transactions?${query}&order=asc&limit=100`);
      expect(times(asc)).toEqual(times(expected));
    },
  );

  it("keeps an ne bound as it is: the next link asks the same again, as upstream's does", async () => {
    const { service, listed } = stream();
    const path = `/api/v1/transactions?timestamp=ne:${stepTime("last")}&limit=4`;
    const page = await getJson<TransactionsPage>(service, path);
    expect(page.transactions).toEqual(
      newestFirst(listed)
        .filter((tx) => tx.consensus_timestamp !== stepTime("last"))
        .slice(0, 4),
    );
    expect(page.links.next).toBe(path);
  });

  it("has cases that select something and cases that leave something out", () => {
    const { listed } = stream();
    const sizes = cases.map(([, keep]) => listed.filter(keep).length);
    expect(sizes.filter((n) => n > 0 && n < listed.length).length).toBeGreaterThan(15);
  });

  it("matches accounts through payers, hbar and token transfers on the real streams too", async () => {
    for (const name of ["real-v6", "real-v2", "accounts-and-nfts", "tokens"]) {
      const { service, listed } = stream(name);
      const accounts = new Set(
        listed.flatMap((tx) => (tx.transfers as { account: string }[]).map((t) => t.account)),
      );
      for (const id of [...accounts].slice(0, 6)) {
        const expected = listed.filter((tx) => involves(tx, (a) => a === id));
        const got = await allPages(service, `/api/v1/transactions?account.id=${id}&limit=50`);
        expect(times(got), `${name} ${id}`).toEqual(times(newestFirst(expected)));
      }
    }
  });
});

describe("links.next", () => {
  it("drops a bound in the paging direction and appends the new one at the end", async () => {
    const { service, listed } = stream();
    const alice = account("alice");
    const from = stepTime("gold-create");
    const page = await getJson<TransactionsPage>(
      service,
      `/api/v1/transactions?account.id=${alice}&timestamp=gte:${from}&order=asc&limit=3`,
    );
    const last = page.transactions[2]!.consensus_timestamp;
    expect(page.links.next).toBe(
      `/api/v1/transactions?account.id=${alice}&order=asc&limit=3&timestamp=gt:${last}`,
    );
    const expected = listed.filter(
      (tx) => involves(tx, (id) => id === alice) && (tx.consensus_timestamp as string) >= from,
    );
    expect(times(page.transactions)).toEqual(times(expected.slice(0, 3)));
  });

  it("keeps the explorer's bracketed bounds of a block and pages within them", async () => {
    const { service, listed } = stream();
    const block = ledger.blocks.find((b) => b.count >= 4)!;
    const path = `/api/v1/transactions?timestamp[]=gte:${block.from}&timestamp[]=lte:${block.to}&limit=2&order=asc`;
    const expected = listed.filter(
      (tx) =>
        (tx.consensus_timestamp as string) >= block.from && (tx.consensus_timestamp as string) <= block.to,
    );
    expect(expected.length).toBeGreaterThan(2);
    const first = await getJson<TransactionsPage>(service, path);
    expect(first.links.next).toBe(
      `/api/v1/transactions?timestamp=lte:${block.to}&timestamp=gt:${first.transactions[1]!.consensus_timestamp}&limit=2&order=asc`,
    );
    expect(times(await allPages(service, path))).toEqual(times(expected));
  });

  it("is null for a partial page, and when the next range is empty", async () => {
    const { service } = stream();
    const page = await getJson<TransactionsPage>(
      service,
      `/api/v1/transactions?timestamp=${stepTime("gold-fees")}`,
    );
    expect(page.transactions).toHaveLength(1);
    expect(page.links.next).toBeNull();
    const t = stepTime("gold-fees");
    const tight = await getJson<TransactionsPage>(
      service,
      `/api/v1/transactions?timestamp=gte:${t}&timestamp=lte:${t}&limit=1`,
    );
    expect(tight.transactions).toHaveLength(1);
    expect(tight.links.next).toBeNull();
  });
});

describe("the explorer's queries", () => {
  it("answers each with data", async () => {
    const { service, listed } = stream();
    const t = stepTime("news-create");
    expect(
      (await getJson<TransactionsPage>(service, `/api/v1/transactions?timestamp=${t}`)).transactions,
    ).toHaveLength(1);
    expect(
      (await getJson<TransactionsPage>(service, "/api/v1/transactions?limit=15&order=desc")).transactions,
    ).toEqual(newestFirst(listed).slice(0, 15));
    const topics = await getJson<TransactionsPage>(
      service,
      "/api/v1/transactions?transactiontype=CONSENSUSCREATETOPIC&result=success",
    );
    expect(topics.transactions.map((tx) => tx.entity_id)).toEqual(["0.0.3009", "0.0.3008"]);
  });
});

describe("bad requests", () => {
  const cases: Array<[string, string[]]> = [
    [
      "foo=1&timestamp=-1&limit=alot",
      ["Invalid parameter: timestamp", "Invalid parameter: limit", "Unknown query parameter: foo"],
    ],
    ["transactiontype=NOPE", ["Invalid parameter: transactiontype"]],
    ["transactiontype=", ["Invalid parameter: transactiontype"]],
    ["result=ok", ["Invalid parameter: result"]],
    ["type=both", ["Invalid parameter: type"]],
    ["account.id=0.0.x", ["Invalid parameter: account.id"]],
    ["account.id=1234567890123", ['Invalid entity ID "0.0.1234567890123"']],
    ["order=up&limit=0", ["Invalid parameter: order", "Invalid parameter: limit"]],
    ["nonce=1&scheduled=true", ["Unknown query parameter: nonce", "Unknown query parameter: scheduled"]],
    ["timestamp=1.2.3&timestamp=gt:1", ["Invalid parameter: timestamp"]],
    ["timestamp[a][b]=1", ["Input depth exceeded depth option of 1 and strictDepth is true"]],
  ];
  it.each(cases)("?%s → 400 %j", async (query, messages) => {
    expect(await errorsOf(stream().service, `/api/v1/transactions?${query}`)).toEqual(messages);
  });
});

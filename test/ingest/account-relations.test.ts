/**
 * What ingestion keeps of allowances and airdrops, versions included (the API shows only the current ones): the
 * account-relations scenario's stream through the real service, its tables read back and compared with the
 * scenario (`expected.json`: the allowances left and the airdrops still pending; step times for versions).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openReader } from "../../src/store/db.ts";
import { type ExpectedLedger, expectedLedger, fixtureStream, stepTime } from "../helpers/fixtures.ts";
import { copyStream, startTestService, tempDir } from "../helpers/service.ts";

type Ledger = ExpectedLedger & {
  allowances: Array<{ owner: string; spender: string; token: string | null; amount: string }>;
  pendingAirdrops: Array<{
    sender: string;
    receiver: string;
    token: string;
    serial: string | null;
    amount: string | null;
  }>;
};

const SCENARIO = "account-relations";
const ledger = expectedLedger(SCENARIO) as Ledger;
const num = (id: string) => BigInt(id.split(".")[2]!);
const acct = (name: string) => num(ledger.accounts[name]!.id);
const token = (handle: string) => num(ledger.tokens[handle]!.id);
const id = (n: bigint | null) => (n === null ? null : `0.0.${n}`);
/** A step's consensus time in nanoseconds. */
const at = (label: string) => {
  const [seconds, nanos] = stepTime(ledger, label).split(".") as [string, string];
  return BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
};
const HBAR = 100_000_000n;

let db: Db;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  const stream = copyStream(fixtureStream(SCENARIO));
  cleanups.push(stream.remove);
  const dir = tempDir();
  cleanups.push(dir.remove);
  const path = join(dir.dir, "index.db");
  const service = await startTestService({ recordsDir: stream.dir, db: path });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");
  db = openReader(path);
  db.defaultSafeIntegers(true);
  cleanups.push(() => db.close());
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function versions(sql: string, ...params: unknown[]): Array<Record<string, unknown>> {
  return db.prepare(sql).all(...params) as Array<Record<string, unknown>>;
}

describe("allowances", () => {
  it("leaves the allowances the scenario says are left, with what remains of each", () => {
    const hbar = versions(
      "SELECT owner, spender, amount FROM crypto_allowance WHERE valid_to IS NULL AND amount > 0",
    ).map((r) => ({
      owner: id(r.owner as bigint),
      spender: id(r.spender as bigint),
      token: null,
      amount: `${r.amount}`,
    }));
    const tokens = versions(
      "SELECT owner, spender, token_id, amount FROM token_allowance WHERE valid_to IS NULL AND amount > 0",
    ).map((r) => ({
      owner: id(r.owner as bigint),
      spender: id(r.spender as bigint),
      token: id(r.token_id as bigint),
      amount: `${r.amount}`,
    }));
    const key = (a: { owner: string | null; spender: string | null; token: string | null }) =>
      `${a.token ?? ""}/${a.owner}/${a.spender}`;
    const sorted = <T extends { owner: string | null; spender: string | null; token: string | null }>(
      list: T[],
    ) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sorted([...hbar, ...tokens])).toEqual(sorted(ledger.allowances));
  });

  it("opens a version per grant (the last entry for a spender wins) and spends in place", () => {
    const sql = `SELECT valid_from, valid_to, amount, amount_granted, payer_id FROM crypto_allowance
      WHERE owner = ? AND spender = ? ORDER BY valid_from`;
    // carol: 10 hbar, then 3 and 7 hbar in one approval (7 wins), all spent by an approved transfer.
    expect(versions(sql, acct("alice"), acct("carol"))).toEqual([
      {
        valid_from: at("hbar-grant"),
        valid_to: at("hbar-regrant-carol"),
        amount: 10n * HBAR,
        amount_granted: 10n * HBAR,
        payer_id: acct("alice"),
      },
      {
        valid_from: at("hbar-regrant-carol"),
        valid_to: null,
        amount: 0n,
        amount_granted: 7n * HBAR,
        payer_id: acct("alice"),
      },
    ]);
    // dave: revoked with an amount of 0.
    expect(
      versions(sql, acct("alice"), acct("dave")).map((v) => [v.valid_to, v.amount, v.amount_granted]),
    ).toEqual([
      [at("hbar-revoke-dave"), 5n * HBAR, 5n * HBAR],
      [null, 0n, 0n],
    ]);
    // bob: two approved spends (20 and 5 hbar) lower the one version; the failed third spends nothing.
    expect(
      versions(sql, acct("alice"), acct("bob")).map((v) => [v.valid_to, v.amount, v.amount_granted]),
    ).toEqual([[null, 25n * HBAR, 50n * HBAR]]);
  });

  it("spends token allowances in place too, and keeps one spent to nothing as a version with 0 left", () => {
    const silver = versions(
      "SELECT valid_from, valid_to, amount, amount_granted FROM token_allowance WHERE owner = ? AND spender = ? AND token_id = ?",
      acct("alice"),
      acct("bob"),
      token("SILVER"),
    );
    expect(silver).toEqual([
      { valid_from: at("token-grant"), valid_to: null, amount: 0n, amount_granted: 500n },
    ]);
  });

  it("versions NFT approvals for all, a revocation included, and keeps serial approvals on the NFTs", () => {
    expect(
      versions(
        `SELECT valid_from, valid_to, approved_for_all FROM nft_allowance
         WHERE owner = ? AND spender = ? AND token_id = ? ORDER BY valid_from`,
        acct("alice"),
        acct("carol"),
        token("PIX"),
      ),
    ).toEqual([
      { valid_from: at("nft-for-all"), valid_to: at("nft-revoke-carol"), approved_for_all: 1n },
      { valid_from: at("nft-revoke-carol"), valid_to: null, approved_for_all: 0n },
    ]);
    const spenders = versions(
      "SELECT serial, account_id, spender FROM nft WHERE token_id = ? AND serial <= 3 AND valid_to IS NULL ORDER BY serial",
      token("ART"),
    );
    // Serial 1 was taken by bob with his approval (which it used up); serial 3's approval was deleted.
    expect(spenders).toEqual([
      { serial: 1n, account_id: acct("bob"), spender: null },
      { serial: 2n, account_id: acct("alice"), spender: acct("bob") },
      { serial: 3n, account_id: acct("alice"), spender: null },
    ]);
  });
});

describe("airdrops", () => {
  const history = `SELECT valid_from, valid_to, state, amount FROM token_airdrop
    WHERE sender = ? AND receiver = ? AND token_id = ? AND serial = ? ORDER BY valid_from`;

  it("leaves pending what the scenario says is pending", () => {
    const pending = versions(
      "SELECT sender, receiver, token_id, serial, amount FROM token_airdrop WHERE valid_to IS NULL AND state = 'PENDING'",
    ).map((r) => ({
      sender: id(r.sender as bigint),
      receiver: id(r.receiver as bigint),
      token: id(r.token_id as bigint),
      serial: r.serial === 0n ? null : `${r.serial}`,
      amount: r.amount === null ? null : `${r.amount}`,
    }));
    const key = (a: {
      sender: string | null;
      receiver: string | null;
      token: string | null;
      serial: string | null;
    }) => `${a.sender}/${a.receiver}/${a.token}/${a.serial}`;
    expect([...pending].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      [...ledger.pendingAirdrops].sort((a, b) => key(a).localeCompare(key(b))),
    );
  });

  it("adds a second pending fungible airdrop to the first, then settles it claimed with its amount", () => {
    expect(versions(history, acct("alice"), acct("erin"), token("GOLD"), 0n)).toEqual([
      { valid_from: at("airdrop-1"), valid_to: at("airdrop-2"), state: "PENDING", amount: 100n },
      { valid_from: at("airdrop-2"), valid_to: at("erin-claims"), state: "PENDING", amount: 150n },
      { valid_from: at("erin-claims"), valid_to: null, state: "CLAIMED", amount: 150n },
    ]);
    expect(versions(history, acct("alice"), acct("erin"), token("ART"), 7n)).toEqual([
      { valid_from: at("airdrop-3"), valid_to: at("erin-claims"), state: "PENDING", amount: null },
      { valid_from: at("erin-claims"), valid_to: null, state: "CLAIMED", amount: null },
    ]);
  });

  it("settles a cancelled airdrop, and records nothing for airdrops that transferred at once", () => {
    expect(versions(history, acct("alice"), acct("grace"), token("SILVER"), 0n)).toEqual([
      { valid_from: at("airdrop-3"), valid_to: at("cancel-silver"), state: "PENDING", amount: 40n },
      { valid_from: at("cancel-silver"), valid_to: null, state: "CANCELLED", amount: 40n },
    ]);
    for (const receiver of ["bob", "frank"]) {
      expect(versions(history, acct("alice"), acct(receiver), token("GOLD"), 0n), receiver).toEqual([]);
    }
  });
});

describe("staking reward payouts", () => {
  it("keeps every paid_staking_rewards entry, failed transactions included", () => {
    const rows = versions(
      "SELECT consensus_ns, amount FROM staking_reward_transfer WHERE account_id = ? ORDER BY consensus_ns",
      acct("grace"),
    );
    expect(rows).toEqual(
      (
        [
          ["reward-1", 1500000n],
          ["reward-2", 1400000n],
          ["reward-3", 1300000n],
          ["reward-4", 1200000n],
          ["reward-failed", 1100000n],
        ] as const
      ).map(([label, amount]) => ({ consensus_ns: at(label), amount })),
    );
  });
});

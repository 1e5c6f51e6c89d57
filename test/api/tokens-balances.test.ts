import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  copyScenarioBlocks,
  type ExpectedLedger,
  expectedLedger,
  fixtureStream,
  shiftTimestamp,
  stepTime,
} from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { copyStream, startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";

type Balance = { account: string; balance: number; decimals: number | null };
type BalancesBody = { timestamp: string | null; balances: Balance[]; links: { next: string | null } };

const SCENARIO = "tokens-group-nfts";
let service: TestService;
let ledger: ExpectedLedger;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  const stream = copyStream(fixtureStream(SCENARIO));
  cleanups.push(stream.remove);
  ledger = expectedLedger(SCENARIO);
  service = await startTestService({ recordsDir: stream.dir });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function get(on: TestService, path: string, status = 200): Promise<BalancesBody> {
  const response = await on.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  if (status === 200) {
    const next = (response.body as BalancesBody).links.next;
    expect(response.headers.get("link")).toBe(next === null ? null : `<${next}>; rel="next"`);
  }
  return response.body as BalancesBody;
}

const balances = (path: string) => get(service, path);

async function errors(path: string): Promise<string[]> {
  const response = await service.get(path);
  expect(response.status, response.text).toBe(400);
  validateResponse({ path, status: 400, body: response.body });
  return (response.body as { _status: { messages: { message: string }[] } })._status.messages.map(
    (m) => m.message,
  );
}

const num = (id: string) => BigInt(id.split(".")[2]!);
const byAccountDesc = (a: string, b: string) => (num(b) > num(a) ? 1 : num(b) < num(a) ? -1 : 0);
const account = (name: string) => ledger.accounts[name]!.id;
const drop = () => ledger.tokens.DROP!;
/** `{account: balance}` of a page, for comparisons that do not depend on order. */
const asMap = (body: BalancesBody) =>
  Object.fromEntries(body.balances.map((b) => [b.account, String(b.balance)]));

/**
 * A service that has read only a prefix of a scenario's record files: its current state is the oracle of the
 * historical answers at the prefix's end. One service is fed the files in order (`upTo(blocks)` adds the files up
 * to the `blocks`-th and waits until they are applied), so prefixes must be asked in increasing order. Lists are
 * never answered from the response cache once a file is applied (list cache 0 ms): every answer is the prefix's.
 */
function prefixOracle(scenario: string, of: ExpectedLedger): { upTo(blocks: number): Promise<TestService> } {
  const temp = tempDir();
  cleanups.push(temp.remove);
  const dir = join(temp.dir, "record0.0.3");
  mkdirSync(dir);
  let oracle: TestService | undefined;
  let copied = 0;
  return {
    async upTo(blocks) {
      if (blocks < copied) throw new Error(`prefix of ${blocks} files asked after ${copied}`);
      copyScenarioBlocks(scenario, of, dir, copied, blocks);
      copied = blocks;
      const last = BigInt(of.blocks[blocks - 1]!.number);
      if (oracle === undefined) {
        const started = await startTestService({ recordsDir: dir, listCacheMs: 0 });
        cleanups.push(() => started.stop());
        oracle = started;
      }
      await waitForBlock(oracle, last);
      expect(oracle.ingest.status().lastBlock).toBe(last);
      return oracle;
    },
  };
}

describe("GET /api/v1/tokens/{tokenId}/balances, current", () => {
  it("lists every associated account's balance, as the scenario left them", async () => {
    for (const [name, token] of Object.entries(ledger.tokens)) {
      const body = await balances(`/api/v1/tokens/${token.id}/balances?limit=100`);
      expect(asMap(body), name).toEqual(token.balances);
      expect(body.balances.map((b) => b.account)).toEqual(Object.keys(token.balances).sort(byAccountDesc));
      for (const b of body.balances) expect(b.decimals).toBe(token.decimals);
    }
  });

  it("dates the page by its newest balance change", async () => {
    const body = await balances(`/api/v1/tokens/${drop().id}/balances`);
    // h05's credit after rejoining is the token's last movement.
    expect(body.timestamp).toBe(stepTime(ledger, "drop-h05-credit"));
    const h12 = await balances(`/api/v1/tokens/${drop().id}/balances?account.id=${account("h12")}`);
    expect(h12.balances).toEqual([{ account: account("h12"), balance: 12000, decimals: 3 }]);
    expect(h12.timestamp).toBe(stepTime(ledger, "drop-wave-2"));
    const h04 = await balances(`/api/v1/tokens/${drop().id}/balances?account.id=${account("h04")}`);
    expect(h04.timestamp).toBe(stepTime(ledger, "drop-wipe-h04"));
    const response = await service.get(`/api/v1/tokens/${drop().id}/balances`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
  });

  it("pages by account with account.id=lt:<last> (gt: ascending), keeping the other filters", async () => {
    const all = Object.keys(drop().balances).sort(byAccountDesc);
    const first = await balances(`/api/v1/tokens/${drop().id}/balances?limit=5`);
    expect(first.balances.map((b) => b.account)).toEqual(all.slice(0, 5));
    expect(first.links.next).toBe(`/api/v1/tokens/${drop().id}/balances?limit=5&account.id=lt:${all[4]}`);
    const seen: string[] = [];
    let next: string | null = `/api/v1/tokens/${drop().id}/balances?limit=5`;
    while (next !== null) {
      const page: BalancesBody = await balances(next);
      seen.push(...page.balances.map((b) => b.account));
      next = page.links.next;
    }
    expect(seen).toEqual(all);

    const asc = `/api/v1/tokens/${drop().id}/balances?account.balance=gte:3000&limit=2&order=asc`;
    const ascending = all.filter((id) => BigInt(drop().balances[id]!) >= 3000n).reverse();
    const page = await balances(asc);
    expect(page.balances.map((b) => b.account)).toEqual(ascending.slice(0, 2));
    expect(page.links.next).toBe(`${asc}&account.id=gt:${ascending[1]}`);
    // The token path keeps its spelling in the link.
    const hex = `0x${num(drop().id).toString(16).padStart(40, "0")}`;
    const evm = await balances(`/api/v1/tokens/${hex}/balances?limit=1`);
    expect(evm.links.next).toBe(`/api/v1/tokens/${hex}/balances?limit=1&account.id=lt:${all[0]}`);
  });

  it("filters by account id, balance and the account's public key", async () => {
    const base = `/api/v1/tokens/${drop().id}/balances`;
    const h03 = account("h03");
    for (const spelling of [h03, h03.slice(2), String(num(h03)), `eq:${h03}`]) {
      expect((await balances(`${base}?account.id=${spelling}`)).balances.map((b) => b.account)).toEqual([
        h03,
      ]);
    }
    const between = await balances(
      `${base}?account.id=gt:${account("h02")}&account.id=lte:${account("h06")}`,
    );
    expect(between.balances.map((b) => b.account)).toEqual(
      Object.keys(drop().balances)
        .filter((id) => num(id) > num(account("h02")) && num(id) <= num(account("h06")))
        .sort(byAccountDesc),
    );
    const rich = await balances(`${base}?account.balance=gt:5000&account.balance=lte:10000`);
    expect(asMap(rich)).toEqual(
      Object.fromEntries(
        Object.entries(drop().balances).filter(([, v]) => BigInt(v) > 5000n && BigInt(v) <= 10000n),
      ),
    );
    // &&: harmless.
    expect((await balances(`${base}?account.balance=gt:5000&&account.balance=lte:10000`)).balances).toEqual(
      rich.balances,
    );
    // h01 and h02 share one key.
    const shared = ledger.accounts.h01!.key!.slice(4);
    expect(ledger.accounts.h02!.key).toBe(ledger.accounts.h01!.key);
    const sharing = await balances(`${base}?account.publickey=${shared}`);
    expect(sharing.balances.map((b) => b.account)).toEqual([account("h02"), account("h01")]);
    const ecdsa = ledger.accounts.h03!.key!.slice(4);
    expect((await balances(`${base}?account.publickey=0x${ecdsa}`)).balances.map((b) => b.account)).toEqual([
      h03,
    ]);
    // Repeated: the last one wins; its operator is ignored.
    const last = await balances(`${base}?account.publickey=${shared}&account.publickey=ne:${ecdsa}`);
    expect(last.balances.map((b) => b.account)).toEqual([h03]);
  });

  it("answers an empty page (timestamp null) for no match or an unknown token", async () => {
    const empty = { timestamp: null, balances: [], links: { next: null } };
    expect(await balances(`/api/v1/tokens/${drop().id}/balances?account.id=0.0.999999`)).toEqual(empty);
    expect(await balances("/api/v1/tokens/0.0.999999/balances")).toEqual(empty);
    expect(await balances("/api/v1/tokens/0.0.999999/balances?timestamp=1717228812")).toEqual(empty);
    expect(
      await balances(`/api/v1/tokens/${drop().id}/balances?account.id=gt:0.0.3010&account.id=lt:0.0.3005`),
    ).toEqual(empty);
    expect(
      await balances(
        `/api/v1/tokens/${drop().id}/balances?account.id=06bd279138d5918402fc8ad500526cb2ee0eb985`,
      ),
    ).toEqual(empty);
    // A dissociated account is not listed.
    const gems = ledger.tokens.GEMS!;
    expect(await balances(`/api/v1/tokens/${gems.id}/balances?account.id=${account("h02")}`)).toEqual(empty);
  });

  it("answers bad requests with the mirror node's messages", async () => {
    expect(await errors("/api/v1/tokens/abc/balances?foo=1")).toEqual(["Invalid parameter: tokenid"]);
    expect(await errors("/api/v1/tokens/06bd279138d5918402fc8ad500526cb2ee0eb985/balances")).toEqual([
      "Invalid parameter: tokenid",
    ]);
    expect(
      await errors(
        `/api/v1/tokens/${drop().id}/balances?account.id=lte:0.1.2.3&account.balance=gt:-2&account.balance=9223372036854775808&account.publickey=-2&timestamp=-1.2&order=any&limit=0&slot=1`,
      ),
    ).toEqual([
      "Invalid parameter: account.id",
      "Invalid parameter: account.balance",
      "Invalid parameter: account.balance",
      "Invalid parameter: account.publickey",
      "Invalid parameter: timestamp",
      "Invalid parameter: order",
      "Invalid parameter: limit",
      "Unknown query parameter: slot",
    ]);
    expect(await errors(`/api/v1/tokens/${drop().id}/balances?timestamp=`)).toEqual([
      "Invalid parameter: timestamp",
    ]);
  });
});

describe("GET /api/v1/tokens/{tokenId}/balances?timestamp=…, exact at any instant", () => {
  it("equals the current balances of a mirror that has read the stream only up to that instant", async () => {
    // The ends of a few record files spread over the scenario: associations, waves of transfers, a
    // dissociation and a rejoin, a wipe, NFT trades and the collection's deletion all lie between them.
    const cut = [2, 4, 5, 6, 8, 10];
    const prefix = prefixOracle(SCENARIO, ledger);
    for (const blocks of cut) {
      const end = ledger.blocks[blocks - 1]!.to;
      const oracle = await prefix.upTo(blocks);
      for (const [name, token] of Object.entries(ledger.tokens)) {
        const expected = await get(oracle, `/api/v1/tokens/${token.id}/balances?limit=100`);
        const asOf = await balances(`/api/v1/tokens/${token.id}/balances?limit=100&timestamp=${end}`);
        expect(asOf.balances, `${name} at the end of block ${blocks}`).toEqual(expected.balances);
        expect(asOf.timestamp).toBe(expected.balances.length === 0 ? null : end);
      }
    }
  });

  it("reads eq as lte, lt as strictly before, and answers with the instant", async () => {
    const base = `/api/v1/tokens/${drop().id}/balances`;
    const wave1 = stepTime(ledger, "drop-wave-1");
    const before = await balances(`${base}?timestamp=lt:${wave1}`);
    // Before the first wave only the treasury holds DROP; the associated holders show 0.
    expect(before.timestamp).toBe(shiftTimestamp(wave1, -1n));
    expect(asMap(before)[account("owner")]).toBe("1000000000");
    expect(asMap(before)[account("h01")]).toBe("0");
    for (const query of [`timestamp=${wave1}`, `timestamp=eq:${wave1}`, `timestamp=lte:${wave1}`]) {
      const at = await balances(`${base}?${query}`);
      expect(at.timestamp, query).toBe(wave1);
      expect(asMap(at)[account("h01")]).toBe("1000");
      expect(asMap(at)[account("owner")]).toBe(String(1000000000 - 15000));
    }
    // h05 is not associated between leaving and rejoining, and starts from 0 when it rejoins.
    const left = await balances(`${base}?timestamp=${stepTime(ledger, "drop-h05-leaves")}`);
    expect(asMap(left)[account("h05")]).toBeUndefined();
    const rejoined = await balances(`${base}?timestamp=${stepTime(ledger, "drop-h05-rejoins")}`);
    expect(asMap(rejoined)[account("h05")]).toBe("0");
    const wiped = await balances(
      `${base}?account.id=${account("h04")}&timestamp=${stepTime(ledger, "drop-wipe-h04")}`,
    );
    expect(wiped.balances).toEqual([{ account: account("h04"), balance: 2500, decimals: 3 }]);
  });

  it("takes the latest instant a range admits that this mirror has indexed", async () => {
    const base = `/api/v1/tokens/${drop().id}/balances`;
    const lastEnd = ledger.blocks.at(-1)!.to;
    const future = await balances(`${base}?timestamp=9999999999`);
    expect(future.timestamp).toBe(lastEnd);
    expect(asMap(future)).toEqual(drop().balances);
    const wave2 = stepTime(ledger, "drop-wave-2");
    const range = await balances(
      `${base}?timestamp=gt:${stepTime(ledger, "drop-wave-1")}&timestamp=lt:${wave2}`,
    );
    expect(range.timestamp).toBe(shiftTimestamp(wave2, -1n));
    // h12 is associated automatically by the second wave itself.
    expect(asMap(range)[account("h12")]).toBeUndefined();
    expect(asMap(range)[account("h01")]).toBe("1000");
    const excluded = await balances(`${base}?timestamp=lte:${wave2}&timestamp=ne:${wave2}`);
    expect(excluded.timestamp).toBe(shiftTimestamp(wave2, -1n));
    expect(asMap(excluded)).toEqual(asMap(range));
    // Nothing indexed in the range, or an empty range: an empty page.
    const empty = { timestamp: null, balances: [], links: { next: null } };
    expect(await balances(`${base}?timestamp=gt:${lastEnd}`)).toEqual(empty);
    expect(await balances(`${base}?timestamp=lt:1000000000&timestamp=gt:1000000005`)).toEqual(empty);
    expect(await balances(`${base}?timestamp=lt:1000000000`)).toEqual(empty);
  });

  it("applies the balance filter to the balance at the instant, and pages the same way", async () => {
    const base = `/api/v1/tokens/${drop().id}/balances`;
    const wave1 = stepTime(ledger, "drop-wave-1");
    const rich = await balances(
      `${base}?timestamp=${wave1}&account.balance=gte:3000&account.balance=lt:1000000`,
    );
    expect(asMap(rich)).toEqual({
      [account("h05")]: "5000",
      [account("h04")]: "4000",
      [account("h03")]: "3000",
    });
    const page = await balances(
      `${base}?timestamp=${wave1}&limit=2&order=asc&account.publickey=${ledger.accounts.h01!.key!.slice(4)}`,
    );
    expect(page.balances).toEqual([
      { account: account("h01"), balance: 1000, decimals: 3 },
      { account: account("h02"), balance: 2000, decimals: 3 },
    ]);
    expect(page.links.next).toBe(
      `${base}?timestamp=${wave1}&limit=2&order=asc&account.publickey=${ledger.accounts.h01!.key!.slice(4)}&account.id=gt:${account("h02")}`,
    );
  });
});

describe("balances on the other scenarios", () => {
  for (const scenario of ["tokens", "accounts-and-nfts"]) {
    it(`match what the ${scenario} scenario left, now and at the end of every fourth record file`, async () => {
      const other = expectedLedger(scenario);
      const stream = copyStream(fixtureStream(scenario));
      cleanups.push(stream.remove);
      const full = await startTestService({ recordsDir: stream.dir });
      cleanups.push(() => full.stop());
      await full.ingest.settled;
      for (const [name, token] of Object.entries(other.tokens)) {
        const body = await get(full, `/api/v1/tokens/${token.id}/balances?limit=100`);
        expect(asMap(body), `${scenario} ${name}`).toEqual(token.balances);
      }
      // Replaying a prefix of the stream gives the state at its end: the historical answer must match it.
      const prefix = prefixOracle(scenario, other);
      for (let blocks = 4; blocks < other.blocks.length; blocks += 4) {
        const partial = await prefix.upTo(blocks);
        const end = other.blocks[blocks - 1]!.to;
        for (const [name, token] of Object.entries(other.tokens)) {
          const expected = await get(partial, `/api/v1/tokens/${token.id}/balances?limit=100`);
          const asOf = await get(full, `/api/v1/tokens/${token.id}/balances?limit=100&timestamp=${end}`);
          expect(asOf.balances, `${scenario} ${name} after ${blocks} files`).toEqual(expected.balances);
        }
      }
    });
  }
});

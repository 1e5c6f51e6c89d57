import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  copyScenarioBlocks,
  type ExpectedLedger,
  expectedLedger,
  fixtureStream,
  stepTime,
} from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { copyStream, startTestService, type TestService, tempDir } from "../helpers/service.ts";

type Nft = {
  account_id: string | null;
  created_timestamp: string | null;
  delegating_spender: string | null;
  deleted: boolean;
  metadata: string | null;
  modified_timestamp: string | null;
  serial_number: number;
  spender: string | null;
  token_id: string;
};
type NftsBody = { nfts: Nft[]; links: { next: string | null } };
type NftEvent = {
  consensus_timestamp: string;
  nonce: number;
  transaction_id: string;
  type: string;
  is_approval: boolean;
  receiver_account_id: string | null;
  sender_account_id: string | null;
};
type HistoryBody = { transactions: NftEvent[]; links: { next: string | null } };

const cleanups: Array<() => unknown> = [];
/** One service per scenario: accounts-and-nfts (CARDS), tokens (ART's treasury change), tokens-group-nfts. */
const services = new Map<string, { service: TestService; ledger: ExpectedLedger }>();

beforeAll(async () => {
  for (const scenario of ["accounts-and-nfts", "tokens", "tokens-group-nfts"]) {
    const stream = copyStream(fixtureStream(scenario));
    cleanups.push(stream.remove);
    const service = await startTestService({ recordsDir: stream.dir });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    expect(service.ingest.status().state).toBe("ready");
    services.set(scenario, { service, ledger: expectedLedger(scenario) });
  }
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const cards = () => services.get("accounts-and-nfts")!;
const group = () => services.get("tokens-group-nfts")!;

async function get<T>(on: TestService, path: string, status = 200): Promise<T> {
  const response = await on.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  if (status === 200 || status === 206) {
    const links = (response.body as { links?: { next: string | null } }).links;
    if (links !== undefined) {
      expect(response.headers.get("link")).toBe(links.next === null ? null : `<${links.next}>; rel="next"`);
    }
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
  }
  return response.body as T;
}

async function errors(on: TestService, path: string): Promise<string[]> {
  const body = await get<{ _status: { messages: { message: string }[] } }>(on, path, 400);
  return body._status.messages.map((m) => m.message);
}

/** The REST name of a scenario step type. */
function typeName(stepType: string): string {
  const special: Record<string, string> = { tokenCreate: "TOKENCREATION", tokenDelete: "TOKENDELETION" };
  return special[stepType] ?? stepType.toUpperCase();
}

/** The REST form of a transaction id: the valid start's nanoseconds always have nine digits. */
function restTransactionId(id: string): string {
  const [payer, seconds, nanos] = id.split("-") as [string, string, string];
  return `${payer}-${seconds}-${nanos.padStart(9, "0")}`;
}

/** What the history shows for the labelled step: its time, id and type, with the given parties. */
function event(
  ledger: ExpectedLedger,
  label: string,
  parties: { sender?: string | null; receiver?: string | null; approval?: boolean } = {},
): NftEvent {
  const step = ledger.steps.find((s) => s.label === label);
  if (step === undefined) throw new Error(`no step ${label}`);
  return {
    consensus_timestamp: step.consensusTimestamp,
    nonce: 0,
    transaction_id: restTransactionId((step as { transactionId?: string }).transactionId ?? ""),
    type: typeName(step.type),
    is_approval: parties.approval ?? false,
    receiver_account_id: parties.receiver ?? null,
    sender_account_id: parties.sender ?? null,
  };
}

describe("GET /api/v1/tokens/{tokenId}/nfts", () => {
  it("lists the collection, newest serial first, as the scenario left it", async () => {
    const { service, ledger } = cards();
    const token = ledger.tokens.CARDS!;
    const body = await get<NftsBody>(service, `/api/v1/tokens/${token.id}/nfts`);
    expect(body.nfts.map((n) => n.serial_number)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    for (const nft of body.nfts) {
      expect(Object.keys(nft)).toEqual([
        "account_id",
        "created_timestamp",
        "delegating_spender",
        "deleted",
        "metadata",
        "modified_timestamp",
        "serial_number",
        "spender",
        "token_id",
      ]);
      expect(nft.token_id).toBe(token.id);
      const live = token.nfts![String(nft.serial_number)];
      if (live === undefined) {
        // Burned (9, 10) or wiped (5): kept, without an owner.
        expect(nft.deleted, `serial ${nft.serial_number}`).toBe(true);
        expect(nft.account_id).toBeNull();
        expect(nft.spender).toBeNull();
      } else {
        expect(nft.deleted).toBe(false);
        expect(nft.account_id).toBe(live.owner);
        expect(nft.metadata).toBe(live.metadata);
        expect(nft.spender).toBe(live.spender);
      }
      expect(nft.delegating_spender).toBeNull();
      const mint = nft.serial_number <= 5 ? "cards-mint-1" : "cards-mint-2";
      expect(nft.created_timestamp).toBe(stepTime(ledger, mint));
    }
    const at = (serial: number) => body.nfts.find((n) => n.serial_number === serial)!;
    expect(at(4).modified_timestamp).toBe(stepTime(ledger, "update-nfts"));
    expect(at(1).modified_timestamp).toBe(stepTime(ledger, "spend-serial"));
    expect(at(10).modified_timestamp).toBe(stepTime(ledger, "cards-burn"));
    expect(at(5).modified_timestamp).toBe(stepTime(ledger, "cards-wipe"));
    expect(at(7).modified_timestamp).toBe(at(7).created_timestamp === null ? null : at(7).modified_timestamp);
    // The same answer for every spelling of the token.
    const hex = Number(token.id.split(".")[2]).toString(16).padStart(40, "0");
    for (const spelling of [token.id.slice(2), token.id.split(".")[2]!, `0x${hex}`]) {
      expect((await get<NftsBody>(service, `/api/v1/tokens/${spelling}/nfts`)).nfts).toEqual(body.nfts);
    }
  });

  it("marks every NFT of a deleted token deleted", async () => {
    const { service, ledger } = group();
    const gems = ledger.tokens.GEMS!;
    const body = await get<NftsBody>(service, `/api/v1/tokens/${gems.id}/nfts`);
    expect(body.nfts).toHaveLength(6);
    expect(body.nfts.every((n) => n.deleted)).toBe(true);
    // Owners stay as they were when the collection was deleted.
    for (const [serial, live] of Object.entries(gems.nfts!)) {
      expect(body.nfts.find((n) => n.serial_number === Number(serial))!.account_id).toBe(live.owner);
    }
  });

  it("pages by serial number and stops when the next range would be empty", async () => {
    const { service, ledger } = group();
    const shells = ledger.tokens.SHELLS!.id;
    const first = await get<NftsBody>(service, `/api/v1/tokens/${shells}/nfts?limit=4`);
    expect(first.nfts.map((n) => n.serial_number)).toEqual([30, 29, 28, 27]);
    expect(first.links.next).toBe(`/api/v1/tokens/${shells}/nfts?limit=4&serialnumber=lt:27`);
    const serials: number[] = [];
    let next: string | null = `/api/v1/tokens/${shells}/nfts?limit=7&order=asc`;
    while (next !== null) {
      const page: NftsBody = await get<NftsBody>(service, next);
      serials.push(...page.nfts.map((n) => n.serial_number));
      next = page.links.next;
    }
    expect(serials).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const closed = await get<NftsBody>(service, `/api/v1/tokens/${shells}/nfts?limit=3&serialnumber=gt:27`);
    expect(closed.nfts.map((n) => n.serial_number)).toEqual([30, 29, 28]);
    expect(closed.links.next).toBeNull();
    const kept = await get<NftsBody>(
      service,
      `/api/v1/tokens/${shells}/nfts?serialnumber=gte:10&order=asc&limit=2`,
    );
    expect(kept.links.next).toBe(`/api/v1/tokens/${shells}/nfts?order=asc&limit=2&serialnumber=gt:11`);
  });

  it("filters by serial number and by owner", async () => {
    const { service, ledger } = group();
    const shells = ledger.tokens.SHELLS!.id;
    const serials = async (query: string) =>
      (await get<NftsBody>(service, `/api/v1/tokens/${shells}/nfts?${query}`)).nfts.map(
        (n) => n.serial_number,
      );
    expect(await serials("serialnumber=7")).toEqual([7]);
    expect(await serials("serialnumber=eq:7")).toEqual([7]);
    expect(await serials("serialnumber=gt:27")).toEqual([30, 29, 28]);
    expect(await serials("serialnumber=gte:28&serialnumber=lt:30&serialnumber=ne:29")).toEqual([28]);
    const h06 = ledger.accounts.h06!.id;
    const owned = Object.entries(ledger.tokens.SHELLS!.nfts!)
      .filter(([, n]) => n.owner === h06)
      .map(([s]) => Number(s))
      .sort((a, b) => b - a);
    for (const spelling of [h06, h06.slice(2), h06.split(".")[2]!]) {
      expect(await serials(`account.id=${spelling}`)).toEqual(owned);
    }
    const notTreasury = await serials(`account.id=gt:${ledger.accounts.owner!.id}`);
    expect(notTreasury).toEqual([29, 22, 15, 11, 7, 3]);
    expect(await serials(`account.id=${h06}&serialnumber=lt:20`)).toEqual([11, 3]);
    expect(await serials(`account.id=${ledger.accounts.h12!.id}`)).toEqual([]);
    expect(await serials("account.id=06bd279138d5918402fc8ad500526cb2ee0eb985")).toEqual([]);
  });

  it("answers an unknown token with an empty list and bad requests with the mirror node's messages", async () => {
    const { service } = group();
    expect(await get<NftsBody>(service, "/api/v1/tokens/0.0.999999/nfts")).toEqual({
      nfts: [],
      links: { next: null },
    });
    expect(await errors(service, "/api/v1/tokens/mirror/nfts?nonce=1")).toEqual([
      "Invalid parameter: tokenid",
    ]);
    expect(
      await errors(
        service,
        "/api/v1/tokens/0.0.3019/nfts?account.id=me&serialnumber=2_2&serialnumber=-1&serialnumber=9223372036854775808&order=random&limit=-1&nonce=1",
      ),
    ).toEqual([
      "Invalid parameter: account.id",
      "Invalid parameter: serialnumber",
      "Invalid parameter: serialnumber",
      "Invalid parameter: serialnumber",
      "Invalid parameter: order",
      "Invalid parameter: limit",
      "Unknown query parameter: nonce",
    ]);
  });
});

describe("GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}", () => {
  it("returns one NFT, also burned ones and those of a deleted token", async () => {
    const { service, ledger } = cards();
    const token = ledger.tokens.CARDS!;
    const list = await get<NftsBody>(service, `/api/v1/tokens/${token.id}/nfts`);
    for (const nft of list.nfts) {
      expect(await get<Nft>(service, `/api/v1/tokens/${token.id}/nfts/${nft.serial_number}`)).toEqual(nft);
    }
    const burned = await get<Nft>(service, `/api/v1/tokens/${token.id}/nfts/10`);
    expect(burned).toMatchObject({ deleted: true, account_id: null, serial_number: 10 });
    const approved = await get<Nft>(service, `/api/v1/tokens/${token.id}/nfts/4`);
    expect(approved.spender).toBe(ledger.accounts.bob!.id);
    const gems = group().ledger.tokens.GEMS!;
    const deleted = await get<Nft>(group().service, `/api/v1/tokens/${gems.id}/nfts/1`);
    expect(deleted).toMatchObject({ deleted: true, account_id: gems.nfts!["1"]!.owner });
  });

  it("answers 404 for an unknown serial and 400 for bad ids or any query parameter (checked first)", async () => {
    const { service, ledger } = cards();
    const id = ledger.tokens.CARDS!.id;
    const notFound = await get<{ _status: { messages: { message: string }[] } }>(
      service,
      `/api/v1/tokens/${id}/nfts/11`,
      404,
    );
    expect(notFound._status.messages).toEqual([{ message: "Not found" }]);
    await get(service, `/api/v1/tokens/0.0.999999/nfts/1`, 404);
    for (const serial of ["twenty", "0", "mirror", "9223372036854775808", "-1"]) {
      expect(await errors(service, `/api/v1/tokens/${id}/nfts/${serial}`), serial).toEqual([
        "Invalid parameter: serialnumber",
      ]);
    }
    expect(await errors(service, "/api/v1/tokens/mirror/nfts/1")).toEqual(["Invalid parameter: tokenid"]);
    expect(await errors(service, "/api/v1/tokens/mirror/nfts/x?limit=1&order=asc")).toEqual([
      "Unknown query parameter: limit",
      "Unknown query parameter: order",
    ]);
  });
});

describe("GET /api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions", () => {
  it("lists mint, transfers (also by a spender), allowance changes, metadata updates, burn and wipe", async () => {
    const { service, ledger } = cards();
    const id = ledger.tokens.CARDS!.id;
    const { alice, bob, carol, dave } = ledger.accounts;
    const history = async (serial: number) =>
      (await get<HistoryBody>(service, `/api/v1/tokens/${id}/nfts/${serial}/transactions`)).transactions;
    expect(await history(1)).toEqual([
      event(ledger, "spend-serial", { sender: bob!.id, receiver: dave!.id, approval: true }),
      event(ledger, "approve-serial"),
      event(ledger, "cards-deal", { sender: alice!.id, receiver: bob!.id }),
      event(ledger, "cards-mint-1", { receiver: alice!.id }),
    ]);
    const three = await history(3);
    expect(three[0]).toEqual(event(ledger, "delete-allowance"));
    expect(three.at(-1)).toEqual(event(ledger, "cards-mint-1", { receiver: alice!.id }));
    const four = await history(4);
    expect(four[0]).toEqual(event(ledger, "update-nfts"));
    expect(four.map((e) => e.type)).toEqual([
      "TOKENUPDATENFTS",
      "CRYPTOAPPROVEALLOWANCE",
      "CRYPTOTRANSFER",
      "CRYPTOTRANSFER",
      "TOKENMINT",
    ]);
    expect(four[2]).toMatchObject({ sender_account_id: carol!.id, receiver_account_id: dave!.id });
    expect((await history(10))[0]).toEqual(event(ledger, "cards-burn", { sender: alice!.id }));
    expect((await history(5))[0]).toEqual(event(ledger, "cards-wipe", { sender: dave!.id }));
  });

  it("ends with the token's deletion, and shows a treasury change without parties", async () => {
    const { service, ledger } = group();
    const gems = ledger.tokens.GEMS!;
    const { owner, h01, h02, h03 } = ledger.accounts;
    const two = await get<HistoryBody>(service, `/api/v1/tokens/${gems.id}/nfts/2/transactions`);
    expect(two.transactions).toEqual([
      event(ledger, "gems-delete"),
      event(ledger, "gems-polish"),
      event(ledger, "gems-pass-on", { sender: h03!.id, receiver: h02!.id }),
      event(ledger, "gems-spend", { sender: h01!.id, receiver: h03!.id, approval: true }),
      event(ledger, "gems-approve"),
      event(ledger, "gems-deal", { sender: owner!.id, receiver: h01!.id }),
      event(ledger, "gems-mint", { receiver: owner!.id }),
    ]);
    // A live token has no deletion entry.
    const shells = ledger.tokens.SHELLS!.id;
    const live = await get<HistoryBody>(service, `/api/v1/tokens/${shells}/nfts/3/transactions`);
    expect(live.transactions.map((e) => e.type)).toEqual(["CRYPTOTRANSFER", "TOKENMINT"]);

    const tokens = services.get("tokens")!;
    const art = tokens.ledger.tokens.ART!;
    const moved = await get<HistoryBody>(tokens.service, `/api/v1/tokens/${art.id}/nfts/3/transactions`);
    expect(moved.transactions[0]).toEqual(event(tokens.ledger, "art-treasury"));
    const nft = await get<Nft>(tokens.service, `/api/v1/tokens/${art.id}/nfts/3`);
    expect(nft.account_id).toBe(art.treasury);
    expect(nft.modified_timestamp).toBe(stepTime(tokens.ledger, "art-treasury"));
  });

  it("pages by timestamp and filters with every operator", async () => {
    const { service, ledger } = group();
    const path = `/api/v1/tokens/${ledger.tokens.GEMS!.id}/nfts/2/transactions`;
    const all = (await get<HistoryBody>(service, path)).transactions;
    const first = await get<HistoryBody>(service, `${path}?limit=3`);
    expect(first.transactions).toEqual(all.slice(0, 3));
    expect(first.links.next).toBe(`${path}?limit=3&timestamp=lt:${all[2]!.consensus_timestamp}`);
    const seen: NftEvent[] = [];
    let next: string | null = `${path}?order=asc&limit=2&timestamp=gte:${all.at(-2)!.consensus_timestamp}`;
    const firstLink = (await get<HistoryBody>(service, next)).links.next;
    expect(firstLink).toBe(`${path}?order=asc&limit=2&timestamp=gt:${all.at(-3)!.consensus_timestamp}`);
    while (next !== null) {
      const page: HistoryBody = await get<HistoryBody>(service, next);
      seen.push(...page.transactions);
      next = page.links.next;
    }
    expect(seen).toEqual(all.slice(0, -1).reverse());
    const spend = stepTime(ledger, "gems-spend");
    expect((await get<HistoryBody>(service, `${path}?timestamp=${spend}`)).transactions).toEqual(
      all.filter((e) => e.consensus_timestamp === spend),
    );
    const window = await get<HistoryBody>(
      service,
      `${path}?timestamp=gt:${stepTime(ledger, "gems-mint")}&timestamp=lt:${stepTime(ledger, "gems-delete")}&timestamp=ne:${spend}`,
    );
    expect(window.transactions.map((e) => e.type)).toEqual([
      "TOKENUPDATENFTS",
      "CRYPTOTRANSFER",
      "CRYPTOAPPROVEALLOWANCE",
      "CRYPTOTRANSFER",
    ]);
    expect(await get<HistoryBody>(service, `${path}?timestamp=gt:9999999999`)).toEqual({
      transactions: [],
      links: { next: null },
    });
    expect(
      await get<HistoryBody>(service, `/api/v1/tokens/${ledger.tokens.SHELLS!.id}/nfts/99/transactions`),
    ).toEqual({
      transactions: [],
      links: { next: null },
    });
    // As upstream: a deleted token's deletion is listed for any serial, and an NFT never seen makes it a 206.
    const unseen = await get<HistoryBody>(
      service,
      `/api/v1/tokens/${ledger.tokens.GEMS!.id}/nfts/99/transactions`,
      206,
    );
    expect(unseen.transactions).toEqual([event(ledger, "gems-delete")]);
  });

  it("answers bad requests with the mirror node's messages", async () => {
    const { service } = group();
    expect(await errors(service, "/api/v1/tokens/mirror/nfts/1/transactions?result=x")).toEqual([
      "Invalid parameter: tokenid",
    ]);
    expect(await errors(service, "/api/v1/tokens/0.0.3018/nfts/mirror/transactions?result=x")).toEqual([
      "Invalid parameter: serialnumber",
    ]);
    expect(
      await errors(
        service,
        "/api/v1/tokens/0.0.3018/nfts/1/transactions?timestamp=now&order=down&limit=alot&result=success",
      ),
    ).toEqual([
      "Invalid parameter: timestamp",
      "Invalid parameter: order",
      "Invalid parameter: limit",
      "Unknown query parameter: result",
    ]);
  });
});

describe("NFTs whose mint this mirror never saw", () => {
  it("answers the history with 206 and shows no creation time", async () => {
    // Start the stream after the collection was minted: the NFTs appear with their first transfer.
    const { ledger } = cards();
    const mintBlock = ledger.blocks.findIndex((b) => b.to >= stepTime(ledger, "cards-mint-2"));
    const temp = tempDir();
    cleanups.push(temp.remove);
    const dir = join(temp.dir, "record0.0.3");
    mkdirSync(dir);
    copyScenarioBlocks("accounts-and-nfts", ledger, dir, mintBlock + 1);
    const partial = await startTestService({ recordsDir: dir });
    cleanups.push(() => partial.stop());
    await partial.ingest.settled;
    expect(partial.ingest.status().state).toBe("ready");

    const id = ledger.tokens.CARDS!.id;
    const history = await get<HistoryBody>(partial, `/api/v1/tokens/${id}/nfts/1/transactions`, 206);
    expect(history.transactions.at(-1)).toEqual(
      event(ledger, "cards-deal", { sender: ledger.accounts.alice!.id, receiver: ledger.accounts.bob!.id }),
    );
    const nft = await get<Nft>(partial, `/api/v1/tokens/${id}/nfts/1`);
    expect(nft.created_timestamp).toBeNull();
    expect(nft.account_id).toBe(ledger.tokens.CARDS!.nfts!["1"]!.owner);
    // Known NFTs answer 200 even with an empty page; unseen ones have no history at all.
    await get<HistoryBody>(partial, `/api/v1/tokens/${id}/nfts/1/transactions?timestamp=lt:1000000000`, 200);
    expect(await get<HistoryBody>(partial, `/api/v1/tokens/${id}/nfts/8/transactions`)).toEqual({
      transactions: [],
      links: { next: null },
    });
  });
});

/**
 * What token-related records do to balances, associations and NFTs, on genuine v6 record files written by
 * the project's writer: cases the scenario engine does not simulate (airdrop claims, TokenReject, FAIL_INVALID
 * errata records, NFT treasury changes reported with serial -1, delegating spenders, accounts created for a
 * key alias, dissociation from a deleted NFT collection), each observed through the API.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Long from "long";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRecordFileV6 } from "../../fixtures/writer/write-record-file.ts";
import { proto } from "../../src/streams/proto.ts";
import type { RecordItem } from "../../src/streams/types.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { startTestService, type TestService, tempDir } from "../helpers/service.ts";

const NANOS = 1_000_000_000n;
const START_NS = 1_720_000_000n * NANOS;
const TREASURY = 2n;
const NODE = 3n;
const FT = 1001n;
const NFT = 1002n;
const ALICE = 2001n;
const BOB = 2002n;
const CAROL = 2003n;
const ALIASED = 2004n;
const NEW_TREASURY = 2005n;
const ALIAS_KEY = Buffer.alloc(32, 0x42);

const long = (v: bigint | number) => Long.fromString(String(v));
const acct = (n: bigint): proto.IAccountID => ({ accountNum: long(n) });
const tok = (n: bigint): proto.ITokenID => ({ tokenNum: long(n) });
const id = (n: bigint) => `0.0.${n}`;

type Tx = {
  label: string;
  body: proto.ITransactionBody;
  record?: proto.ITransactionRecord;
  status?: proto.ResponseCodeEnum;
};

/** The stream: each transaction 10 ms after the previous one, five per record file. */
const TRANSACTIONS: Tx[] = [
  {
    label: "ft-create",
    body: {
      tokenCreation: {
        name: "Fungible",
        symbol: "FT",
        decimals: 2,
        initialSupply: long(1_000_000),
        treasury: acct(TREASURY),
        tokenType: proto.TokenType.FUNGIBLE_COMMON,
      },
    },
    record: {
      receipt: { tokenID: tok(FT) },
      tokenTransferLists: [
        { token: tok(FT), transfers: [{ accountID: acct(TREASURY), amount: long(1_000_000) }] },
      ],
    },
  },
  {
    label: "nft-create",
    body: {
      tokenCreation: {
        name: "Collection",
        symbol: "NFT",
        treasury: acct(TREASURY),
        tokenType: proto.TokenType.NON_FUNGIBLE_UNIQUE,
        adminKey: { ed25519: Buffer.alloc(32, 1) },
        supplyKey: { ed25519: Buffer.alloc(32, 1) },
      },
    },
    record: { receipt: { tokenID: tok(NFT) } },
  },
  ...[ALICE, BOB, CAROL, NEW_TREASURY].map((n) => ({
    label: `create-${n}`,
    body: { cryptoCreateAccount: { key: { ed25519: Buffer.alloc(32, Number(n % 200n)) } } },
    record: { receipt: { accountID: acct(n) } },
  })),
  {
    label: "alias-create",
    body: { cryptoCreateAccount: { alias: proto.Key.encode({ ed25519: ALIAS_KEY }).finish() } },
    record: { receipt: { accountID: acct(ALIASED) } },
  },
  {
    label: "mint",
    body: {
      tokenMint: { token: tok(NFT), metadata: [Buffer.from("a"), Buffer.from("b"), Buffer.from("c")] },
    },
    record: {
      receipt: { newTotalSupply: long(3), serialNumbers: [long(1), long(2), long(3)] },
      tokenTransferLists: [
        {
          token: tok(NFT),
          nftTransfers: [1, 2, 3].map((s) => ({ receiverAccountID: acct(TREASURY), serialNumber: long(s) })),
        },
      ],
    },
  },
  {
    label: "alice-associates",
    body: { tokenAssociate: { account: acct(ALICE), tokens: [tok(FT), tok(NFT)] } },
  },
  { label: "aliased-associates", body: { tokenAssociate: { account: acct(ALIASED), tokens: [tok(FT)] } } },
  // A claim associates bob, who never associated himself; alice was associated already.
  {
    label: "claim",
    body: {
      tokenClaimAirdrop: {
        pendingAirdrops: [
          { senderId: acct(TREASURY), receiverId: acct(BOB), fungibleTokenType: tok(FT) },
          { senderId: acct(TREASURY), receiverId: acct(ALICE), fungibleTokenType: tok(FT) },
        ],
      },
    },
    record: {
      tokenTransferLists: [
        {
          token: tok(FT),
          transfers: [
            { accountID: acct(TREASURY), amount: long(-300) },
            { accountID: acct(BOB), amount: long(100) },
            { accountID: acct(ALICE), amount: long(200) },
          ],
        },
      ],
    },
  },
  // The body flags alice's NFT transfer as approved; the record does not.
  {
    label: "nft-to-alice",
    body: {
      cryptoTransfer: {
        tokenTransfers: [
          {
            token: tok(NFT),
            nftTransfers: [
              {
                senderAccountID: acct(TREASURY),
                receiverAccountID: acct(ALICE),
                serialNumber: long(1),
                isApproval: true,
              },
            ],
          },
        ],
      },
    },
    record: {
      tokenTransferLists: [
        {
          token: tok(NFT),
          nftTransfers: [
            { senderAccountID: acct(TREASURY), receiverAccountID: acct(ALICE), serialNumber: long(1) },
          ],
        },
      ],
    },
  },
  {
    label: "approve-serial-1",
    body: {
      cryptoApproveAllowance: {
        nftAllowances: [
          {
            tokenId: tok(NFT),
            owner: acct(ALICE),
            spender: acct(BOB),
            delegatingSpender: acct(CAROL),
            serialNumbers: [long(1)],
          },
        ],
      },
    },
  },
  // Errata: a FAIL_INVALID record whose transfers the network applied; an ordinary failure changes nothing.
  {
    label: "fail-invalid",
    status: proto.ResponseCodeEnum.FAIL_INVALID,
    body: { cryptoTransfer: {} },
    record: {
      tokenTransferLists: [
        {
          token: tok(FT),
          transfers: [
            { accountID: acct(TREASURY), amount: long(-7) },
            { accountID: acct(ALICE), amount: long(7) },
          ],
        },
      ],
    },
  },
  {
    label: "failed",
    status: proto.ResponseCodeEnum.INSUFFICIENT_TOKEN_BALANCE,
    body: { cryptoTransfer: {} },
    record: {
      tokenTransferLists: [
        {
          token: tok(FT),
          transfers: [
            { accountID: acct(TREASURY), amount: long(-9) },
            { accountID: acct(ALICE), amount: long(9) },
          ],
        },
      ],
    },
  },
  // alice rejects her fungible units and her NFT: both go back to the treasury.
  {
    label: "reject",
    body: {
      tokenReject: {
        owner: acct(ALICE),
        rejections: [{ fungibleToken: tok(FT) }, { nft: { token_ID: tok(NFT), serialNumber: long(1) } }],
      },
    },
    record: {
      tokenTransferLists: [
        {
          token: tok(FT),
          transfers: [
            { accountID: acct(ALICE), amount: long(-207) },
            { accountID: acct(TREASURY), amount: long(207) },
          ],
        },
        {
          token: tok(NFT),
          nftTransfers: [
            { senderAccountID: acct(ALICE), receiverAccountID: acct(TREASURY), serialNumber: long(1) },
          ],
        },
      ],
    },
  },
  {
    label: "new-treasury-associates",
    body: { tokenAssociate: { account: acct(NEW_TREASURY), tokens: [tok(NFT)] } },
  },
  // An NFT treasury change: every NFT of the old treasury moves; the record says so with serial -1.
  {
    label: "treasury-change",
    body: { tokenUpdate: { token: tok(NFT), treasury: acct(NEW_TREASURY) } },
    record: {
      tokenTransferLists: [
        {
          token: tok(NFT),
          nftTransfers: [
            {
              senderAccountID: acct(TREASURY),
              receiverAccountID: acct(NEW_TREASURY),
              serialNumber: long(-1),
            },
          ],
        },
      ],
    },
  },
  {
    label: "nft-to-alice-again",
    body: { cryptoTransfer: {} },
    record: {
      tokenTransferLists: [
        {
          token: tok(NFT),
          nftTransfers: [
            { senderAccountID: acct(NEW_TREASURY), receiverAccountID: acct(ALICE), serialNumber: long(2) },
          ],
        },
      ],
    },
  },
  // A later approval that names no delegating spender keeps the one the NFT has.
  {
    label: "approve-delegating",
    body: {
      cryptoApproveAllowance: {
        nftAllowances: [
          {
            tokenId: tok(NFT),
            owner: acct(NEW_TREASURY),
            spender: acct(BOB),
            delegatingSpender: acct(CAROL),
            serialNumbers: [long(3)],
          },
        ],
      },
    },
  },
  {
    label: "approve-again",
    body: {
      cryptoApproveAllowance: {
        nftAllowances: [
          { tokenId: tok(NFT), owner: acct(NEW_TREASURY), spender: acct(ALICE), serialNumbers: [long(3)] },
        ],
      },
    },
  },
  { label: "nft-delete", body: { tokenDeletion: { token: tok(NFT) } } },
  // Leaving a deleted collection takes the NFTs along: the record shows one debit of their count.
  {
    label: "alice-leaves-deleted",
    body: { tokenDissociate: { account: acct(ALICE), tokens: [tok(NFT)] } },
    record: {
      tokenTransferLists: [{ token: tok(NFT), transfers: [{ accountID: acct(ALICE), amount: long(-1) }] }],
    },
  },
];

const timeOf = (label: string) =>
  START_NS + BigInt(TRANSACTIONS.findIndex((t) => t.label === label) + 1) * 10_000_000n;
const ts = (ns: bigint) => `${ns / NANOS}.${(ns % NANOS).toString().padStart(9, "0")}`;

function item(consensusNs: bigint, tx: Tx): RecordItem {
  const transactionID = {
    accountID: acct(TREASURY),
    transactionValidStart: { seconds: long(consensusNs / NANOS - 5n), nanos: Number(consensusNs % NANOS) },
  };
  const bodyBytes = proto.TransactionBody.encode({
    transactionID,
    nodeAccountID: acct(NODE),
    transactionFee: long(100_000_000),
    ...tx.body,
  }).finish();
  const signed = proto.SignedTransaction.encode({ bodyBytes, sigMap: {} }).finish();
  const { receipt, ...rest } = tx.record ?? {};
  const recordBytes = proto.TransactionRecord.encode({
    ...rest,
    receipt: { ...receipt, status: tx.status ?? proto.ResponseCodeEnum.SUCCESS },
    consensusTimestamp: { seconds: long(consensusNs / NANOS), nanos: Number(consensusNs % NANOS) },
    transactionID,
    transactionFee: long(1000),
  }).finish();
  return {
    transactionBytes: proto.Transaction.encode({ signedTransactionBytes: signed }).finish(),
    recordBytes,
  };
}

function writeStream(dir: string): number {
  mkdirSync(dir, { recursive: true });
  let previous: Uint8Array = new Uint8Array(48);
  let files = 0;
  for (let first = 0; first < TRANSACTIONS.length; first += 5) {
    const chunk = TRANSACTIONS.slice(first, first + 5);
    const items = chunk.map((tx, i) => item(START_NS + BigInt(first + i + 1) * 10_000_000n, tx));
    const file = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 56, patch: 0 },
      blockNumber: BigInt(files + 1),
      startRunningHash: previous,
      items,
    });
    const firstNs = START_NS + BigInt(first + 1) * 10_000_000n;
    const stamp = new Date(Number(firstNs / 1_000_000n))
      .toISOString()
      .replace(/:/g, "_")
      .replace(/\.\d+Z$/, "");
    writeFileSync(
      join(dir, `${stamp}.${(firstNs % NANOS).toString().padStart(9, "0")}Z.rcd.gz`),
      file.gzipBytes,
    );
    previous = file.endRunningHash;
    files++;
  }
  return files;
}

let service: TestService;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  const temp = tempDir();
  cleanups.push(temp.remove);
  const dir = join(temp.dir, "record0.0.3");
  const files = writeStream(dir);
  service = await startTestService({ recordsDir: dir, waitSignatures: false });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");
  expect(service.ingest.status().lastBlock).toBe(BigInt(files));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function get<T>(path: string, status = 200): Promise<T> {
  const response = await service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  return response.body as T;
}

type Balances = { timestamp: string | null; balances: { account: string; balance: number }[] };
const balancesAt = async (token: bigint, label?: string) =>
  Object.fromEntries(
    (
      await get<Balances>(
        `/api/v1/tokens/${id(token)}/balances${label ? `?timestamp=${ts(timeOf(label))}` : ""}`,
      )
    ).balances.map((b) => [b.account, b.balance]),
  );
type Event = {
  consensus_timestamp: string;
  type: string;
  is_approval: boolean;
  sender_account_id: string | null;
  receiver_account_id: string | null;
};
const history = async (serial: number) =>
  (
    await get<{ transactions: Event[] }>(
      `/api/v1/tokens/${id(NFT)}/nfts/${serial}/transactions?order=asc`,
      200,
    )
  ).transactions;
const nftAt = async (serial: number) =>
  get<Record<string, unknown>>(`/api/v1/tokens/${id(NFT)}/nfts/${serial}`);

describe("token records", () => {
  it("associates the receivers of claimed airdrops, keeping existing associations", async () => {
    const tokensOf = async (account: bigint) =>
      (await get<{ tokens: { token_id: string }[] }>(`/api/v1/tokens?account.id=${id(account)}`)).tokens.map(
        (t) => t.token_id,
      );
    expect(await tokensOf(BOB)).toEqual([id(FT)]);
    expect((await balancesAt(FT, "claim"))[id(BOB)]).toBe(100);
    // alice was associated before the claim: her relationship is not reopened, her balance adds up.
    expect((await balancesAt(FT, "claim"))[id(ALICE)]).toBe(200);
    expect(await tokensOf(CAROL)).toEqual([]);
  });

  it("applies FAIL_INVALID records' transfers and ignores those of other failures", async () => {
    expect((await balancesAt(FT, "fail-invalid"))[id(ALICE)]).toBe(207);
    expect((await balancesAt(FT, "failed"))[id(ALICE)]).toBe(207);
  });

  it("returns rejected tokens to the treasury", async () => {
    const now = await balancesAt(FT);
    expect(now[id(ALICE)]).toBe(0);
    expect(now[id(TREASURY)]).toBe(1_000_000 - 300 - 7 + 207);
    const one = await history(1);
    const reject = one.find((e) => e.type === "TOKENREJECT");
    expect(reject).toMatchObject({
      sender_account_id: id(ALICE),
      receiver_account_id: id(TREASURY),
      is_approval: false,
    });
  });

  it("takes NFT approval flags from the body", async () => {
    const transfer = (await history(1)).find((e) => e.consensus_timestamp === ts(timeOf("nft-to-alice")));
    expect(transfer).toMatchObject({
      type: "CRYPTOTRANSFER",
      is_approval: true,
      receiver_account_id: id(ALICE),
    });
  });

  it("keeps a delegating spender that a later approval does not name, and clears both on transfer", async () => {
    expect((await history(1)).map((e) => e.type)).toEqual([
      "TOKENMINT",
      "CRYPTOTRANSFER",
      "CRYPTOAPPROVEALLOWANCE",
      "TOKENREJECT",
      "TOKENUPDATE",
      "TOKENDELETION",
    ]);
    // Serial 1 went back to the treasury (spenders cleared) and moved with the treasury change.
    expect(await nftAt(1)).toMatchObject({
      spender: null,
      delegating_spender: null,
      account_id: id(NEW_TREASURY),
    });
    expect(await nftAt(3)).toMatchObject({
      spender: id(ALICE),
      delegating_spender: id(CAROL),
      account_id: id(NEW_TREASURY),
    });
  });

  it("moves every NFT of the old treasury on a treasury change reported with serial -1", async () => {
    const moved = await history(3);
    expect(moved.map((e) => e.type)).toEqual([
      "TOKENMINT",
      "TOKENUPDATE",
      "CRYPTOAPPROVEALLOWANCE",
      "CRYPTOAPPROVEALLOWANCE",
      "TOKENDELETION",
    ]);
    expect(moved[1]).toMatchObject({
      sender_account_id: null,
      receiver_account_id: null,
      is_approval: false,
    });
    const before = await balancesAt(NFT, "new-treasury-associates");
    expect(before[id(TREASURY)]).toBe(3 - 1 + 1);
    const after = await balancesAt(NFT, "treasury-change");
    expect(after[id(TREASURY)]).toBe(0);
    expect(after[id(NEW_TREASURY)]).toBe(3);
  });

  it("ends the NFTs of an account that leaves a deleted collection", async () => {
    const two = await history(2);
    expect(two.at(-1)).toMatchObject({
      type: "TOKENDISSOCIATE",
      sender_account_id: id(ALICE),
      receiver_account_id: null,
    });
    expect(await nftAt(2)).toMatchObject({ account_id: null, deleted: true });
    const total = await get<{ total_supply: string }>(`/api/v1/tokens/${id(NFT)}`);
    expect(total.total_supply).toBe("2");
    expect((await balancesAt(NFT))[id(ALICE)]).toBeUndefined();
  });

  it("keys an account created for a key alias with that key", async () => {
    const tx = TRANSACTIONS.find((t) => t.label === "alias-create")!;
    expect(tx.body.cryptoCreateAccount?.key).toBeUndefined();
    const body = await get<Balances>(
      `/api/v1/tokens/${id(FT)}/balances?account.publickey=${ALIAS_KEY.toString("hex")}`,
    );
    expect(body.balances).toEqual([{ account: id(ALIASED), balance: 0, decimals: 2 }]);
  });
});

import Long from "long";
import { describe, expect, it } from "vitest";
import type { proto } from "../../src/streams/proto.ts";
import { account, ed25519, legacyTransaction, signedTransaction, token } from "./build-transaction.ts";
import { estimate, stateOf } from "./estimate-helpers.ts";

/**
 * fees.md §8.1: the totals the mirror node's `estimatesFeeByTransactionType` asserts, for transactions built with
 * the same counts as its RecordItemBuilder fixtures (one signature pair, well under 1350 bytes), in both modes.
 */
const key = ed25519(7);
const eightKeys = {
  adminKey: ed25519(1),
  kycKey: ed25519(2),
  freezeKey: ed25519(3),
  wipeKey: ed25519(4),
  supplyKey: ed25519(5),
  feeScheduleKey: ed25519(6),
  pauseKey: ed25519(7),
  metadataKey: ed25519(8),
};
const hook = { hookId: Long.fromNumber(1) };
const hbarTransfer = {
  accountAmounts: [
    { accountID: account(1001), amount: Long.fromNumber(-5) },
    { accountID: account(1002), amount: Long.fromNumber(5) },
  ],
};
const content = new Uint8Array(100).fill(9);
const fixedFee = { fixedFee: { amount: Long.fromNumber(10) }, feeCollectorAccountId: account(1003) };

const CASES: Array<[string, proto.ITransactionBody, bigint]> = [
  [
    "CONSENSUSCREATETOPIC",
    {
      consensusCreateTopic: {
        adminKey: ed25519(1),
        feeScheduleKey: ed25519(2),
        submitKey: ed25519(3),
        customFees: [fixedFee],
      },
    },
    20_300_000_000n,
  ],
  [
    "CONSENSUSDELETETOPIC",
    { consensusDeleteTopic: { topicID: { topicNum: Long.fromNumber(7) } } },
    50_000_000n,
  ],
  [
    "CONSENSUSSUBMITMESSAGE",
    { consensusSubmitMessage: { topicID: { topicNum: Long.fromNumber(7) }, message: new Uint8Array(128) } },
    1_890_400n,
  ],
  [
    "CONSENSUSUPDATETOPIC",
    {
      consensusUpdateTopic: {
        topicID: { topicNum: Long.fromNumber(7) },
        adminKey: ed25519(1),
        submitKey: ed25519(2),
        feeScheduleKey: ed25519(3),
        feeExemptKeyList: { keys: [ed25519(4), ed25519(5)] },
      },
    },
    402_200_000n,
  ],
  [
    "CONTRACTCALL",
    { contractCall: { contractID: { contractNum: Long.fromNumber(10) }, gas: Long.fromNumber(100_000) } },
    0n,
  ],
  [
    "CONTRACTCREATEINSTANCE",
    { contractCreateInstance: { adminKey: key, hookCreationDetails: [hook] } },
    20_000_000_000n,
  ],
  [
    "CONTRACTDELETEINSTANCE",
    { contractDeleteInstance: { contractID: { contractNum: Long.fromNumber(10) } } },
    70_000_000n,
  ],
  [
    "CONTRACTUPDATEINSTANCE",
    {
      contractUpdateInstance: {
        adminKey: key,
        hookCreationDetails: [hook],
        hookIdsToDelete: [Long.fromNumber(2)],
      },
    },
    20_260_000_000n,
  ],
  ["CRYPTOCREATEACCOUNT", { cryptoCreateAccount: { key, hookCreationDetails: [hook] } }, 10_500_000_000n],
  [
    "CRYPTODELETE",
    { cryptoDelete: { deleteAccountID: account(1001), transferAccountID: account(2) } },
    50_000_000n,
  ],
  ["CRYPTOTRANSFER", { cryptoTransfer: { transfers: hbarTransfer } }, 1_000_000n],
  [
    "CRYPTOUPDATEACCOUNT",
    {
      cryptoUpdateAccount: {
        accountIDToUpdate: account(1001),
        key,
        hookCreationDetails: [hook],
        hookIdsToDelete: [Long.fromNumber(2)],
      },
    },
    20_002_200_000n,
  ],
  ["ETHEREUMTRANSACTION", { ethereumTransaction: { ethereumData: new Uint8Array(100) } }, 1_000_000n],
  [
    "FILEAPPEND",
    { fileAppend: { fileID: { fileNum: Long.fromNumber(1001) }, contents: content } },
    500_000_000n,
  ],
  ["FILECREATE", { fileCreate: { keys: { keys: [key] }, contents: content } }, 500_000_000n],
  [
    "FILEUPDATE",
    { fileUpdate: { fileID: { fileNum: Long.fromNumber(1001) }, keys: { keys: [key] }, contents: content } },
    500_000_000n,
  ],
  ["FILEDELETE", { fileDelete: { fileID: { fileNum: Long.fromNumber(1001) } } }, 70_000_000n],
  [
    "SCHEDULECREATE",
    {
      scheduleCreate: {
        adminKey: key,
        scheduledTransactionBody: { cryptoTransfer: { transfers: hbarTransfer } },
      },
    },
    100_000_000n,
  ],
  ["SCHEDULEDELETE", { scheduleDelete: { scheduleID: { scheduleNum: Long.fromNumber(5) } } }, 10_000_000n],
  ["SCHEDULESIGN", { scheduleSign: { scheduleID: { scheduleNum: Long.fromNumber(5) } } }, 10_000_000n],
  ["TOKENASSOCIATE", { tokenAssociate: { account: account(1001), tokens: [token(5)] } }, 500_000_000n],
  ["TOKENDISSOCIATE", { tokenDissociate: { account: account(1001), tokens: [token(5)] } }, 500_000_000n],
  ["TOKENBURN", { tokenBurn: { token: token(5), amount: Long.fromNumber(3) } }, 10_000_000n],
  ["TOKENDELETION", { tokenDeletion: { token: token(5) } }, 10_000_000n],
  ["TOKENFREEZE", { tokenFreeze: { token: token(5), account: account(1001) } }, 10_000_000n],
  ["TOKENGRANTKYC", { tokenGrantKyc: { token: token(5), account: account(1001) } }, 10_000_000n],
  ["TOKENPAUSE", { tokenPause: { token: token(5) } }, 10_000_000n],
  ["TOKENREVOKEKYC", { tokenRevokeKyc: { token: token(5), account: account(1001) } }, 10_000_000n],
  ["TOKENUNFREEZE", { tokenUnfreeze: { token: token(5), account: account(1001) } }, 10_000_000n],
  ["TOKENUNPAUSE", { tokenUnpause: { token: token(5) } }, 10_000_000n],
  [
    "TOKENWIPE",
    { tokenWipe: { token: token(5), account: account(1001), amount: Long.fromNumber(1) } },
    10_000_000n,
  ],
  ["UTILPRNG", { utilPrng: { range: 10 } }, 10_000_000n],
  [
    "TOKENCREATION",
    {
      tokenCreation: {
        name: "T",
        symbol: "T",
        treasury: account(1001),
        ...eightKeys,
        customFees: [fixedFee],
      },
    },
    20_700_000_000n,
  ],
  [
    "TOKENMINT",
    { tokenMint: { token: token(5), metadata: [new Uint8Array([1]), new Uint8Array([2])] } },
    400_000_000n,
  ],
  ["TOKENUPDATE", { tokenUpdate: { token: token(5), ...eightKeys } }, 710_000_000n],
];

describe("mirror node totals by transaction type (fees.md §8.1)", () => {
  for (const [name, body, total] of CASES) {
    it(`${name} costs ${total} in both modes`, () => {
      const bytes = signedTransaction({ memo: "fixture", ...body });
      expect(bytes.length).toBeLessThan(1350);
      for (const mode of ["INTRINSIC", "STATE"] as const) {
        expect(BigInt(estimate(bytes, { mode }).total), mode).toBe(total);
      }
    });
  }

  it("a CryptoTransfer without signatures costs the node base times ten, with no extras", () => {
    const body = estimate(signedTransaction({ cryptoTransfer: { transfers: hbarTransfer } }, 0));
    expect(body).toEqual({
      high_volume_multiplier: 1,
      network: { multiplier: 9, subtotal: 900_000 },
      node: { base: 100_000, extras: [] },
      service: { base: 0, extras: [] },
      total: 1_000_000,
    });
  });

  it("two signatures cost (100 000 + 100 000) × 10 in the signed and the legacy form", () => {
    const body = { cryptoTransfer: { transfers: hbarTransfer } };
    expect(estimate(signedTransaction(body, 2)).total).toBe(2_000_000);
    expect(estimate(legacyTransaction(body, 2)).total).toBe(2_000_000);
  });

  it("in STATE, a fungible token with custom fees costs 10 000 000 more to move than one without", () => {
    const transfer = signedTransaction({
      cryptoTransfer: {
        tokenTransfers: [
          {
            token: token(5000),
            transfers: [
              { accountID: account(1001), amount: Long.fromNumber(-1) },
              { accountID: account(1002), amount: Long.fromNumber(1) },
            ],
          },
        ],
      },
    });
    const plain = estimate(transfer, {
      mode: "STATE",
      state: stateOf({ 5000: { nonFungible: false, hasCustomFees: false } }),
    });
    const withFees = estimate(transfer, {
      mode: "STATE",
      state: stateOf({ 5000: { nonFungible: false, hasCustomFees: true } }),
    });
    expect(withFees.total - plain.total).toBe(10_000_000);
  });
});

import Long from "long";
import { describe, expect, it } from "vitest";
import { FeeEstimateError } from "../../src/fees/errors.ts";
import { countKeys } from "../../src/fees/key-count.ts";
import type { proto } from "../../src/streams/proto.ts";
import { account, ed25519, signedTransaction, token } from "./build-transaction.ts";
import { estimate, extra, stateOf } from "./estimate-helpers.ts";

/**
 * Every service calculator against values derived by hand from the default schedule (fees.md §4.4). Each
 * transaction has one signature and is far below 1350 bytes, so node + network = 1 000 000 unless exempt.
 */
const NODE_AND_NETWORK = 1_000_000;
const n = (x: number) => Long.fromNumber(x);
const hookCall = (gas: number): proto.IHookCall => ({ hookId: n(1), evmHookCall: { gasLimit: n(gas) } });

function service(body: proto.ITransactionBody, mode: "INTRINSIC" | "STATE" = "INTRINSIC", state = stateOf()) {
  const response = estimate(signedTransaction(body), { mode, state });
  return { ...response.service, total: response.total };
}

function expectUnknownType(body: proto.ITransactionBody, mode: "INTRINSIC" | "STATE" = "INTRINSIC") {
  expect(() => estimate(signedTransaction(body), { mode })).toThrowError(
    new FeeEstimateError("Unknown transaction type"),
  );
}

describe("key counting", () => {
  it("counts primitive keys inside lists and thresholds, and nothing else", () => {
    expect(countKeys(ed25519())).toBe(1n);
    expect(countKeys({ ECDSASecp256k1: new Uint8Array(33) })).toBe(1n);
    expect(countKeys({ ECDSA_384: new Uint8Array(49) })).toBe(1n);
    expect(countKeys({ contractID: { contractNum: Long.fromNumber(5) } })).toBe(0n);
    expect(countKeys({ RSA_3072: new Uint8Array(10) })).toBe(0n);
    expect(countKeys(null)).toBe(0n);
    const nested = {
      thresholdKey: {
        threshold: 1,
        keys: {
          keys: [
            ed25519(1),
            {
              keyList: { keys: [ed25519(2), { delegatableContractId: { contractNum: Long.fromNumber(1) } }] },
            },
          ],
        },
      },
    };
    expect(countKeys(nested)).toBe(2n);
  });

  it("counts a key nested 100 000 deep without exhausting the stack", () => {
    let key: proto.IKey = ed25519();
    for (let i = 0; i < 100_000; i++) key = { keyList: { keys: [key] } };
    expect(countKeys(key)).toBe(1n);
  });
});

describe("crypto service", () => {
  it("CryptoCreate: base, keys over one, hook creations", () => {
    expect(service({ cryptoCreateAccount: {} })).toMatchObject({ base: 499000000, extras: [] });
    const s = service({
      cryptoCreateAccount: {
        key: { keyList: { keys: [ed25519(1), ed25519(2)] } },
        hookCreationDetails: [{}, {}],
      },
    });
    expect(s.extras).toEqual([extra("KEYS", 2, 1, 100000000), extra("HOOK_UPDATES", 2, 0, 10000000000)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 499000000 + 100000000 + 20000000000);
  });

  it("CryptoUpdate: one HOOK_UPDATES entry for creations and deletions together", () => {
    const s = service({ cryptoUpdateAccount: { hookCreationDetails: [{}], hookIdsToDelete: [n(1), n(2)] } });
    expect(s.extras).toEqual([extra("HOOK_UPDATES", 3, 0, 10000000000)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 1200000 + 30000000000);
  });

  it("CryptoApproveAllowance: crypto, token and NFT allowances together", () => {
    const s = service({
      cryptoApproveAllowance: { cryptoAllowances: [{}, {}], tokenAllowances: [{}], nftAllowances: [{}] },
    });
    expect(s.extras).toEqual([extra("ALLOWANCES", 4, 1, 500000000)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 499000000 + 1500000000);
  });

  it("CryptoDeleteAllowance: NFT allowance entries, not serials", () => {
    const s = service({
      cryptoDeleteAllowance: {
        nftAllowances: [{ serialNumbers: [n(1), n(2), n(3)] }, { serialNumbers: [n(4)] }],
      },
    });
    expect(s.extras).toEqual([extra("ALLOWANCES", 2, 1, 500000000)]);
  });

  it("CryptoDelete: base only", () => {
    expect(service({ cryptoDelete: {} })).toEqual({ base: 49000000, extras: [], total: 50000000 });
  });
});

describe("crypto transfers and airdrops", () => {
  const nftList = (tokenNum: number, serials: number): proto.ITokenTransferList => ({
    token: token(tokenNum),
    nftTransfers: Array.from({ length: serials }, (_, i) => ({
      senderAccountID: account(1001),
      receiverAccountID: account(1002 + i),
      serialNumber: n(i + 1),
    })),
  });
  const fungibleList = (tokenNum: number): proto.ITokenTransferList => ({
    token: token(tokenNum),
    transfers: [
      { accountID: account(1001), amount: n(-1) },
      { accountID: account(1002), amount: n(1) },
    ],
  });

  it("distinct accounts across hbar, token and NFT transfers", () => {
    const s = service({
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: account(1001), amount: n(-1) },
            { accountID: account(1005), amount: n(1) },
          ],
        },
        tokenTransfers: [fungibleList(50), nftList(60, 2)],
      },
    });
    // accounts 1001, 1005, 1002, 1003: four, two included; token lists 2 and 2 → TOKEN_TYPES 2 each.
    expect(s.extras).toEqual([
      extra("ACCOUNTS", 4, 2, 1000000),
      extra("TOKEN_TYPES", 2, 1, 1000000),
      extra("TOKEN_TYPES", 2, 1, 1000000),
    ]);
    expect(s.total).toBe(NODE_AND_NETWORK + 2000000 + 2000000);
  });

  it("STATE counts NFT serials and fungible tokens once, with one token base", () => {
    const state = stateOf({
      50: { nonFungible: false, hasCustomFees: false },
      60: { nonFungible: true, hasCustomFees: false },
    });
    const s = service(
      { cryptoTransfer: { tokenTransfers: [fungibleList(50), nftList(60, 3)] } },
      "STATE",
      state,
    );
    // accounts 1001..1004 = 4 (2 charged); token types 1 + 3 = 4 (3 charged).
    expect(s.extras).toEqual([
      extra("ACCOUNTS", 4, 2, 1000000),
      extra("TOKEN_TRANSFER_BASE", 1, 0, 9000000),
      extra("TOKEN_TYPES", 4, 1, 1000000),
    ]);
    expect(s.total).toBe(NODE_AND_NETWORK + 2000000 + 9000000 + 3000000);
  });

  it("STATE charges the custom-fee base once when any moved token has custom fees", () => {
    const state = stateOf({
      50: { nonFungible: false, hasCustomFees: false },
      60: { nonFungible: true, hasCustomFees: true },
    });
    const s = service(
      { cryptoTransfer: { tokenTransfers: [fungibleList(50), nftList(60, 1)] } },
      "STATE",
      state,
    );
    // Accounts 1001 and 1002 only (included); token types 1 + 1.
    expect(s.extras).toEqual([
      extra("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 1, 0, 19000000),
      extra("TOKEN_TYPES", 2, 1, 1000000),
    ]);
  });

  it("hooks: HOOK_EXECUTION and capped GAS in STATE; refused in INTRINSIC", () => {
    const body: proto.ITransactionBody = {
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: account(1001), amount: n(-1), preTxAllowanceHook: hookCall(100000) },
            { accountID: account(1002), amount: n(1), prePostTxAllowanceHook: hookCall(20000000) },
          ],
        },
      },
    };
    // invocations 1 + 2 = 3; gas 100 000 + 2 × 20 000 000 = 40 100 000, capped at 3 × 15 000 000 = 45 000 000.
    const s = service(body, "STATE");
    expect(s.extras).toEqual([extra("HOOK_EXECUTION", 3, 0, 50000000), extra("GAS", 40100000, 0, 852)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 150000000 + 40100000 * 852);
    expectUnknownType(body, "INTRINSIC");
  });

  it("hook gas is capped at 15 000 000 per invocation", () => {
    const s = service(
      {
        cryptoTransfer: {
          tokenTransfers: [
            {
              token: token(1),
              nftTransfers: [
                {
                  senderAccountID: account(1),
                  receiverAccountID: account(2),
                  serialNumber: n(1),
                  preTxSenderAllowanceHook: hookCall(40000000),
                  preTxReceiverAllowanceHook: hookCall(1),
                },
              ],
            },
          ],
        },
      },
      "STATE",
    );
    expect(s.extras).toEqual([extra("HOOK_EXECUTION", 2, 0, 50000000), extra("GAS", 30000000, 0, 852)]);
  });

  it("a transfer without an account id is refused", () => {
    expectUnknownType({ cryptoTransfer: { transfers: { accountAmounts: [{ amount: n(1) }] } } });
  });

  it("TokenAirdrop is priced as a CryptoTransfer of its token lists", () => {
    const s = service({ tokenAirdrop: { tokenTransfers: [fungibleList(50), fungibleList(51)] } });
    expect(s).toEqual({
      base: 0,
      extras: [extra("TOKEN_TYPES", 2, 1, 1000000), extra("TOKEN_TYPES", 2, 1, 1000000)],
      total: NODE_AND_NETWORK + 2000000,
    });
  });
});

describe("consensus service", () => {
  it("ConsensusCreateTopic: keys with none included, custom-fee surcharge", () => {
    const s = service({ consensusCreateTopic: { adminKey: ed25519(), feeExemptKeyList: [ed25519(2)] } });
    expect(s.extras).toEqual([extra("KEYS", 1, 0, 100000000)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 99000000 + 100000000);
  });

  it("ConsensusSubmitMessage in STATE: a topic with custom fees pays bytes over 1024", () => {
    const body = {
      consensusSubmitMessage: { topicID: { topicNum: Long.fromNumber(8) }, message: new Uint8Array(1100) },
    };
    const s = service(body, "STATE", stateOf({}, [8]));
    expect(s.extras).toEqual([
      extra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE", 1, 0, 498300000),
      extra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES", 1100, 1024, 1000000),
    ]);
    // INTRINSIC ignores the topic's fees.
    expect(service(body, "INTRINSIC", stateOf({}, [8])).extras).toEqual([
      extra("CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES", 1100, 100, 6800),
    ]);
  });

  it("ConsensusSubmitMessage without a topic is refused in STATE only", () => {
    expectUnknownType({ consensusSubmitMessage: { message: new Uint8Array(1) } }, "STATE");
    expect(service({ consensusSubmitMessage: { message: new Uint8Array(1) } }).total).toBe(1700000);
  });
});

describe("file service", () => {
  it("FileAppend: state bytes over 1000", () => {
    const s = service({
      fileAppend: { fileID: { fileNum: Long.fromNumber(1001) }, contents: new Uint8Array(1001) },
    });
    expect(s.extras).toEqual([extra("STATE_BYTES", 1001, 1000, 1000000)]);
  });

  it("FileUpdate of a system file is free in STATE, priced in INTRINSIC", () => {
    const body = { fileUpdate: { fileID: { fileNum: Long.fromNumber(113) }, contents: new Uint8Array(10) } };
    expect(estimate(signedTransaction(body), { mode: "STATE" })).toEqual({
      high_volume_multiplier: 1,
      network: { multiplier: 0, subtotal: 0 },
      node: { base: 0, extras: [] },
      service: { base: 0, extras: [] },
      total: 0,
    });
    expect(service(body).total).toBe(500000000);
    expect(service({ fileUpdate: { fileID: { fileNum: Long.fromNumber(751) } } }, "STATE").total).toBe(
      500000000,
    );
  });
});

describe("token service", () => {
  it("TokenMint with amount 0 and no metadata still pays the NFT base", () => {
    expect(service({ tokenMint: { token: token(1) } }).extras).toEqual([
      extra("TOKEN_MINT_NFT_BASE", 1, 0, 190000000),
    ]);
  });

  it("TokenUpdateNfts: serials over one", () => {
    const s = service({ tokenUpdateNfts: { token: token(1), serialNumbers: [n(1), n(2), n(3)] } });
    expect(s.extras).toEqual([extra("NFT_UPDATE", 3, 1, 10000000)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 9000000 + 20000000);
  });

  it.each(["tokenFeeScheduleUpdate", "tokenReject", "tokenCancelAirdrop", "tokenClaimAirdrop"])(
    "%s: base 9 000 000",
    (field) => {
      expect(service({ [field]: {} })).toEqual({ base: 9000000, extras: [], total: 10000000 });
    },
  );
});

describe("schedule service", () => {
  it("ScheduleCreate of a contract call pays the contract-call base", () => {
    const s = service({ scheduleCreate: { scheduledTransactionBody: { contractCall: {} } } });
    expect(s.extras).toEqual([extra("SCHEDULE_CREATE_CONTRACT_CALL_BASE", 1, 0, 900000000)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 99000000 + 900000000);
  });

  it("ScheduleCreate without a scheduled body is refused", () => {
    expectUnknownType({ scheduleCreate: { adminKey: ed25519() } });
  });
});

describe("contract, hook, network and utility services", () => {
  it("ContractUpdate lists hook creations and deletions as two entries", () => {
    const s = service({
      contractUpdateInstance: { hookCreationDetails: [{}], hookIdsToDelete: [n(5), n(6)] },
    });
    expect(s.extras).toEqual([
      extra("HOOK_UPDATES", 1, 0, 10000000000),
      extra("HOOK_UPDATES", 2, 0, 10000000000),
    ]);
  });

  it("HookStore: one per slot, one per mapping entry", () => {
    const s = service({
      hookStore: {
        storageUpdates: [
          { storageSlot: {} },
          { mappingEntries: { entries: [{}, {}, {}] } },
          { storageSlot: {} },
        ],
      },
    });
    expect(s.extras).toEqual([extra("HOOK_SLOT_UPDATE", 5, 1, 50000000)]);
    expect(s.total).toBe(NODE_AND_NETWORK + 49000000 + 200000000);
  });

  it.each(["systemDelete", "systemUndelete", "hookDispatch"])("%s is free, network multiplier 0", (field) => {
    const body = estimate(signedTransaction({ [field]: {} }));
    expect(body.total).toBe(0);
    expect(body.network.multiplier).toBe(0);
  });

  it.each([
    "nodeCreate",
    "nodeUpdate",
    "nodeDelete",
    "registeredNodeCreate",
    "registeredNodeUpdate",
    "registeredNodeDelete",
    "utilPrng",
    "atomicBatch",
  ])("%s: base 9 000 000", (field) => {
    expect(service({ [field]: {} })).toEqual({ base: 9000000, extras: [], total: 10000000 });
  });

  it("EthereumTransaction: node and network only", () => {
    expect(service({ ethereumTransaction: {} })).toEqual({ base: 0, extras: [], total: NODE_AND_NETWORK });
  });

  it.each(["freeze", "uncheckedSubmit", "nodeStakeUpdate", "cryptoAddLiveHash", "cryptoDeleteLiveHash"])(
    "%s has no calculator",
    (field) => expectUnknownType({ [field]: {} }),
  );

  it("a body with no transaction data is refused", () => {
    expectUnknownType({ memo: "nothing" });
  });
});

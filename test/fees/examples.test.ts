import Long from "long";
import { describe, expect, it } from "vitest";
import { account, ed25519, hex, legacyTransaction, signedTransaction, token } from "./build-transaction.ts";
import { estimate, extra, stateOf } from "./estimate-helpers.ts";

/** fees.md §8.2: byte-exact requests and full responses under the default schedule. */
const Z = "00".repeat(64);
const amount = (n: number) => Long.fromNumber(n);

describe("byte-exact examples (fees.md §8.2)", () => {
  it("E1: an empty CryptoTransfer with memo, no signatures", () => {
    const bytes = signedTransaction({ memo: "test", cryptoTransfer: {} }, 0);
    expect(hex(bytes)).toBe("2a0a0a083204746573747200");
    for (const mode of ["INTRINSIC", "STATE"] as const) {
      expect(estimate(bytes, { mode })).toEqual({
        high_volume_multiplier: 1,
        network: { multiplier: 9, subtotal: 900000 },
        node: { base: 100000, extras: [] },
        service: { base: 0, extras: [] },
        total: 1000000,
      });
    }
  });

  const twoSignatures = {
    high_volume_multiplier: 1,
    network: { multiplier: 9, subtotal: 1800000 },
    node: { base: 100000, extras: [extra("SIGNATURES", 2, 1, 100000)] },
    service: { base: 0, extras: [] },
    total: 2000000,
  };

  it("E2: the same body with two signature pairs", () => {
    const bytes = signedTransaction({ memo: "test", cryptoTransfer: {} }, 2);
    expect(hex(bytes)).toBe(`2a9b010a083204746573747200128e010a450a01001a40${Z}0a450a01011a40${Z}`);
    expect(bytes.length).toBe(158);
    expect(estimate(bytes)).toEqual(twoSignatures);
  });

  it("E3: the legacy bodyBytes + sigMap form", () => {
    const bytes = legacyTransaction({ memo: "legacy", cryptoTransfer: {} }, 2);
    expect(hex(bytes)).toBe(`1a8e010a450a01001a40${Z}0a450a01011a40${Z}220a32066c65676163797200`);
    expect(bytes.length).toBe(157);
    expect(estimate(bytes, { mode: "STATE" })).toEqual(twoSignatures);
  });

  it("E4: hbar among three accounts charges one account over the two included", () => {
    const bytes = signedTransaction({
      memo: "x",
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: account(1001), amount: amount(-200) },
            { accountID: account(1002), amount: amount(100) },
            { accountID: account(1003), amount: amount(100) },
          ],
        },
      },
    });
    expect(hex(bytes)).toBe(
      `2a700a2532017872200a1e0a080a0318e907108f030a080a0318ea0710c8010a080a0318eb0710c80112470a450a01001a40${Z}`,
    );
    const body = estimate(bytes);
    expect(body.node.extras).toEqual([]);
    expect(body.service.extras).toEqual([extra("ACCOUNTS", 3, 2, 1000000)]);
    expect(body.total).toBe(2000000);
  });

  describe("E5: a fungible token transfer", () => {
    const bytes = signedTransaction({
      cryptoTransfer: {
        transfers: {},
        tokenTransfers: [
          {
            token: token(5000),
            transfers: [
              { accountID: account(1), amount: amount(-100) },
              { accountID: account(2), amount: amount(100) },
            ],
          },
        ],
      },
    });
    it("has the documented bytes", () => {
      expect(hex(bytes)).toBe(
        `2a680a1d721b0a0012170a0318882712070a02180110c70112070a02180210c80112470a450a01001a40${Z}`,
      );
    });
    it("INTRINSIC counts the list's transfers as token types", () => {
      const body = estimate(bytes);
      expect(body.service.extras).toEqual([extra("TOKEN_TYPES", 2, 1, 1000000)]);
      expect(body.total).toBe(2000000);
    });
    it("STATE charges the token transfer base for a token without custom fees", () => {
      const body = estimate(bytes, {
        mode: "STATE",
        state: stateOf({ 5000: { nonFungible: false, hasCustomFees: false } }),
      });
      expect(body.service.extras).toEqual([extra("TOKEN_TRANSFER_BASE", 1, 0, 9000000)]);
      expect(body.total).toBe(10000000);
    });
    it("STATE charges the custom-fee base for a token with custom fees", () => {
      const body = estimate(bytes, {
        mode: "STATE",
        state: stateOf({ 5000: { nonFungible: false, hasCustomFees: true } }),
      });
      expect(body.service.extras).toEqual([extra("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 1, 0, 19000000)]);
      expect(body.total).toBe(20000000);
    });
    it("STATE skips a token the index does not know", () => {
      const body = estimate(bytes, { mode: "STATE" });
      expect(body.service.extras).toEqual([]);
      expect(body.total).toBe(1000000);
    });
  });

  it("E6: CryptoCreate with one key, and with a 2-of-3 threshold key", () => {
    const single = signedTransaction({ cryptoCreateAccount: { key: ed25519(1) } });
    expect(hex(single)).toBe(
      `2a710a265a240a221220010101010101010101010101010101010101010101010101010101010101010112470a450a01001a40${Z}`,
    );
    const body = estimate(single);
    expect(body.service).toEqual({ base: 499000000, extras: [] });
    expect(body.total).toBe(500000000);
    const threshold = signedTransaction({
      cryptoCreateAccount: {
        key: { thresholdKey: { threshold: 2, keys: { keys: [ed25519(1), ed25519(2), ed25519(3)] } } },
      },
    });
    const body3 = estimate(threshold);
    expect(body3.service.extras).toEqual([extra("KEYS", 3, 1, 100000000)]);
    expect(body3.total).toBe(700000000);
  });

  it("E7: an NFT mint of three and a fungible mint", () => {
    const nft = signedTransaction({
      tokenMint: { token: token(5), metadata: [Buffer.from("a"), Buffer.from("b"), Buffer.from("c")] },
    });
    expect(hex(nft)).toBe(`2a5b0a10aa020d0a0218051a01611a01621a016312470a450a01001a40${Z}`);
    const body = estimate(nft);
    expect(body.service).toEqual({
      base: 9000000,
      extras: [extra("TOKEN_MINT_NFT_BASE", 1, 0, 190000000), extra("TOKEN_MINT_NFT", 3, 1, 200000000)],
    });
    expect(body.total).toBe(600000000);
    const fungible = signedTransaction({ tokenMint: { token: token(5), amount: amount(100) } });
    expect(hex(fungible)).toBe(`2a540a09aa02060a021805106412470a450a01001a40${Z}`);
    expect(estimate(fungible).total).toBe(10000000);
  });

  it("E8: associating three tokens", () => {
    const bytes = signedTransaction({
      tokenAssociate: { account: account(9), tokens: [token(1), token(2), token(3)] },
    });
    expect(hex(bytes)).toBe(`2a5e0a13c202100a02180912021801120218021202180312470a450a01001a40${Z}`);
    const body = estimate(bytes);
    expect(body.service.extras).toEqual([extra("TOKEN_ASSOCIATE", 3, 1, 500000000)]);
    expect(body.total).toBe(1500000000);
  });

  it("E9: a contract call is node/network exempt and free", () => {
    const bytes = signedTransaction({
      contractCall: { contractID: { contractNum: Long.fromNumber(10) }, gas: amount(100000) },
    });
    expect(hex(bytes)).toBe(`2a550a0a3a080a02180a10a08d0612470a450a01001a40${Z}`);
    expect(estimate(bytes)).toEqual({
      high_volume_multiplier: 1,
      network: { multiplier: 0, subtotal: 0 },
      node: { base: 0, extras: [] },
      service: { base: 0, extras: [] },
      total: 0,
    });
  });

  it("E10: a 128-byte message, to a topic without and with a fixed custom fee", () => {
    const bytes = signedTransaction({
      consensusSubmitMessage: { topicID: { topicNum: Long.fromNumber(7) }, message: new Uint8Array(128) },
    });
    expect(bytes.length).toBe(218);
    const plain = estimate(bytes);
    expect(plain.service.extras).toEqual([
      extra("CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES", 128, 100, 6800),
    ]);
    expect(plain.total).toBe(1890400);
    const withFee = estimate(bytes, { mode: "STATE", state: stateOf({}, [7]) });
    expect(withFee.service.extras).toEqual([
      extra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE", 1, 0, 498300000),
    ]);
    expect(withFee.total).toBe(500000000);
  });

  it("E11: a 2000-byte message pays processing bytes at the node", () => {
    const bytes = signedTransaction({
      consensusSubmitMessage: { topicID: { topicNum: Long.fromNumber(7) }, message: new Uint8Array(2000) },
    });
    expect(bytes.length).toBe(2090);
    const body = estimate(bytes);
    expect(body.node.extras).toEqual([extra("PROCESSING_BYTES", 2090, 1350, 10000)]);
    expect(body.network).toEqual({ multiplier: 9, subtotal: 67500000 });
    expect(body.service.extras).toEqual([
      extra("CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES", 2000, 100, 6800),
    ]);
    expect(body.total).toBe(88620000);
  });

  it("E12: a 2500-byte file pays state bytes", () => {
    const bytes = signedTransaction({
      fileCreate: { keys: { keys: [ed25519()] }, contents: new Uint8Array(2500) },
    });
    expect(bytes.length).toBe(2624);
    const body = estimate(bytes);
    expect(body.node.extras).toEqual([extra("PROCESSING_BYTES", 2624, 1350, 10000)]);
    expect(body.network.subtotal).toBe(115560000);
    expect(body.service).toEqual({ base: 499000000, extras: [extra("STATE_BYTES", 2500, 1000, 1000000)] });
    expect(body.total).toBe(2127400000);
  });

  it("E13: a token with eight keys and a custom fee", () => {
    const bytes = signedTransaction({
      tokenCreation: {
        name: "Example",
        symbol: "EX",
        adminKey: ed25519(1),
        kycKey: ed25519(2),
        freezeKey: ed25519(3),
        wipeKey: ed25519(4),
        supplyKey: ed25519(5),
        feeScheduleKey: ed25519(6),
        pauseKey: ed25519(7),
        metadataKey: ed25519(8),
        customFees: [{ fixedFee: { amount: amount(1) }, feeCollectorAccountId: account(98) }],
      },
    });
    const body = estimate(bytes);
    expect(body.service).toEqual({
      base: 9999000000,
      extras: [extra("KEYS", 8, 1, 100000000), extra("TOKEN_CREATE_WITH_CUSTOM_FEE", 1, 0, 10000000000)],
    });
    expect(body.total).toBe(20700000000);
  });

  it("E14: a topic update with three keys and two fee-exempt keys", () => {
    const bytes = signedTransaction({
      consensusUpdateTopic: {
        topicID: { topicNum: Long.fromNumber(7) },
        adminKey: ed25519(1),
        submitKey: ed25519(2),
        feeScheduleKey: ed25519(3),
        feeExemptKeyList: { keys: [ed25519(4), ed25519(5)] },
      },
    });
    const body = estimate(bytes);
    expect(body.service.extras).toEqual([extra("KEYS", 5, 1, 100000000)]);
    expect(body.total).toBe(402200000);
  });
});

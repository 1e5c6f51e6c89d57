import { createHash, createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ScenarioError } from "../../fixtures/writer/scenario/ledger.ts";
import { TOKEN_CREATE_MAX_FEE } from "../../fixtures/writer/scenario/network-fees.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import {
  assessedFees,
  autoAssociations,
  FEES,
  feeEntries,
  hbarList,
  netSorted,
  simulate,
  tokenLists,
} from "./scenario-helpers.ts";

const HBAR = 100_000_000n;
const OPERATOR = 2n;
const SUCCESS = proto.ResponseCodeEnum.SUCCESS;

const ACCOUNTS = `
  - cryptoCreate: { name: alice, balance: "100 hbar" }
  - cryptoCreate: { name: bob, balance: "100 hbar" }
  - cryptoCreate: { name: carol, balance: "100 hbar" }
  - cryptoCreate: { name: dave, balance: "100 hbar" }
`;

describe("account steps", () => {
  it("CryptoCreate reports the new account and moves the initial balance from the payer", () => {
    const sim = simulate(
      `  - cryptoCreate: { name: alice, balance: "12.5 hbar", memo: hi, label: create }\n`,
    );
    const { summary, item } = sim.step("create");
    const alice = sim.num("alice");
    expect(alice).toBe(1001n);
    expect(summary.entityId).toBe("0.0.1001");
    expect(item.record.receipt!.status).toBe(SUCCESS);
    expect(toBigInt(item.record.receipt!.accountID!.accountNum)).toBe(alice);
    expect(toBigInt(item.record.transactionFee)).toBe(FEES.cryptoCreate);
    const initial = 12n * HBAR + HBAR / 2n;
    expect(hbarList(item.record)).toEqual(
      netSorted(feeEntries(OPERATOR, FEES.cryptoCreate), [
        [OPERATOR, -initial],
        [alice, initial],
      ]),
    );
    expect(toBigInt(item.body.cryptoCreateAccount!.initialBalance)).toBe(initial);
    expect(item.body.cryptoCreateAccount!.memo).toBe("hi");
  });

  it("CryptoDelete sends the remaining balance to the beneficiary", () => {
    const sim = simulate(
      `${ACCOUNTS}  - cryptoDelete: { account: carol, transferTo: alice, label: delete }\n`,
    );
    const { item } = sim.step("delete");
    expect(hbarList(item.record)).toEqual(
      netSorted(feeEntries(OPERATOR, FEES.cryptoDelete), [
        [sim.num("carol"), -100n * HBAR],
        [sim.num("alice"), 100n * HBAR],
      ]),
    );
    expect(sim.run.summary.accounts.carol!.deleted).toBe(true);
    expect(sim.run.summary.accounts.carol!.balance).toBe("0");
  });

  it("CryptoUpdate is signed by the old and the new key", () => {
    const sim = simulate(
      `${ACCOUNTS}  - cryptoUpdate: { account: bob, key: bobNew, memo: rotated, payer: bob, label: update }\n`,
    );
    const { item } = sim.step("update");
    expect(item.signed.sigMap!.sigPair).toHaveLength(2);
    expect(item.body.cryptoUpdateAccount!.memo!.value).toBe("rotated");
    expect(item.body.cryptoUpdateAccount!.key!.ed25519).toHaveLength(32);
  });
});

describe("transactions as a client sends them", () => {
  it("carries the common body fields, a SHA-384 transaction hash and ED25519 signatures that verify", () => {
    const sim = simulate(
      `${ACCOUNTS}  - cryptoTransfer: { payer: alice, hbar: { alice: "-1 hbar", bob: "1 hbar" }, txMemo: thanks, label: pay }\n`,
    );
    const { item } = sim.step("pay");
    const body = item.body;
    expect(toBigInt(body.nodeAccountID!.accountNum)).toBe(3n);
    expect(toBigInt(body.transactionValidDuration!.seconds)).toBe(120n);
    expect(body.memo).toBe("thanks");
    expect(item.record.memo).toBe("thanks");
    expect(toBigInt(body.transactionID!.accountID!.accountNum)).toBe(sim.num("alice"));
    const validStart = toBigInt(body.transactionID!.transactionValidStart!.seconds) * 1_000_000_000n;
    expect(validStart).toBeLessThan(item.consensusNs);
    expect(item.record.transactionID).toEqual(body.transactionID);
    expect(Buffer.from(item.record.transactionHash).toString("hex")).toBe(
      createHash("sha384").update(item.signedBytes).digest("hex"),
    );
    for (const pair of item.signed.sigMap!.sigPair!) {
      const publicKey = createPublicKey({
        key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(pair.pubKeyPrefix!).toString("base64url") },
        format: "jwk",
      });
      expect(verify(null, item.signed.bodyBytes, publicKey, pair.ed25519!)).toBe(true);
    }
    // Consensus timestamps strictly increase over the whole stream.
    for (let i = 1; i < sim.items.length; i++) {
      expect(sim.items[i]!.consensusNs).toBeGreaterThan(sim.items[i - 1]!.consensusNs);
    }
  });

  it("signs with ECDSA keys too (Keccak-256 of the body, r and s)", () => {
    const sim = simulate(`
  - cryptoCreate: { name: eve, key: { ecdsa: eve }, balance: "5 hbar" }
  - cryptoTransfer: { payer: eve, hbar: { eve: "-1 hbar", "0.0.98": "1 hbar" }, label: ecdsa }
`);
    const pairs = sim.step("ecdsa").item.signed.sigMap!.sigPair!;
    expect(pairs).toHaveLength(1);
    expect(pairs[0]!.pubKeyPrefix).toHaveLength(33);
    expect(pairs[0]!.ECDSASecp256k1).toHaveLength(64);
  });
});

describe("token creation", () => {
  it("credits the initial supply to the treasury and associates the treasury and collectors that need it", () => {
    const sim = simulate(`${ACCOUNTS}
  - tokenCreate:
      token: GOLD
      label: create
      name: Gold
      symbol: GLD
      decimals: 2
      initialSupply: 1000000
      treasury: alice
      keys: { admin: alice, supply: { keyList: [alice, bob] }, freeze: { threshold: 1, keys: [alice, { ecdsa: hw }] } }
      customFees:
        - fixed: { amount: "1 hbar", collector: bob }
        - fixed: { amount: 3, denom: self, collector: carol }
        - fractional: { numerator: 1, denominator: 10, collector: dave }
`);
    const { item, summary } = sim.step("create");
    const gold = sim.num("GOLD");
    expect(gold).toBe(1005n);
    expect(summary.entityId).toBe("0.0.1005");
    expect(toBigInt(item.record.receipt!.tokenID!.tokenNum)).toBe(gold);
    expect(tokenLists(item.record)).toEqual([
      { token: gold, transfers: [[sim.num("alice"), 1_000_000n]], nfts: [] },
    ]);
    // The hbar fee collector (bob) is not associated; the self-denominated and fractional collectors are.
    expect(autoAssociations(item.record)).toEqual([
      [gold, sim.num("alice")],
      [gold, sim.num("carol")],
      [gold, sim.num("dave")],
    ]);
    expect(toBigInt(item.body.transactionFee)).toBe(TOKEN_CREATE_MAX_FEE);
    const create = item.body.tokenCreation!;
    expect(create.supplyKey!.keyList!.keys).toHaveLength(2);
    expect(create.freezeKey!.thresholdKey!.threshold).toBe(1);
    expect(create.freezeKey!.thresholdKey!.keys!.keys![1]!.ECDSASecp256k1).toHaveLength(33);
    expect(create.customFees![1]!.fixedFee!.denominatingTokenId).toEqual({});
    expect(hbarList(item.record)).toEqual(netSorted(feeEntries(OPERATOR, FEES.tokenCreateCustomFees)));
    expect(sim.run.summary.tokens.GOLD!.totalSupply).toBe("1000000");
  });

  it("rejects a fee schedule the ledger does not allow", () => {
    const nft = (fees: string) => `${ACCOUNTS}
  - tokenCreate: { token: ART, name: Art, symbol: ART, type: nft, treasury: alice, keys: { supply: alice }, customFees: [${fees}] }
`;
    expect(() => simulate(nft("{ fractional: { numerator: 1, denominator: 10, collector: bob } }"))).toThrow(
      /CUSTOM_FRACTIONAL_FEE_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON/,
    );
    expect(() =>
      simulate(
        `${ACCOUNTS}  - tokenCreate: { token: ART, name: Art, symbol: ART, type: nft, treasury: alice }\n`,
      ),
    ).toThrow(/TOKEN_HAS_NO_SUPPLY_KEY/);
  });
});

const GOLD_SETUP = `${ACCOUNTS}
  - tokenCreate:
      token: GOLD
      name: Gold
      symbol: GLD
      initialSupply: 1000000
      treasury: alice
      keys: { admin: alice, supply: alice, wipe: alice, feeSchedule: alice }
      customFees:
        - fixed: { amount: "0.5 hbar", collector: carol }
        - fractional: { numerator: 1, denominator: 100, min: 10, max: 10000, collector: carol }
  - tokenAssociate: { account: bob, tokens: [GOLD], payer: bob }
  - tokenAssociate: { account: dave, tokens: [GOLD], payer: dave }
  - cryptoTransfer: { payer: alice, tokens: { GOLD: { alice: -100000, bob: 100000 } }, label: from-treasury }
`;

describe("fungible transfers and custom fees", () => {
  it("charges no custom fee to the treasury", () => {
    const sim = simulate(GOLD_SETUP);
    const { item } = sim.step("from-treasury");
    expect(assessedFees(item.record)).toEqual([]);
    expect(tokenLists(item.record)).toEqual([
      {
        token: sim.num("GOLD"),
        transfers: [
          [sim.num("alice"), -100_000n],
          [sim.num("bob"), 100_000n],
        ],
        nfts: [],
      },
    ]);
  });

  it("takes a fixed hbar fee from the sender and a fractional fee out of what the receiver gets", () => {
    const sim = simulate(
      `${GOLD_SETUP}  - cryptoTransfer: { payer: bob, tokens: { GOLD: { bob: -50000, dave: 50000 } }, label: fees }\n`,
    );
    const { item } = sim.step("fees");
    const [bob, carol, dave, gold] = [sim.num("bob"), sim.num("carol"), sim.num("dave"), sim.num("GOLD")];
    const fixed = HBAR / 2n;
    const fractional = 50_000n / 100n; // 1%, inside [10, 10000]
    expect(assessedFees(item.record)).toEqual([
      { amount: fixed, token: 0n, collector: carol, payers: [bob] },
      { amount: fractional, token: gold, collector: carol, payers: [dave] },
    ]);
    expect(hbarList(item.record)).toEqual(
      netSorted(feeEntries(bob, FEES.cryptoTransferCustomFees), [
        [bob, -fixed],
        [carol, fixed],
      ]),
    );
    expect(tokenLists(item.record)).toEqual([
      {
        token: gold,
        transfers: netSorted([
          [bob, -50_000n],
          [dave, 50_000n - fractional],
          [carol, fractional],
        ]),
        nfts: [],
      },
    ]);
    expect(sim.run.summary.tokens.GOLD!.balances[`0.0.${carol}`]).toBe(String(fractional));
  });

  it("applies the minimum and maximum of a fractional fee, and net-of-transfers fees come on top", () => {
    const sim = simulate(`${GOLD_SETUP}
  - cryptoTransfer: { payer: bob, tokens: { GOLD: { bob: -200, dave: 200 } }, label: minimum }
  - tokenFeeScheduleUpdate:
      token: GOLD
      payer: alice
      customFees: [{ fractional: { numerator: 1, denominator: 2, max: 7, netOfTransfers: true, collector: carol } }]
  - cryptoTransfer: { payer: bob, tokens: { GOLD: { bob: -1000, dave: 1000 } }, label: net }
`);
    const [bob, carol, dave] = [sim.num("bob"), sim.num("carol"), sim.num("dave")];
    // 1% of 200 is 2, below the minimum of 10.
    expect(assessedFees(sim.step("minimum").item.record).at(-1)!.amount).toBe(10n);
    const net = sim.step("net").item.record;
    // Half of 1000 is capped at 7, and the sender pays it on top.
    expect(assessedFees(net)).toEqual([
      { amount: 7n, token: sim.num("GOLD"), collector: carol, payers: [bob] },
    ]);
    expect(tokenLists(net)[0]!.transfers).toEqual(
      netSorted([
        [bob, -1007n],
        [dave, 1000n],
        [carol, 7n],
      ]),
    );
  });

  it("exempts collectors when the fee says so, and skips fractional fees on exempt receivers", () => {
    // The create associated carol, the fractional fee's collector.
    const sim = simulate(`${GOLD_SETUP}
  - cryptoTransfer: { payer: bob, tokens: { GOLD: { bob: -10000, carol: 10000 } }, label: to-collector }
  - cryptoTransfer: { payer: bob, tokens: { GOLD: { bob: -10000, alice: 5000, dave: 5000 } }, label: treasury-receives }
`);
    // carol collects the fractional fee: as the only receiver she is exempt, so only the fixed fee is charged.
    expect(assessedFees(sim.step("to-collector").item.record).map((f) => f.token)).toEqual([0n]);
    // With the exempt treasury among the receivers, only dave's credit pays: 1% of the 10000 sent.
    const fees = assessedFees(sim.step("treasury-receives").item.record);
    expect(fees.at(-1)).toEqual({
      amount: 100n,
      token: sim.num("GOLD"),
      collector: sim.num("carol"),
      payers: [sim.num("dave")],
    });
  });

  it("associates a receiver with free automatic association slots", () => {
    const sim = simulate(`${GOLD_SETUP}
  - cryptoCreate: { name: erin, maxAutoAssociations: 1 }
  - cryptoTransfer: { payer: alice, tokens: { GOLD: { alice: -5, erin: 5 } }, label: auto }
`);
    expect(autoAssociations(sim.step("auto").item.record)).toEqual([[sim.num("GOLD"), sim.num("erin")]]);
  });
});

describe("supply changes", () => {
  it("reports new total supplies, and mint serials only on an NFT mint", () => {
    const sim = simulate(`${GOLD_SETUP}
  - tokenMint: { token: GOLD, amount: 500, label: mint }
  - tokenBurn: { token: GOLD, amount: 200, label: burn }
  - tokenWipe: { token: GOLD, account: bob, amount: 300, label: wipe }
  - tokenCreate: { token: ART, name: Art, symbol: ART, type: nft, treasury: alice, keys: { supply: alice, wipe: alice } }
  - tokenMint: { token: ART, metadata: ["ipfs://a", "hex:00ff"], label: nft-mint }
  - tokenAssociate: { account: bob, tokens: [ART], payer: bob }
  - cryptoTransfer: { payer: alice, nfts: { ART: [{ serial: 2, from: alice, to: bob }] } }
  - tokenBurn: { token: ART, serials: [1], label: nft-burn }
  - tokenWipe: { token: ART, account: bob, serials: [2], label: nft-wipe }
`);
    const [alice, bob, gold, art] = [sim.num("alice"), sim.num("bob"), sim.num("GOLD"), sim.num("ART")];
    const supply = (label: string) => toBigInt(sim.step(label).item.record.receipt!.newTotalSupply);
    expect(supply("mint")).toBe(1_000_500n);
    expect(supply("burn")).toBe(1_000_300n);
    expect(supply("wipe")).toBe(1_000_000n);
    expect(tokenLists(sim.step("mint").item.record)).toEqual([
      { token: gold, transfers: [[alice, 500n]], nfts: [] },
    ]);
    expect(tokenLists(sim.step("burn").item.record)).toEqual([
      { token: gold, transfers: [[alice, -200n]], nfts: [] },
    ]);
    expect(tokenLists(sim.step("wipe").item.record)).toEqual([
      { token: gold, transfers: [[bob, -300n]], nfts: [] },
    ]);
    expect(sim.step("burn").item.record.receipt!.serialNumbers).toEqual([]);

    const mint = sim.step("nft-mint").item;
    expect(mint.record.receipt!.serialNumbers!.map(toBigInt)).toEqual([1n, 2n]);
    expect(supply("nft-mint")).toBe(2n);
    expect(tokenLists(mint.record)).toEqual([
      {
        token: art,
        transfers: [],
        nfts: [
          [0n, alice, 1n],
          [0n, alice, 2n],
        ],
      },
    ]);
    expect(mint.body.tokenMint!.metadata!.map((m) => Buffer.from(m).toString("hex"))).toEqual([
      Buffer.from("ipfs://a").toString("hex"),
      "00ff",
    ]);
    // No sender and no receiver are written as an empty AccountID (0.0.0), as nodes do.
    expect(mint.record.tokenTransferLists[0]!.nftTransfers![0]!.senderAccountID).toEqual({});
    expect(tokenLists(sim.step("nft-burn").item.record)[0]!.nfts).toEqual([[alice, 0n, 1n]]);
    expect(tokenLists(sim.step("nft-wipe").item.record)[0]!.nfts).toEqual([[bob, 0n, 2n]]);
    expect(supply("nft-wipe")).toBe(0n);
    expect(sim.run.summary.tokens.ART!.nfts).toEqual({});
  });
});

const ART_SETUP = `${ACCOUNTS}
  - tokenCreate:
      token: ART
      name: Art
      symbol: ART
      type: nft
      treasury: alice
      keys: { admin: alice, supply: alice, feeSchedule: alice }
      customFees: [{ royalty: { numerator: 1, denominator: 10, fallback: { amount: "2 hbar" }, collector: carol } }]
  - tokenMint: { token: ART, metadata: [a, b, c] }
  - tokenAssociate: { account: bob, tokens: [ART], payer: bob }
  - tokenAssociate: { account: dave, tokens: [ART], payer: dave }
  - cryptoTransfer: { payer: alice, nfts: { ART: [{ serial: 1, from: alice, to: bob }, { serial: 2, from: alice, to: bob }] }, label: from-treasury }
`;

describe("NFT transfers and royalties", () => {
  it("charges a royalty on the value the seller receives, and the fallback to a receiver who pays nothing", () => {
    const sim = simulate(`${ART_SETUP}
  - cryptoTransfer: { payer: dave, hbar: { dave: "-30 hbar", bob: "30 hbar" }, nfts: { ART: [{ serial: 1, from: bob, to: dave }] }, label: sale }
  - cryptoTransfer: { payer: bob, nfts: { ART: [{ serial: 2, from: bob, to: dave }] }, label: gift }
`);
    const [bob, carol, dave, art] = [sim.num("bob"), sim.num("carol"), sim.num("dave"), sim.num("ART")];
    expect(assessedFees(sim.step("from-treasury").item.record)).toEqual([]);
    const sale = sim.step("sale").item.record;
    const royalty = (30n * HBAR) / 10n;
    expect(assessedFees(sale)).toEqual([{ amount: royalty, token: 0n, collector: carol, payers: [bob] }]);
    expect(hbarList(sale)).toEqual(
      netSorted(feeEntries(dave, FEES.cryptoTransferCustomFees), [
        [dave, -30n * HBAR],
        [bob, 30n * HBAR - royalty],
        [carol, royalty],
      ]),
    );
    expect(tokenLists(sale)).toEqual([{ token: art, transfers: [], nfts: [[bob, dave, 1n]] }]);
    const gift = sim.step("gift").item.record;
    expect(assessedFees(gift)).toEqual([{ amount: 2n * HBAR, token: 0n, collector: carol, payers: [dave] }]);
    expect(sim.run.summary.tokens.ART!.nfts!["2"]!.owner).toBe(`0.0.${dave}`);
  });

  it("lets an approved spender move an NFT, once", () => {
    const sim = simulate(`${ART_SETUP}
  - cryptoApproveAllowance: { owner: bob, payer: bob, nfts: [{ token: ART, spender: carol, serials: [1] }], label: approve }
  - cryptoTransfer: { payer: carol, nfts: { ART: [{ serial: 1, from: bob, to: dave, approval: true }] }, label: spend }
  - cryptoTransfer: { payer: carol, nfts: { ART: [{ serial: 1, from: dave, to: bob, approval: true }] }, fail: SPENDER_DOES_NOT_HAVE_ALLOWANCE }
`);
    const approve = sim.step("approve").item.body.cryptoApproveAllowance!.nftAllowances![0]!;
    expect(toBigInt(approve.spender!.accountNum)).toBe(sim.num("carol"));
    expect(approve.serialNumbers!.map(toBigInt)).toEqual([1n]);
    const spend = sim.step("spend").item;
    expect(spend.body.cryptoTransfer!.tokenTransfers![0]!.nftTransfers![0]!.isApproval).toBe(true);
    expect(spend.signed.sigMap!.sigPair).toHaveLength(1); // the spender pays and signs, not the owner
    expect(sim.run.summary.tokens.ART!.nfts!["1"]!.spender).toBeNull();
  });

  it("moves the treasury's NFTs to a new treasury, shown as one transfer of serial -1", () => {
    const sim = simulate(`${ART_SETUP}
  - cryptoCreate: { name: erin, maxAutoAssociations: -1 }
  - tokenUpdate: { token: ART, treasury: erin, payer: alice, label: treasury }
`);
    const { item } = sim.step("treasury");
    const [alice, erin, art] = [sim.num("alice"), sim.num("erin"), sim.num("ART")];
    expect(tokenLists(item.record)).toEqual([{ token: art, transfers: [], nfts: [[alice, erin, -1n]] }]);
    expect(autoAssociations(item.record)).toEqual([[art, erin]]);
    expect(sim.run.summary.tokens.ART!.nfts!["3"]!.owner).toBe(`0.0.${erin}`);
    expect(sim.run.summary.tokens.ART!.balances[`0.0.${erin}`]).toBe("1");
  });
});

describe("treasury changes and deletion of fungible tokens", () => {
  it("moves the whole treasury balance as a token transfer", () => {
    const sim = simulate(`${GOLD_SETUP}
  - tokenAssociate: { account: dave, tokens: [GOLD], payer: dave, fail: TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT }
  - tokenUpdate: { token: GOLD, treasury: dave, name: Gold 2, payer: alice, label: treasury }
`);
    const [alice, dave, gold] = [sim.num("alice"), sim.num("dave"), sim.num("GOLD")];
    expect(tokenLists(sim.step("treasury").item.record)).toEqual([
      {
        token: gold,
        transfers: [
          [alice, -900_000n],
          [dave, 900_000n],
        ],
        nfts: [],
      },
    ]);
    expect(sim.run.summary.tokens.GOLD!.treasury).toBe(`0.0.${dave}`);
    expect(sim.run.summary.tokens.GOLD!.name).toBe("Gold 2");
  });

  it("takes the balance of a deleted token away on dissociation", () => {
    const sim = simulate(`${GOLD_SETUP}
  - tokenDelete: { token: GOLD, payer: alice }
  - tokenDissociate: { account: bob, tokens: [GOLD], payer: bob, label: dissociate }
`);
    expect(tokenLists(sim.step("dissociate").item.record)).toEqual([
      { token: sim.num("GOLD"), transfers: [[sim.num("bob"), -100_000n]], nfts: [] },
    ]);
    expect(sim.run.summary.tokens.GOLD!.totalSupply).toBe("900000");
    expect(sim.run.summary.tokens.GOLD!.deleted).toBe(true);
  });
});

describe("accounts created for aliases", () => {
  it("writes a preceding child CryptoCreate for each new alias", () => {
    const sim = simulate(`${ACCOUNTS}
  - cryptoTransfer: { payer: alice, hbar: { alice: "-3 hbar", kim: "1 hbar", leo: "2 hbar" }, createAliases: { kim: ed25519, leo: ecdsa }, label: aliases }
`);
    const { summary, item } = sim.step("aliases");
    const [kim, leo] = [sim.num("kim"), sim.num("leo")];
    expect(summary.children!.map((c) => c.entityId)).toEqual([`0.0.${kim}`, `0.0.${leo}`]);
    const index = sim.items.indexOf(item);
    const children = sim.items.slice(index - 2, index);
    expect(children.map((c) => c.consensusNs)).toEqual([item.consensusNs - 2n, item.consensusNs - 1n]);
    for (const [i, child] of children.entries()) {
      expect(child.record.transactionID!.nonce).toBe(i + 1);
      expect(child.record.transactionID!.transactionValidStart).toEqual(
        item.record.transactionID!.transactionValidStart,
      );
      expect(child.record.memo).toBe("auto-created account");
      expect(child.signed.sigMap).toBeNull();
      expect(child.record.receipt!.status).toBe(SUCCESS);
      expect(child.body.cryptoCreateAccount!.maxAutomaticTokenAssociations).toBe(-1);
    }
    const [kimRecord, leoRecord] = [children[0]!.record, children[1]!.record];
    expect(toBigInt(kimRecord.receipt!.accountID!.accountNum)).toBe(kim);
    expect(Buffer.from(kimRecord.alias).toString("hex")).toBe(sim.run.summary.accounts.kim!.key);
    expect(kimRecord.evmAddress).toHaveLength(0);
    // An ECDSA alias: the record also reports the EVM address, which becomes the account's alias.
    expect(`0x${Buffer.from(leoRecord.evmAddress).toString("hex")}`).toBe(
      sim.run.summary.accounts.leo!.evmAddress,
    );
    expect(Buffer.from(children[1]!.body.cryptoCreateAccount!.alias!).toString("hex")).toBe(
      Buffer.from(leoRecord.evmAddress).toString("hex"),
    );
    // The body names the new accounts by alias; the record by number, and the payer pays both creations.
    const aliases = item.body.cryptoTransfer!.transfers!.accountAmounts!.filter(
      (a) => a.accountID!.alias?.length,
    );
    expect(aliases).toHaveLength(2);
    expect(toBigInt(item.record.transactionFee)).toBe(FEES.cryptoTransfer + 2n * FEES.autoCreation);
    expect(hbarList(item.record)).toEqual(
      netSorted(feeEntries(sim.num("alice"), FEES.cryptoTransfer + 2n * FEES.autoCreation), [
        [sim.num("alice"), -3n * HBAR],
        [kim, HBAR],
        [leo, 2n * HBAR],
      ]),
    );
  });
});

describe("failed transactions", () => {
  it("reach consensus with their status, charge the fee and change nothing else", () => {
    const sim = simulate(`${GOLD_SETUP}
  - tokenMint: { token: GOLD, amount: 5, fail: INVALID_SIGNATURE, label: failed }
  - tokenMint: { token: GOLD, amount: 7, label: next }
`);
    const failed = sim.step("failed").item.record;
    expect(failed.receipt!.status).toBe(proto.ResponseCodeEnum.INVALID_SIGNATURE);
    expect(failed.tokenTransferLists).toEqual([]);
    expect(hbarList(failed)).toEqual(netSorted(feeEntries(OPERATOR, FEES.tokenMintFungible)));
    expect(toBigInt(sim.step("next").item.record.receipt!.newTotalSupply)).toBe(1_000_007n);
  });

  it("must be declared, with the status the ledger gives", () => {
    expect(() =>
      simulate(`${GOLD_SETUP}  - tokenMint: { token: GOLD, amount: 5, payer: bob, fail: TOKEN_IS_PAUSED }\n`),
    ).not.toThrow();
    expect(() => simulate(`${GOLD_SETUP}  - tokenPause: { token: GOLD }\n`)).toThrow(
      /TOKEN_HAS_NO_PAUSE_KEY/,
    );
    expect(() =>
      simulate(`${GOLD_SETUP}
  - cryptoCreate: { name: frank }
  - cryptoTransfer: { payer: bob, tokens: { GOLD: { bob: -1, frank: 1 } }, fail: TOKEN_WAS_DELETED }
`),
    ).toThrow(
      /declared to fail with TOKEN_WAS_DELETED, but the ledger rejects it with TOKEN_NOT_ASSOCIATED_TO_ACCOUNT/,
    );
    expect(() =>
      simulate(`${ACCOUNTS}  - cryptoTransfer: { hbar: { alice: "-1 hbar", zed: "1 hbar" } }\n`),
    ).toThrow(ScenarioError);
  });

  it("rejects unknown keys in a step", () => {
    expect(() => simulate(`  - cryptoCreate: { name: alice, balanse: 5 }\n`)).toThrow(
      /unknown key\(s\) balanse/,
    );
  });
});

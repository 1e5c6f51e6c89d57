/**
 * The official JavaScript SDK as a real client: `@hiero-ledger/sdk` builds and freezes transactions, and its
 * `FeeEstimateQuery` POSTs them (`application/protobuf`) to a running mirrorlite serving the fee-estimates
 * scenario, in both modes. Expected totals are derived by hand from the default schedule (fees.md §4.4): with at
 * most one signature and far fewer than 1350 bytes, node + network cost 1 000 000 tinycents.
 *
 * The SDK sends a loopback mirror node to port 8084 whatever port it was given (`FeeEstimateQuery` rewrites
 * `:5551`), and any other host over https; so the client's mirror REST base URL is pointed at the test server's
 * ephemeral port on the client instance. Everything else (building, freezing, encoding, the HTTP request and
 * reading the answer) is the SDK's own.
 */
import {
  AccountAllowanceApproveTransaction,
  AccountAllowanceDeleteTransaction,
  AccountCreateTransaction,
  AccountDeleteTransaction,
  AccountId,
  AccountUpdateTransaction,
  BatchTransaction,
  Client,
  ContractCreateTransaction,
  ContractDeleteTransaction,
  ContractExecuteTransaction,
  ContractId,
  ContractUpdateTransaction,
  CustomFixedFee,
  EthereumTransaction,
  FeeEstimateMode,
  FeeEstimateQuery,
  FileAppendTransaction,
  FileCreateTransaction,
  FileDeleteTransaction,
  FileId,
  FileUpdateTransaction,
  FreezeTransaction,
  FreezeType,
  Hbar,
  HookStoreTransaction,
  NftId,
  NodeCreateTransaction,
  NodeDeleteTransaction,
  NodeUpdateTransaction,
  PendingAirdropId,
  PrivateKey,
  PrngTransaction,
  RegisteredNodeCreateTransaction,
  RegisteredNodeDeleteTransaction,
  RegisteredNodeUpdateTransaction,
  ScheduleCreateTransaction,
  ScheduleDeleteTransaction,
  ScheduleId,
  ScheduleSignTransaction,
  TokenAirdropTransaction,
  TokenAssociateTransaction,
  TokenBurnTransaction,
  TokenCancelAirdropTransaction,
  TokenClaimAirdropTransaction,
  TokenCreateTransaction,
  TokenDeleteTransaction,
  TokenDissociateTransaction,
  TokenFeeScheduleUpdateTransaction,
  TokenFreezeTransaction,
  TokenGrantKycTransaction,
  TokenId,
  TokenMintTransaction,
  TokenPauseTransaction,
  TokenRejectTransaction,
  TokenRevokeKycTransaction,
  TokenUnfreezeTransaction,
  TokenUnpauseTransaction,
  TokenUpdateNftsTransaction,
  TokenUpdateTransaction,
  TokenWipeTransaction,
  TopicCreateTransaction,
  TopicDeleteTransaction,
  TopicId,
  TopicMessageSubmitTransaction,
  TopicUpdateTransaction,
  type Transaction,
  TransferTransaction,
} from "@hiero-ledger/sdk";
import Long from "long";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";

const scenario = useScenario("fee-estimates");
const operatorKey = PrivateKey.fromStringED25519("11".repeat(32));
const keys = Array.from(
  { length: 8 },
  (_, i) => PrivateKey.fromStringED25519((i + 2).toString(16).padStart(2, "0").repeat(32)).publicKey,
);
const operator = AccountId.fromString("0.0.1001");
const alice = AccountId.fromString("0.0.1002");
const bob = AccountId.fromString("0.0.1003");
const PLAIN = TokenId.fromString("0.0.1004");
const FEEDY = TokenId.fromString("0.0.1005");
const ART = TokenId.fromString("0.0.1006");
const BASE = 1_000_000;
let client: Client;

beforeAll(() => {
  client = Client.forNetwork({ "127.0.0.1:50211": AccountId.fromString("0.0.3") });
  client.setOperator(operator, operatorKey);
  const base = `${scenario.service.baseUrl}/api/v1`;
  Object.defineProperty(client, "mirrorRestApiBaseUrl", { get: () => base });
});
afterAll(() => client?.close());

type Case = [name: string, build: () => Transaction, intrinsic: number, state?: number];

const fixedFee = () => new CustomFixedFee().setAmount(10).setFeeCollectorAccountId(operator);
const transfer = () =>
  new TransferTransaction().addHbarTransfer(operator, new Hbar(-1)).addHbarTransfer(alice, new Hbar(1));

const CASES: Case[] = [
  [
    "AccountCreateTransaction",
    () => new AccountCreateTransaction().setKeyWithoutAlias(keys[0]!),
    BASE + 499_000_000,
  ],
  [
    "AccountUpdateTransaction",
    () => new AccountUpdateTransaction().setAccountId(alice).setAccountMemo("m"),
    BASE + 1_200_000,
  ],
  [
    "AccountDeleteTransaction",
    () => new AccountDeleteTransaction().setAccountId(alice).setTransferAccountId(bob),
    BASE + 49_000_000,
  ],
  [
    "AccountAllowanceApproveTransaction",
    () =>
      new AccountAllowanceApproveTransaction()
        .approveHbarAllowance(operator, alice, new Hbar(1))
        .approveTokenAllowance(PLAIN, operator, alice, 5),
    BASE + 499_000_000 + 500_000_000,
  ],
  [
    "AccountAllowanceDeleteTransaction",
    () => new AccountAllowanceDeleteTransaction().deleteAllTokenNftAllowances(new NftId(ART, 1), operator),
    BASE + 499_000_000,
  ],
  ["TransferTransaction (hbar)", transfer, BASE],
  [
    "TransferTransaction (PLAIN)",
    () => new TransferTransaction().addTokenTransfer(PLAIN, operator, -1).addTokenTransfer(PLAIN, alice, 1),
    BASE + 1_000_000,
    BASE + 9_000_000,
  ],
  [
    "TransferTransaction (FEEDY)",
    () => new TransferTransaction().addTokenTransfer(FEEDY, operator, -1).addTokenTransfer(FEEDY, alice, 1),
    BASE + 1_000_000,
    BASE + 19_000_000,
  ],
  [
    "TransferTransaction (ART serial)",
    () => new TransferTransaction().addNftTransfer(new NftId(ART, 1), operator, alice),
    BASE,
    BASE + 19_000_000,
  ],
  [
    "TopicCreateTransaction",
    () =>
      new TopicCreateTransaction()
        .setAdminKey(keys[0]!)
        .setSubmitKey(keys[1]!)
        .setFeeScheduleKey(keys[2]!)
        .setCustomFees([fixedFee()]),
    BASE + 99_000_000 + 300_000_000 + 19_900_000_000,
  ],
  [
    "TopicUpdateTransaction",
    () =>
      new TopicUpdateTransaction()
        .setTopicId(TopicId.fromString("0.0.1009"))
        .setAdminKey(keys[0]!)
        .setFeeExemptKeys([keys[1]!, keys[2]!]),
    BASE + 1_200_000 + 200_000_000,
  ],
  [
    "TopicDeleteTransaction",
    () => new TopicDeleteTransaction().setTopicId(TopicId.fromString("0.0.1008")),
    BASE + 49_000_000,
  ],
  [
    "TopicMessageSubmitTransaction (PAID)",
    () =>
      new TopicMessageSubmitTransaction()
        .setTopicId(TopicId.fromString("0.0.1009"))
        .setMessage(new Uint8Array(128)),
    1_890_400,
    500_000_000,
  ],
  [
    "TopicMessageSubmitTransaction (NEWS)",
    () =>
      new TopicMessageSubmitTransaction()
        .setTopicId(TopicId.fromString("0.0.1008"))
        .setMessage(new Uint8Array(128)),
    1_890_400,
  ],
  [
    "FileCreateTransaction",
    () => new FileCreateTransaction().setKeys([keys[0]!]).setContents(new Uint8Array(100)),
    BASE + 499_000_000,
  ],
  [
    "FileUpdateTransaction (0.0.2001)",
    () =>
      new FileUpdateTransaction().setFileId(FileId.fromString("0.0.2001")).setContents(new Uint8Array(1200)),
    BASE + 499_000_000 + 200_000_000,
  ],
  [
    "FileUpdateTransaction (system file 0.0.113)",
    () => new FileUpdateTransaction().setFileId(FileId.fromString("0.0.113")).setContents(new Uint8Array(10)),
    BASE + 499_000_000,
    0,
  ],
  [
    "FileAppendTransaction",
    () =>
      new FileAppendTransaction().setFileId(FileId.fromString("0.0.2001")).setContents(new Uint8Array(100)),
    BASE + 499_000_000,
  ],
  [
    "FileDeleteTransaction",
    () => new FileDeleteTransaction().setFileId(FileId.fromString("0.0.2001")),
    BASE + 69_000_000,
  ],
  [
    "TokenCreateTransaction",
    () =>
      new TokenCreateTransaction()
        .setTokenName("Estimate")
        .setTokenSymbol("EST")
        .setTreasuryAccountId(operator)
        .setAdminKey(keys[0]!)
        .setKycKey(keys[1]!)
        .setFreezeKey(keys[2]!)
        .setWipeKey(keys[3]!)
        .setSupplyKey(keys[4]!)
        .setFeeScheduleKey(keys[5]!)
        .setPauseKey(keys[6]!)
        .setMetadataKey(keys[7]!)
        .setCustomFees([fixedFee()]),
    BASE + 9_999_000_000 + 700_000_000 + 10_000_000_000,
  ],
  [
    "TokenUpdateTransaction",
    () => new TokenUpdateTransaction().setTokenId(PLAIN).setTokenName("Renamed"),
    BASE + 9_000_000,
  ],
  [
    "TokenMintTransaction (NFT)",
    () =>
      new TokenMintTransaction()
        .setTokenId(ART)
        .setMetadata([new Uint8Array([1]), new Uint8Array([2]), new Uint8Array([3])]),
    BASE + 9_000_000 + 190_000_000 + 400_000_000,
  ],
  [
    "TokenMintTransaction (fungible)",
    () => new TokenMintTransaction().setTokenId(PLAIN).setAmount(100),
    BASE + 9_000_000,
  ],
  ["TokenBurnTransaction", () => new TokenBurnTransaction().setTokenId(PLAIN).setAmount(1), BASE + 9_000_000],
  [
    "TokenWipeTransaction",
    () => new TokenWipeTransaction().setTokenId(PLAIN).setAccountId(alice).setAmount(1),
    BASE + 9_000_000,
  ],
  [
    "TokenFreezeTransaction",
    () => new TokenFreezeTransaction().setTokenId(PLAIN).setAccountId(alice),
    BASE + 9_000_000,
  ],
  [
    "TokenUnfreezeTransaction",
    () => new TokenUnfreezeTransaction().setTokenId(PLAIN).setAccountId(alice),
    BASE + 9_000_000,
  ],
  [
    "TokenGrantKycTransaction",
    () => new TokenGrantKycTransaction().setTokenId(PLAIN).setAccountId(alice),
    BASE + 9_000_000,
  ],
  [
    "TokenRevokeKycTransaction",
    () => new TokenRevokeKycTransaction().setTokenId(PLAIN).setAccountId(alice),
    BASE + 9_000_000,
  ],
  ["TokenPauseTransaction", () => new TokenPauseTransaction().setTokenId(PLAIN), BASE + 9_000_000],
  ["TokenUnpauseTransaction", () => new TokenUnpauseTransaction().setTokenId(PLAIN), BASE + 9_000_000],
  ["TokenDeleteTransaction", () => new TokenDeleteTransaction().setTokenId(PLAIN), BASE + 9_000_000],
  [
    "TokenFeeScheduleUpdateTransaction",
    () => new TokenFeeScheduleUpdateTransaction().setTokenId(FEEDY).setCustomFees([fixedFee()]),
    BASE + 9_000_000,
  ],
  [
    "TokenAssociateTransaction",
    () => new TokenAssociateTransaction().setAccountId(bob).setTokenIds([PLAIN, FEEDY, ART]),
    BASE + 499_000_000 + 1_000_000_000,
  ],
  [
    "TokenDissociateTransaction",
    () => new TokenDissociateTransaction().setAccountId(bob).setTokenIds([PLAIN, FEEDY]),
    BASE + 499_000_000,
  ],
  [
    "TokenUpdateNftsTransaction",
    () =>
      new TokenUpdateNftsTransaction()
        .setTokenId(ART)
        .setSerialNumbers([Long.fromNumber(1), Long.fromNumber(2)])
        .setMetadata(new Uint8Array([9])),
    BASE + 9_000_000 + 10_000_000,
  ],
  [
    "TokenRejectTransaction",
    () => new TokenRejectTransaction().setOwnerId(alice).setTokenIds([PLAIN]),
    BASE + 9_000_000,
  ],
  [
    "TokenAirdropTransaction",
    () =>
      new TokenAirdropTransaction().addTokenTransfer(PLAIN, operator, -1).addTokenTransfer(PLAIN, alice, 1),
    BASE + 1_000_000,
    BASE + 9_000_000,
  ],
  [
    "TokenCancelAirdropTransaction",
    () =>
      new TokenCancelAirdropTransaction().addPendingAirdropId(
        new PendingAirdropId({ senderId: operator, receiverId: alice, tokenId: PLAIN }),
      ),
    BASE + 9_000_000,
  ],
  [
    "TokenClaimAirdropTransaction",
    () =>
      new TokenClaimAirdropTransaction().addPendingAirdropId(
        new PendingAirdropId({ senderId: operator, receiverId: alice, tokenId: PLAIN }),
      ),
    BASE + 9_000_000,
  ],
  [
    "ScheduleCreateTransaction",
    () => new ScheduleCreateTransaction().setScheduledTransaction(transfer()).setAdminKey(keys[0]!),
    BASE + 99_000_000,
  ],
  [
    "ScheduleSignTransaction",
    () => new ScheduleSignTransaction().setScheduleId(ScheduleId.fromString("0.0.3000")),
    BASE + 9_000_000,
  ],
  [
    "ScheduleDeleteTransaction",
    () => new ScheduleDeleteTransaction().setScheduleId(ScheduleId.fromString("0.0.3000")),
    BASE + 9_000_000,
  ],
  [
    "ContractCreateTransaction",
    () =>
      new ContractCreateTransaction()
        .setBytecodeFileId(FileId.fromString("0.0.2001"))
        .setGas(100_000)
        .setAdminKey(keys[0]!),
    BASE + 9_999_000_000,
  ],
  [
    "ContractExecuteTransaction",
    () => new ContractExecuteTransaction().setContractId(ContractId.fromString("0.0.4000")).setGas(100_000),
    0,
  ],
  [
    "ContractUpdateTransaction",
    () =>
      new ContractUpdateTransaction().setContractId(ContractId.fromString("0.0.4000")).setContractMemo("m"),
    BASE + 259_000_000,
  ],
  [
    "ContractDeleteTransaction",
    () =>
      new ContractDeleteTransaction()
        .setContractId(ContractId.fromString("0.0.4000"))
        .setTransferAccountId(alice),
    BASE + 69_000_000,
  ],
  ["EthereumTransaction", () => new EthereumTransaction().setEthereumData(new Uint8Array(200)), BASE],
  ["PrngTransaction", () => new PrngTransaction().setRange(100), BASE + 9_000_000],
  [
    "NodeCreateTransaction",
    () => new NodeCreateTransaction().setAccountId(bob).setDescription("node"),
    BASE + 9_000_000,
  ],
  [
    "NodeUpdateTransaction",
    () => new NodeUpdateTransaction().setNodeId(Long.fromNumber(1)).setDescription("node"),
    BASE + 9_000_000,
  ],
  [
    "NodeDeleteTransaction",
    () => new NodeDeleteTransaction().setNodeId(Long.fromNumber(1)),
    BASE + 9_000_000,
  ],
  [
    "RegisteredNodeCreateTransaction",
    () => new RegisteredNodeCreateTransaction().setDescription("r"),
    BASE + 9_000_000,
  ],
  [
    "RegisteredNodeUpdateTransaction",
    () => new RegisteredNodeUpdateTransaction().setRegisteredNodeId(Long.fromNumber(1)).setDescription("r"),
    BASE + 9_000_000,
  ],
  ["HookStoreTransaction", () => new HookStoreTransaction(), BASE + 49_000_000],
  [
    "RegisteredNodeDeleteTransaction",
    () => new RegisteredNodeDeleteTransaction().setRegisteredNodeId(1),
    BASE + 9_000_000,
  ],
  [
    "BatchTransaction",
    () => new BatchTransaction().addInnerTransaction(transfer().setBatchKey(keys[0]!).freezeWith(client)),
    BASE + 9_000_000,
  ],
];

async function estimate(
  transaction: Transaction,
  mode: (typeof FeeEstimateMode)[keyof typeof FeeEstimateMode],
  throttle = 0,
) {
  const query = new FeeEstimateQuery().setTransaction(transaction).setMode(mode);
  if (throttle > 0) query.setHighVolumeThrottle(throttle);
  return query.execute(client);
}

describe("FeeEstimateQuery of @hiero-ledger/sdk against mirrorlite", () => {
  for (const [name, build, intrinsic, state] of CASES) {
    it(`${name}: ${intrinsic} in INTRINSIC, ${state ?? intrinsic} in STATE`, async () => {
      const inIntrinsic = await estimate(build(), FeeEstimateMode.INTRINSIC);
      expect(Number(inIntrinsic.total)).toBe(intrinsic);
      const inState = await estimate(build(), FeeEstimateMode.STATE);
      expect(Number(inState.total)).toBe(state ?? intrinsic);
    });
  }

  it("reports the parts; the SDK re-freezes before sending, so signatures added earlier are not sent", async () => {
    const transaction = transfer().freezeWith(client);
    await transaction.sign(operatorKey);
    await transaction.sign(PrivateKey.fromStringED25519("22".repeat(32)));
    const response = await estimate(transaction, FeeEstimateMode.INTRINSIC);
    expect(Number(response.total)).toBe(1_000_000);
    expect(Number(response.nodeFee.base)).toBe(100_000);
    expect(response.nodeFee.extras).toEqual([]);
    expect(Number(response.networkFee.multiplier)).toBe(9);
    expect(Number(response.networkFee.subtotal)).toBe(900_000);
    expect(Number(response.highVolumeMultiplier)).toBe(1);
  });

  it("sends the high-volume throttle for a high-volume transaction", async () => {
    const create = () => new AccountCreateTransaction().setKeyWithoutAlias(keys[0]!).setHighVolume(true);
    const response = await estimate(create(), FeeEstimateMode.STATE, 300);
    expect(Number(response.highVolumeMultiplier)).toBe(116);
    expect(Number(response.total)).toBe(58_333_000_000);
    expect(Number((await estimate(create(), FeeEstimateMode.INTRINSIC, 300)).total)).toBe(500_000_000);
  });

  it("reports the mirror node's 400 for a transaction type without a calculator", async () => {
    const freeze = new FreezeTransaction().setFreezeType(FreezeType.FreezeAbort);
    await expect(estimate(freeze, FeeEstimateMode.INTRINSIC)).rejects.toThrow(
      /HTTP 400.*Unknown transaction type/,
    );
  });
});

/**
 * The transaction objects the public mirror node would serve for a stream, computed straight from its record
 * files with the generated protobuf decoders (not with the index's own wire reading), following the importer's
 * and `rest/transactions.js`'s rules. Tests compare every field of what mirrorlite answers with these.
 *
 * Integers are bigints (as `parseExactJson` gives them). Only the rules the fixtures exercise are restated:
 * entity ids of the types the scenarios and real files hold, hbar approvals of CryptoTransfer debits, token
 * and NFT transfers of successful (and FAIL_INVALID) records.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { entityIdOf, formatEntityId } from "../../src/ids.ts";
import { transactionTypeId, transactionTypeName } from "../../src/ingest/transaction-types.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { formatTimestamp, timestampToNs } from "../../src/time.ts";

export type OracleTransaction = {
  /** Consensus time in nanoseconds (for sorting and lookups). */
  consensusNs: bigint;
  payerId: bigint;
  validStartNs: bigint;
  /** The REST object of the list (`/transactions`). */
  listed: Record<string, unknown>;
  /** The REST object of a lookup (`/transactions/{id}`): `assessed_custom_fees` added when there are any. */
  detailed: Record<string, unknown>;
};

const SUCCESS = new Set([22, 104, 220]);
const FAIL_INVALID = proto.ResponseCodeEnum.FAIL_INVALID;
const STAKING_REWARD_ACCOUNT = 800n;

/** Every record of a record stream folder (`*.rcd`, `*.rcd.gz`), in consensus order. */
export function oracleTransactions(recordsDir: string): OracleTransaction[] {
  const files = readdirSync(recordsDir)
    .filter((name) => /\.rcd(\.gz)?$/.test(name))
    .sort();
  const out: OracleTransaction[] = [];
  for (const name of files) {
    const file = readRecordFile(name, readFileSync(join(recordsDir, name)));
    for (const item of file.items) out.push(oracleOf(item.transactionBytes, item.recordBytes));
  }
  return out.sort((a, b) => (a.consensusNs < b.consensusNs ? -1 : a.consensusNs > b.consensusNs ? 1 : 0));
}

function bodyOf(transactionBytes: Uint8Array): proto.TransactionBody {
  const transaction = proto.Transaction.decode(transactionBytes);
  if (transaction.signedTransactionBytes?.length) {
    const signed = proto.SignedTransaction.decode(transaction.signedTransactionBytes);
    return proto.TransactionBody.decode(signed.bodyBytes);
  }
  if (transaction.bodyBytes?.length) return proto.TransactionBody.decode(transaction.bodyBytes);
  return proto.TransactionBody.decode(proto.TransactionBody.encode(transaction.body ?? {}).finish());
}

const id = (value: Parameters<typeof entityIdOf>[0]) => {
  const packed = entityIdOf(value);
  return packed === null || packed === 0n ? null : packed;
};

function entityOf(type: string | undefined, body: proto.TransactionBody, record: proto.TransactionRecord) {
  const receipt = record.receipt ?? {};
  switch (type) {
    case "cryptoCreateAccount":
      return id(receipt.accountID);
    case "cryptoUpdateAccount":
      return id(body.cryptoUpdateAccount?.accountIDToUpdate);
    case "cryptoDelete":
      return id(body.cryptoDelete?.deleteAccountID);
    case "tokenCreation":
      return id(receipt.tokenID);
    case "tokenAssociate":
      return id(body.tokenAssociate?.account);
    case "tokenDissociate":
      return id(body.tokenDissociate?.account);
    case "tokenFreeze":
      return id(body.tokenFreeze?.account);
    case "tokenUnfreeze":
      return id(body.tokenUnfreeze?.account);
    case "tokenGrantKyc":
      return id(body.tokenGrantKyc?.account);
    case "tokenRevokeKyc":
      return id(body.tokenRevokeKyc?.account);
    case "tokenMint":
      return id(body.tokenMint?.token);
    case "tokenBurn":
      return id(body.tokenBurn?.token);
    case "tokenWipe":
      return id(body.tokenWipe?.token);
    case "tokenUpdate":
      return id(body.tokenUpdate?.token);
    case "tokenDeletion":
      return id(body.tokenDeletion?.token);
    case "tokenPause":
      return id(body.tokenPause?.token);
    case "tokenUnpause":
      return id(body.tokenUnpause?.token);
    case "tokenFeeScheduleUpdate":
      return id(body.tokenFeeScheduleUpdate?.tokenId);
    case "tokenUpdateNfts":
      return id(body.tokenUpdateNfts?.token);
    case "consensusCreateTopic":
      return id(receipt.topicID);
    case "consensusUpdateTopic":
      return id(body.consensusUpdateTopic?.topicID);
    case "consensusDeleteTopic":
      return id(body.consensusDeleteTopic?.topicID);
    case "consensusSubmitMessage":
      return id(body.consensusSubmitMessage?.topicID);
    case "scheduleCreate":
      return id(receipt.scheduleID);
    case "scheduleSign":
      return id(body.scheduleSign?.scheduleID);
    case "fileCreate":
      return id(receipt.fileID);
    case "fileUpdate":
      return id(body.fileUpdate?.fileID);
    case "fileAppend":
      return id(body.fileAppend?.fileID);
    case "contractCall":
      return id(receipt.contractID) ?? id(body.contractCall?.contractID);
    case "contractCreateInstance":
      return id(receipt.contractID);
    case "nodeCreate":
      return id(body.nodeCreate?.accountId);
    case "nodeUpdate":
      return id(body.nodeUpdate?.accountId);
    default:
      return null;
  }
}

function oracleOf(transactionBytes: Uint8Array, recordBytes: Uint8Array): OracleTransaction {
  const record = proto.TransactionRecord.decode(recordBytes);
  const body = bodyOf(transactionBytes);
  const type = body.data;
  const status = record.receipt?.status ?? 0;
  const successful = SUCCESS.has(status);
  const keepsTokenEffects = successful || status === FAIL_INVALID;
  const txId = body.transactionID ?? record.transactionID;
  const payerId = entityIdOf(txId?.accountID) ?? 0n;
  const validStartNs = timestampToNs(txId?.transactionValidStart);
  const consensusNs = timestampToNs(record.consensusTimestamp);
  const bodyHbar = body.cryptoTransfer?.transfers?.accountAmounts ?? [];

  const transfers = (record.transferList?.accountAmounts ?? [])
    .map((aa) => {
      const account = entityIdOf(aa.accountID) ?? 0n;
      const amount = toBigInt(aa.amount);
      const match =
        amount < 0n
          ? bodyHbar.find((b) => entityIdOf(b.accountID) === account && toBigInt(b.amount) === amount)
          : undefined;
      return { account, amount, is_approval: match?.isApproval === true };
    })
    .sort((a, b) =>
      a.account !== b.account
        ? a.account < b.account
          ? -1
          : 1
        : a.amount < b.amount
          ? -1
          : a.amount > b.amount
            ? 1
            : 0,
    );

  const tokenTransfers: { token: bigint; account: bigint; amount: bigint; approval: boolean }[] = [];
  const nftTransfers: Record<string, unknown>[] = [];
  if (keepsTokenEffects) {
    for (const list of record.tokenTransferLists ?? []) {
      const token = entityIdOf(list.token);
      if (token === null) continue;
      const bodyLists = (body.cryptoTransfer?.tokenTransfers ?? []).filter(
        (l) => entityIdOf(l.token) === token,
      );
      for (const aa of list.transfers ?? []) {
        const account = entityIdOf(aa.accountID);
        if (account === null) continue;
        const amount = toBigInt(aa.amount);
        let approval = false;
        if (amount < 0n) {
          const entries = bodyLists.flatMap((l) => l.transfers ?? []);
          const equal = entries.find(
            (b) =>
              entityIdOf(b.accountID) === account &&
              toBigInt(b.amount) === amount &&
              (b.isApproval === true) === (aa.isApproval === true),
          );
          approval =
            equal !== undefined
              ? aa.isApproval === true
              : entries.some((b) => entityIdOf(b.accountID) === account && b.isApproval === true);
        }
        tokenTransfers.push({ token, account, amount, approval });
      }
      for (const nft of list.nftTransfers ?? []) {
        const sender = id(nft.senderAccountID);
        const receiver = id(nft.receiverAccountID);
        const serial = toBigInt(nft.serialNumber);
        const match = bodyLists
          .flatMap((l) => l.nftTransfers ?? [])
          .find(
            (b) =>
              toBigInt(b.serialNumber) === serial &&
              id(b.senderAccountID) === sender &&
              id(b.receiverAccountID) === receiver,
          );
        nftTransfers.push({
          is_approval: match?.isApproval === true,
          receiver_account_id: formatEntityId(receiver),
          sender_account_id: formatEntityId(sender),
          serial_number: serial,
          token_id: formatEntityId(token),
        });
      }
    }
  }
  tokenTransfers.sort((a, b) =>
    a.token !== b.token
      ? a.token < b.token
        ? -1
        : 1
      : a.account < b.account
        ? -1
        : a.account > b.account
          ? 1
          : 0,
  );

  const rewardAccount = transfers.some((t) => t.account === STAKING_REWARD_ACCOUNT);
  const listed: Record<string, unknown> = {
    batch_key: body.batchKey ? keyObject(body.batchKey) : null,
    bytes: null,
    charged_tx_fee: BigInt.asIntN(64, toBigInt(record.transactionFee)),
    consensus_timestamp: formatTimestamp(consensusNs),
    entity_id: formatEntityId(entityOf(type, body, record)),
    high_volume: body.highVolume === true,
    high_volume_pricing_multiplier: toBigInt(record.highVolumePricingMultiplier),
    max_custom_fees: (body.maxCustomFees ?? []).flatMap((limit) =>
      (limit.fees ?? []).map((fee) => ({
        account_id:
          limit.accountId?.accountNum == null ? null : `0.0.${toBigInt(limit.accountId.accountNum)}`,
        amount: toBigInt(fee.amount),
        denominating_token_id: formatEntityId(entityIdOf(fee.denominatingTokenId)),
      })),
    ),
    max_fee: BigInt.asIntN(64, toBigInt(body.transactionFee)).toString(),
    memo_base64: Buffer.from(body.memo ?? "", "utf8").toString("base64"),
    name: transactionTypeName(transactionTypeId(type)),
    nft_transfers: nftTransfers,
    node: formatEntityId(entityIdOf(body.nodeAccountID)),
    nonce: BigInt(txId?.nonce ?? 0),
    parent_consensus_timestamp:
      record.parentConsensusTimestamp == null
        ? null
        : formatTimestamp(timestampToNs(record.parentConsensusTimestamp)),
    result: proto.ResponseCodeEnum[status] ?? "UNKNOWN",
    scheduled: record.scheduleRef != null,
    staking_reward_transfers: rewardAccount
      ? (record.paidStakingRewards ?? []).map((aa) => ({
          account: formatEntityId(entityIdOf(aa.accountID)),
          amount: toBigInt(aa.amount),
        }))
      : [],
    token_transfers: tokenTransfers.map((t) => ({
      token_id: formatEntityId(t.token),
      account: formatEntityId(t.account),
      amount: t.amount,
      is_approval: t.approval,
    })),
    transaction_hash: Buffer.from(record.transactionHash ?? new Uint8Array()).toString("base64"),
    transaction_id: `${formatEntityId(payerId)}-${validStartNs / 1_000_000_000n}-${(
      validStartNs % 1_000_000_000n
    )
      .toString()
      .padStart(9, "0")}`,
    transfers: transfers.map((t) => ({
      account: formatEntityId(t.account),
      amount: t.amount,
      is_approval: t.is_approval,
    })),
    valid_duration_seconds:
      body.transactionValidDuration == null
        ? null
        : toBigInt(body.transactionValidDuration.seconds).toString(),
    valid_start_timestamp: formatTimestamp(validStartNs),
  };
  const assessed = keepsTokenEffects ? (record.assessedCustomFees ?? []) : [];
  const detailed =
    assessed.length === 0
      ? listed
      : {
          assessed_custom_fees: assessed
            .map((fee) => ({
              amount: toBigInt(fee.amount),
              collector: entityIdOf(fee.feeCollectorAccountId) ?? 0n,
              token: entityIdOf(fee.tokenId),
              payers: (fee.effectivePayerAccountId ?? []).map((p) => formatEntityId(entityIdOf(p))),
            }))
            .sort((a, b) =>
              a.collector !== b.collector
                ? a.collector < b.collector
                  ? -1
                  : 1
                : a.amount < b.amount
                  ? -1
                  : a.amount > b.amount
                    ? 1
                    : 0,
            )
            .map((fee) => ({
              amount: fee.amount,
              collector_account_id: formatEntityId(fee.collector),
              effective_payer_account_ids: fee.payers,
              token_id: formatEntityId(fee.token),
            })),
          ...listed,
        };
  return { consensusNs, payerId, validStartNs, listed, detailed };
}

/**
 * A key as upstream's `encodeKey` prints it, worked out from the decoded key rather than its hex: one primitive
 * ED25519 or secp256k1 key (alone, in a one-element key list or in a 1-of-1 threshold key) shows the raw
 * public key, the empty key list null, anything else the full protobuf hex.
 */
function keyObject(key: proto.IKey): { _type: string; key: string } | null {
  const hex = Buffer.from(proto.Key.encode(key).finish()).toString("hex");
  if (key.keyList != null && (key.keyList.keys ?? []).length === 0) return null;
  let inner: proto.IKey = key;
  const listed = key.keyList?.keys ?? key.thresholdKey?.keys?.keys;
  const wrapped = key.keyList != null || (key.thresholdKey != null && key.thresholdKey.threshold === 1);
  if (wrapped && listed?.length === 1) inner = listed[0]!;
  if (inner.ed25519?.length === 32)
    return { _type: "ED25519", key: Buffer.from(inner.ed25519).toString("hex") };
  if (inner.ECDSASecp256k1?.length === 33)
    return { _type: "ECDSA_SECP256K1", key: Buffer.from(inner.ECDSASecp256k1).toString("hex") };
  return { _type: "ProtobufEncoded", key: hex };
}

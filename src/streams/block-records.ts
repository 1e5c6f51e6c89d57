/**
 * Turns a block's transactions into the `TransactionRecord`s their record stream items would have held, as the
 * mirror node importer's block transformers derive them (`BlockFileTransformer`,
 * `AbstractBlockTransactionTransformer` and one transformer per transaction type): the result gives status,
 * fee, transfer lists, token transfers, automatic associations, assessed custom fees and paid staking rewards;
 * the body gives the transaction id and memo; outputs and state changes give new entity ids, total supplies,
 * serial numbers, topic running hashes, schedule ids, pending airdrops and prng values.
 *
 * Transactions are transformed newest first, as the importer does: state changes hold what a whole transaction
 * (with its children) left behind, so walking back from the end gives each earlier transaction its own value
 * (the supply before a later mint, the next-highest new topic id).
 */
import { hash } from "node:crypto";
import Long from "long";
import protobuf from "protobufjs/minimal.js";
import { CorruptFileError } from "../errors.ts";
import { evmSidecarRecords, resolveContractId, transformContractResult } from "./block-contract-results.ts";
import type { BlockFile, BlockTransaction } from "./block-file.ts";
import { signedTransactionField } from "./block-file.ts";
import { OUTPUT, RESULT, TRACE } from "./block-items.ts";
import { deserializeRecords, serializeRecords } from "./block-record-bytes.ts";
import { StateChangeContext, type TopicMessageState } from "./block-state-changes.ts";
import { toBigInt, toLong } from "./long.ts";
import { proto } from "./proto.ts";
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from "./protobuf-wire.ts";
import { lastField } from "./transaction-body-bytes.ts";

/** One transaction of a block as the record path would have seen it. */
export type BlockRecord = {
  /** The `TransactionBody` bytes of the signed transaction. */
  bodyBytes: Uint8Array;
  /** The body's `data` member (`"tokenMint"`…), read off the wire. */
  bodyCase: string | undefined;
  /** The decoded body, when the transformer needed it (most bodies are never decoded). */
  body?: proto.TransactionBody;
  record: proto.TransactionRecord;
  /** The `ethereum_nonce` of the updated account, for a CryptoUpdate that set a delegation address. */
  accountEthereumNonce?: bigint;
  /** The sidecar records a record file would carry for it, rebuilt from its EVM trace data. */
  sidecars?: proto.ITransactionSidecarRecord[];
};

/** A length-delimited field of a `TransactionRecord` (its number and content), as it stands in the block. */
export type RawField = { field: number; bytes: Uint8Array };

/**
 * A record as the transformers leave it: `record` holds what they derived, `rawFields` the record's fields that
 * the block's items hold as they are (the transaction id, the result's timestamps, transfer lists, token
 * transfers, associations, custom fees, staking rewards). Serializing `record` and then `rawFields` gives the
 * bytes of the whole record (streams/prepared-block.ts): what the block holds is copied, never decoded and
 * encoded again.
 */
export type BlockRecordParts = BlockRecord & { rawFields: RawField[] };

/** `TransactionRecord` fields taken as they stand. */
const RECORD = {
  consensusTimestamp: 3,
  transactionId: 4,
  transferList: 10,
  tokenTransferLists: 11,
  scheduleRef: 12,
  assessedCustomFees: 13,
  automaticTokenAssociations: 14,
  parentConsensusTimestamp: 15,
  paidStakingRewards: 18,
} as const;

const SUCCESS = new Set<number>([
  proto.ResponseCodeEnum.SUCCESS,
  proto.ResponseCodeEnum.FEE_SCHEDULE_FILE_PART_UPLOADED,
  proto.ResponseCodeEnum.SUCCESS_BUT_MISSING_EXPECTED_OPERATION,
]);
/** `Utility.DEFAULT_RUNNING_HASH_VERSION` of the importer: topic running hash version 3 (a Long is immutable). */
const TOPIC_RUNNING_HASH_VERSION = Long.fromNumber(3, true);
const EVM_ADDRESS_LENGTH = 20;

type Linked = {
  tx: BlockTransaction;
  parent: Linked | null;
  successful: boolean;
  context: StateChangeContext | null;
  bodyBytes: Uint8Array;
  bodyCase: string | undefined;
  /** Decoded when a transformer first reads it. */
  body: proto.TransactionBody | undefined;
};

/**
 * The records of `block`'s transactions, in block order, whole and decoded (what `blockRecordParts` gives, put
 * together). Throws `CorruptFileError` on undecodable content.
 */
export function blockRecords(block: BlockFile): BlockRecord[] {
  return deserializeRecords(block.name, serializeRecords(blockRecordParts(block)));
}

/** The records of `block`'s transactions as the transformers leave them, in block order (see `BlockRecordParts`). */
export function blockRecordParts(block: BlockFile): BlockRecordParts[] {
  const linked: Linked[] = [];
  let previous: Linked | null = null;
  for (const tx of block.transactions) {
    const parent = parentOf(tx, previous);
    const current: Linked = {
      tx,
      parent,
      successful: (parent === null || parent.successful) && SUCCESS.has(tx.status),
      context: null,
      bodyBytes: tx.bodyBytes,
      bodyCase: tx.bodyCase,
      body: undefined,
    };
    linked.push(current);
    previous = current;
  }
  const records = new Array<BlockRecordParts>(linked.length);
  for (let index = linked.length - 1; index >= 0; index--) {
    records[index] = transform(block.name, linked[index]!);
  }
  addCreatedContracts(linked, records);
  return records;
}

/**
 * A record's `createdContractIDs`, which EVM results in blocks do not carry: the contract a top-level creation made,
 * then each contract a child ContractCreate of the transaction made (as record files list them).
 */
function addCreatedContracts(linked: readonly Linked[], records: readonly BlockRecordParts[]): void {
  const indexOf = new Map(linked.map((item, index) => [item, index]));
  const resultOf = (record: proto.TransactionRecord) =>
    record.contractCallResult ?? record.contractCreateResult;
  records.forEach((parts, index) => {
    const created = parts.record.contractCreateResult;
    const own = parts.record.receipt?.contractID;
    const parent = linked[index]!.parent;
    // A top-level creation lists the contract it made (a child creation's record lists none).
    if (parent === null && created != null && own != null && (created.createdContractIDs ?? []).length === 0)
      created.createdContractIDs = [own];
    if (parent === null || parts.bodyCase !== "contractCreateInstance" || own == null) return;
    const parentRecord = records[indexOf.get(parent)!]!.record;
    const result = resultOf(parentRecord);
    if (result != null) result.createdContractIDs = [...(result.createdContractIDs ?? []), own];
  });
}

/** The importer's `BlockTransaction.parseParent`: the previous transaction, its parent, or its grandparent. */
function parentOf(tx: BlockTransaction, previous: Linked | null): Linked | null {
  const parentNs = tx.parentConsensusNs;
  if (parentNs === null || previous === null) return null;
  if (parentNs === previous.tx.consensusNs) return previous;
  const up = previous.parent;
  if (up !== null && parentNs === up.tx.consensusNs) return up;
  if (up !== null && up.tx.parentConsensusNs !== null && parentNs === up.tx.parentConsensusNs)
    return up.parent;
  return null;
}

function contextOf(name: string, item: Linked): StateChangeContext {
  if (item.parent !== null) return contextOf(name, item.parent);
  item.context ??= new StateChangeContext(name, item.tx.stateChanges);
  return item.context;
}

function undecodable(name: string, tx: BlockTransaction, cause: unknown): CorruptFileError {
  return new CorruptFileError(
    name,
    `transaction at ${tx.consensusNs} does not decode: ${(cause as Error).message}`,
    { cause },
  );
}

/** The transaction's body, decoded the first time a transformer reads it. */
function bodyOf(name: string, item: Linked): proto.TransactionBody {
  if (item.body === undefined) {
    try {
      item.body = proto.TransactionBody.decode(item.bodyBytes);
    } catch (cause) {
      throw undecodable(name, item.tx, cause);
    }
  }
  return item.body;
}

function transform(name: string, item: Linked): BlockRecordParts {
  const out = transformRecord(name, item);
  if (item.body !== undefined) out.body = item.body;
  return out;
}

/** `TransactionBody` fields 1 transactionID and 6 memo. */
const BODY_TRANSACTION_ID = 1;
const BODY_MEMO = 6;

/**
 * The transaction id (as the body holds it) and memo of a body, without decoding the rest of it. The memo is read
 * with protobufjs's own reader, so that it comes out exactly as a full decode would give it.
 */
function readBodyHead(
  name: string,
  item: Linked,
): { transactionId: proto.ITransactionID | Uint8Array | null | undefined; memo: string } {
  if (item.body !== undefined) return { transactionId: item.body.transactionID, memo: item.body.memo };
  const bytes = item.bodyBytes;
  const head: { transactionId: Uint8Array | null; memo: string } = { transactionId: null, memo: "" };
  try {
    const reader = protobuf.Reader.create(bytes);
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag === ((BODY_TRANSACTION_ID << 3) | WIRE_LENGTH_DELIMITED)) {
        const length = reader.uint32();
        // A view, not a copy (`reader.bytes()` would copy); like a decode, the last occurrence wins.
        head.transactionId = bytes.subarray(reader.pos, reader.pos + length);
        reader.skip(length);
      } else if (tag === ((BODY_MEMO << 3) | WIRE_LENGTH_DELIMITED)) head.memo = reader.string();
      else reader.skipType(tag & 7);
    }
  } catch (cause) {
    throw undecodable(name, item.tx, cause);
  }
  return head;
}

/** `TransactionBody.consensusSubmitMessage` and its `topicID`. */
const BODY_SUBMIT_MESSAGE = 27;
const SUBMIT_MESSAGE_TOPIC = 1;

/**
 * The topic a consensus message goes to, read off the wire: the message's body is otherwise never decoded (it
 * is most of the ledger, and the message bytes are not indexed).
 */
function submittedTopicId(name: string, item: Linked): proto.ITopicID | null {
  if (item.body !== undefined) return item.body.consensusSubmitMessage?.topicID ?? null;
  try {
    const submit = lastField(item.bodyBytes, BODY_SUBMIT_MESSAGE, "TransactionBody");
    const topic = submit === null ? null : lastField(submit, SUBMIT_MESSAGE_TOPIC, "ConsensusSubmitMessage");
    return topic === null ? null : proto.TopicID.decode(topic);
  } catch (cause) {
    throw undecodable(name, item.tx, cause);
  }
}

function transformRecord(name: string, item: Linked): BlockRecordParts {
  const { tx } = item;
  const head = readBodyHead(name, item);
  const result = readResult(name, tx.resultBytes);
  const receipt = proto.TransactionReceipt.create({ status: tx.status });
  const record = proto.TransactionRecord.create({
    receipt,
    transactionFee: result.transactionFee,
    transactionHash: transactionHash(tx.signedTransactionBytes),
  });
  const rawFields = result.rawFields;
  if (head.transactionId instanceof Uint8Array)
    rawFields.push({ field: RECORD.transactionId, bytes: head.transactionId });
  else if (head.transactionId != null) record.transactionID = proto.TransactionID.create(head.transactionId);
  if (head.memo.length > 0) record.memo = head.memo;
  const outputs = tx.outputs.map((bytes) => outputOf(name, bytes));
  const output = (kind: number) => outputs.find((o) => o.kind === kind)?.bytes;
  const out: BlockRecordParts = { bodyBytes: item.bodyBytes, bodyCase: item.bodyCase, record, rawFields };
  const body = () => bodyOf(name, item);
  const context = () => contextOf(name, item);
  transformContractResult(name, record, outputs, tx.traces, context);
  if (tx.traces.length > 0) {
    const seconds = tx.consensusNs / 1_000_000_000n;
    const at = { seconds: toLong(seconds), nanos: Number(tx.consensusNs - seconds * 1_000_000_000n) };
    const sidecars = evmSidecarRecords(name, at, tx.traces, context);
    if (sidecars.length > 0) out.sidecars = sidecars;
  }
  const missing = (what: string): never => {
    throw new CorruptFileError(name, `${item.bodyCase} at ${tx.consensusNs}: ${what} not found in the block`);
  };
  if (item.bodyCase === "scheduleCreate") {
    if (!item.successful && tx.status !== proto.ResponseCodeEnum.IDENTICAL_SCHEDULE_ALREADY_CREATED)
      return out;
    const bytes = output(OUTPUT.createSchedule) ?? missing("the create_schedule output");
    const created = decodeFields(name, bytes);
    const scheduleId = created.get(1);
    if (scheduleId !== undefined) receipt.scheduleID = proto.ScheduleID.decode(scheduleId);
    const scheduled = created.get(2);
    if (scheduled !== undefined) receipt.scheduledTransactionID = proto.TransactionID.decode(scheduled);
    return out;
  }
  if (!item.successful) return out;
  switch (item.bodyCase) {
    case "cryptoCreateAccount": {
      const alias = body().cryptoCreateAccount?.alias;
      if (alias !== undefined && alias !== null && alias.length === EVM_ADDRESS_LENGTH)
        record.evmAddress = alias;
      const bytes = output(OUTPUT.accountCreate) ?? missing("the account_create output");
      const created = decodeFields(name, bytes).get(1);
      if (created !== undefined) receipt.accountID = proto.AccountID.decode(created);
      break;
    }
    case "cryptoUpdateAccount": {
      const update = body().cryptoUpdateAccount;
      const target = update?.accountIDToUpdate;
      let resolved: proto.IAccountID | undefined;
      if (target?.accountNum != null) resolved = target;
      else if (target?.alias != null && target.alias.length > 0)
        resolved = context().accountIdByAlias(target.alias);
      if (resolved !== undefined) receipt.accountID = proto.AccountID.create(resolved);
      const delegation = (update as { delegationAddress?: Uint8Array } | null | undefined)?.delegationAddress;
      if (delegation !== undefined && delegation.length > 0 && resolved !== undefined) {
        const account = context().account(resolved);
        if (account !== undefined) out.accountEthereumNonce = toBigInt(account.ethereumNonce);
      }
      break;
    }
    case "tokenCreation": {
      receipt.newTotalSupply = toUnsignedLong(toBigInt(body().tokenCreation?.initialSupply));
      receipt.tokenID = context().newTokenId() ?? missing("the new token in state changes");
      break;
    }
    case "tokenMint": {
      const serials: bigint[] = [];
      for (const list of result.tokenTransferLists()) {
        for (const nft of list.nftTransfers ?? []) serials.push(toBigInt(nft.serialNumber));
      }
      serials.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      receipt.serialNumbers = serials.map((s) => toLong(s));
      const mint = body().tokenMint;
      const amount = toBigInt(mint?.amount) + BigInt(mint?.metadata?.length ?? 0);
      setSupply(receipt, context(), mint?.token, -amount, missing);
      break;
    }
    case "tokenBurn": {
      const burn = body().tokenBurn;
      setSupply(
        receipt,
        context(),
        burn?.token,
        toBigInt(burn?.amount) + BigInt(burn?.serialNumbers?.length ?? 0),
        missing,
      );
      break;
    }
    case "tokenWipe": {
      const wipe = body().tokenWipe;
      setSupply(
        receipt,
        context(),
        wipe?.token,
        toBigInt(wipe?.amount) + BigInt(wipe?.serialNumbers?.length ?? 0),
        missing,
      );
      break;
    }
    case "consensusCreateTopic":
      receipt.topicID = context().newTopicId() ?? missing("the new topic in state changes");
      break;
    case "consensusSubmitMessage": {
      receipt.topicRunningHashVersion = TOPIC_RUNNING_HASH_VERSION;
      let message: TopicMessageState | undefined = submitMessageTrace(name, tx.traces);
      if (message === undefined) {
        const topicId = submittedTopicId(name, item);
        if (topicId !== null) message = context().topicMessage(topicId);
      }
      if (message !== undefined) {
        receipt.topicRunningHash = message.runningHash;
        receipt.topicSequenceNumber = Long.fromValue(message.sequenceNumber);
      }
      break;
    }
    case "contractUpdateInstance":
    case "contractDeleteInstance": {
      const target = (body().contractUpdateInstance ?? body().contractDeleteInstance)?.contractID;
      if (target == null) break;
      const contractId = resolveContractId(target, context) ?? missing("the contract of the EVM address");
      receipt.contractID = proto.ContractID.create(contractId);
      break;
    }
    case "fileCreate":
      receipt.fileID = context().newFileId() ?? missing("the new file in state changes");
      break;
    case "nodeCreate": {
      const nodeId = context().newNodeId() ?? missing("the new node in state changes");
      receipt.nodeId = toLong(nodeId, true);
      break;
    }
    case "scheduleSign": {
      const bytes = output(OUTPUT.signSchedule);
      const scheduled = bytes === undefined ? undefined : decodeFields(name, bytes).get(1);
      if (scheduled !== undefined) receipt.scheduledTransactionID = proto.TransactionID.decode(scheduled);
      break;
    }
    case "tokenAirdrop":
      record.newPendingAirdrops = pendingAirdrops(
        body().tokenAirdrop,
        result.tokenTransferLists(),
        context(),
      );
      break;
    case "utilPrng": {
      const bytes = output(OUTPUT.utilPrng) ?? missing("the util_prng output");
      const reader = new WireReader(name, bytes, "UtilPrngOutput");
      while (reader.pos < bytes.length) {
        const tag = reader.tag(bytes.length);
        if (tag >>> 3 === 1 && (tag & 7) === WIRE_LENGTH_DELIMITED)
          record.prngBytes = reader.lengthDelimited(bytes.length);
        else if (tag >>> 3 === 2 && (tag & 7) === WIRE_VARINT) record.prngNumber = reader.int32(bytes.length);
        else reader.skip(tag & 7, bytes.length);
      }
      break;
    }
    default:
  }
  return out;
}

function setSupply(
  receipt: proto.TransactionReceipt,
  context: StateChangeContext,
  tokenId: proto.ITokenID | null | undefined,
  change: bigint,
  missing: (what: string) => never,
): void {
  const supply = tokenId == null ? undefined : context.trackTokenSupply(tokenId, change);
  receipt.newTotalSupply = toUnsignedLong(supply ?? missing("the token's supply in state changes"));
}

/**
 * Pending airdrops as the importer's `TokenAirdropTransformer` finds them: every credit in the body that the
 * result did not pay is pending; a fungible one's amount is what state holds for it.
 */
function pendingAirdrops(
  airdrop: proto.ITokenAirdropTransactionBody | null | undefined,
  resultTransfers: readonly proto.ITokenTransferList[],
  context: StateChangeContext,
): proto.PendingAirdropRecord[] {
  const credited = new Set<string>();
  for (const list of resultTransfers) {
    const token = idString(list.token);
    for (const aa of list.transfers ?? [])
      if (toBigInt(aa.amount) > 0n) credited.add(`${idString(aa.accountID)}/${token}`);
    for (const nft of list.nftTransfers ?? []) credited.add(`${idString(nft.receiverAccountID)}/${token}`);
  }
  const records: proto.PendingAirdropRecord[] = [];
  for (const list of airdrop?.tokenTransfers ?? []) {
    const token = idString(list.token);
    let sender: proto.IAccountID | null = null;
    const credits: proto.IAccountAmount[] = [];
    for (const aa of list.transfers ?? []) {
      if (toBigInt(aa.amount) < 0n) sender = aa.accountID ?? null;
      else if (!credited.has(`${idString(aa.accountID)}/${token}`)) credits.push(aa);
    }
    for (const aa of credits) {
      const id = proto.PendingAirdropId.create({
        receiverId: aa.accountID,
        senderId: sender,
        fungibleTokenType: list.token,
      });
      const amount = toBigInt(aa.amount);
      const inState = context.trackPendingFungibleAirdrop(id, amount);
      records.push(
        proto.PendingAirdropRecord.create({
          pendingAirdropId: id,
          pendingAirdropValue: { amount: toUnsignedLong(inState ?? amount) },
        }),
      );
    }
    for (const nft of list.nftTransfers ?? []) {
      if (credited.has(`${idString(nft.receiverAccountID)}/${token}`)) continue;
      const id = proto.PendingAirdropId.create({
        senderId: nft.senderAccountID,
        receiverId: nft.receiverAccountID,
        nonFungibleToken: { token_ID: list.token, serialNumber: nft.serialNumber },
      });
      records.push(proto.PendingAirdropRecord.create({ pendingAirdropId: id }));
    }
  }
  return records;
}

function idString(id: object | null | undefined): string {
  return id == null
    ? ""
    : Buffer.from(proto.AccountID.encode(id as proto.IAccountID).finish()).toString("hex");
}

type Result = {
  transactionFee: Long;
  /** The record's fields the result holds as they are, in the result's order. */
  rawFields: RawField[];
  /** The token transfer lists, decoded (when a transformer reads them). */
  tokenTransferLists: () => proto.TokenTransferList[];
};

/** `TransactionResult` fields that are `TransactionRecord` fields as they stand, by result field number. */
const RESULT_TO_RECORD = new Map<number, number>([
  [RESULT.consensusTimestamp, RECORD.consensusTimestamp],
  [RESULT.parentConsensusTimestamp, RECORD.parentConsensusTimestamp],
  [RESULT.scheduleRef, RECORD.scheduleRef],
  [RESULT.transferList, RECORD.transferList],
  [RESULT.tokenTransferLists, RECORD.tokenTransferLists],
  [RESULT.automaticTokenAssociations, RECORD.automaticTokenAssociations],
  [RESULT.paidStakingRewards, RECORD.paidStakingRewards],
  [RESULT.assessedCustomFees, RECORD.assessedCustomFees],
]);
/** A singular message field that occurs twice: like a decode, the record keeps the last. */
const SINGULAR = new Set<number>([
  RECORD.consensusTimestamp,
  RECORD.parentConsensusTimestamp,
  RECORD.scheduleRef,
  RECORD.transferList,
]);
/** The importer always sets a transfer list, empty when the result has none. */
const EMPTY_TRANSFER_LIST: RawField = { field: RECORD.transferList, bytes: new Uint8Array() };

function readResult(name: string, bytes: Uint8Array): Result {
  const reader = new WireReader(name, bytes, "TransactionResult");
  let transactionFee = Long.UZERO;
  const rawFields: RawField[] = [];
  let transferList = false;
  const tokenTransfers: Uint8Array[] = [];
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if (field === RESULT.transactionFeeCharged && (tag & 7) === WIRE_VARINT) {
      transactionFee = toUnsignedLong(BigInt.asUintN(64, reader.int64(bytes.length)));
      continue;
    }
    const recordField = RESULT_TO_RECORD.get(field);
    if (recordField === undefined || (tag & 7) !== WIRE_LENGTH_DELIMITED) {
      reader.skip(tag & 7, bytes.length);
      continue;
    }
    const value = reader.lengthDelimited(bytes.length);
    if (SINGULAR.has(recordField)) {
      const earlier = rawFields.findIndex((raw) => raw.field === recordField);
      if (earlier >= 0) rawFields.splice(earlier, 1);
    }
    rawFields.push({ field: recordField, bytes: value });
    if (recordField === RECORD.transferList) transferList = true;
    if (recordField === RECORD.tokenTransferLists) tokenTransfers.push(value);
  }
  if (!transferList) rawFields.push(EMPTY_TRANSFER_LIST);
  let decoded: proto.TokenTransferList[] | undefined;
  const tokenTransferLists = () => {
    decoded ??= tokenTransfers.map((list) => {
      try {
        return proto.TokenTransferList.decode(list);
      } catch (cause) {
        throw new CorruptFileError(
          name,
          `a transaction result does not decode: ${(cause as Error).message}`,
          {
            cause,
          },
        );
      }
    });
    return decoded;
  };
  return { transactionFee, rawFields, tokenTransferLists };
}

function outputOf(name: string, bytes: Uint8Array): { kind: number; bytes: Uint8Array } {
  const reader = new WireReader(name, bytes, "TransactionOutput");
  let kind = 0;
  let value: Uint8Array = new Uint8Array();
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if ((tag & 7) === WIRE_LENGTH_DELIMITED) {
      kind = tag >>> 3;
      value = reader.lengthDelimited(bytes.length);
    } else reader.skip(tag & 7, bytes.length);
  }
  return { kind, bytes: value };
}

/** The length-delimited fields of a small message, by number. */
function decodeFields(name: string, bytes: Uint8Array): Map<number, Uint8Array> {
  const reader = new WireReader(name, bytes, "output");
  const fields = new Map<number, Uint8Array>();
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if ((tag & 7) === WIRE_LENGTH_DELIMITED) fields.set(tag >>> 3, reader.lengthDelimited(bytes.length));
    else reader.skip(tag & 7, bytes.length);
  }
  return fields;
}

/** The submit-message trace data's sequence number and running hash, when the block carries one. */
function submitMessageTrace(
  name: string,
  traces: readonly Uint8Array[],
): { sequenceNumber: Long; runningHash: Uint8Array } | undefined {
  for (const trace of traces) {
    const data = decodeFields(name, trace).get(TRACE.submitMessage);
    if (data === undefined) continue;
    const reader = new WireReader(name, data, "SubmitMessageTraceData");
    let sequenceNumber = Long.ZERO;
    let runningHash: Uint8Array = new Uint8Array();
    while (reader.pos < data.length) {
      const tag = reader.tag(data.length);
      if (tag >>> 3 === TRACE.sequenceNumber && (tag & 7) === WIRE_VARINT) {
        sequenceNumber = toLong(reader.int64(data.length));
      } else if (tag >>> 3 === TRACE.runningHash && (tag & 7) === WIRE_LENGTH_DELIMITED) {
        runningHash = reader.lengthDelimited(data.length);
      } else reader.skip(tag & 7, data.length);
    }
    return { sequenceNumber, runningHash };
  }
  return undefined;
}

/**
 * SHA-384 of the signed transaction bytes, as the importer computes a block transaction's hash; a signed
 * transaction made from a legacy body-bytes-and-signature-map `Transaction` hashes that `Transaction` instead.
 */
function transactionHash(signed: Uint8Array): Uint8Array {
  const legacy = signedTransactionFlag(signed);
  // Through a latin1 string: a Buffer made from a short string is a slice of Node's pool, while a digest
  // returned as a Buffer is an ArrayBuffer of its own, far costlier to collect (one per transaction).
  if (!legacy) return Buffer.from(hash("sha384", signed, "binary"), "latin1");
  const bodyBytes = signedTransactionField(signed, 1) ?? new Uint8Array();
  const sigMap = signedTransactionField(signed, 2);
  const transaction = proto.Transaction.encode({
    bodyBytes,
    ...(sigMap === null ? {} : { sigMap: proto.SignatureMap.decode(sigMap) }),
  }).finish();
  return hash("sha384", transaction, "buffer");
}

/** `SignedTransaction.use_serialized_tx_message_hash_algorithm` (field 3). */
function signedTransactionFlag(signed: Uint8Array): boolean {
  const reader = new WireReader("", signed, "SignedTransaction");
  let flag = false;
  while (reader.pos < signed.length) {
    const tag = reader.tag(signed.length);
    if (tag >>> 3 === 3 && (tag & 7) === WIRE_VARINT) flag = reader.uint32(signed.length) !== 0;
    else reader.skip(tag & 7, signed.length);
  }
  return flag;
}

function toUnsignedLong(value: bigint): Long {
  return toLong(value, true);
}

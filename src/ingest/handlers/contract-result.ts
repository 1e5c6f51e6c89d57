/**
 * Contract results, their logs and Ethereum transactions, as upstream's `ContractResultServiceImpl` and
 * `EthereumTransactionHandler` record them (contracts.md §3, §5.1), for every record whatever its status; and the
 * record's sidecar facts (state changes, actions, bytecode: contract-sidecar.ts). Both stream formats come here
 * with the same record (block streams' is derived from the block's outputs and traces).
 */
import { entityIdOf } from "../../ids.ts";
import type { ContractResultRow } from "../../store/contract-writes.ts";
import {
  decodeEthereumTransaction,
  type EthereumTransactionFields,
  hashWithCallData,
  twosComplement,
} from "../../streams/ethereum-transaction.ts";
import { isAllZero } from "../../streams/hex.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { RECORD_PARTS } from "../../streams/record-fields.ts";
import type { HandlerContext } from "./context.ts";
import { hapiAtLeast } from "./context.ts";
import { CONTRACT_DEFAULTS } from "./contract.ts";
import { resolveContractId } from "./contract-ids.ts";
import { applySidecarRecords, intrinsicGas, type SidecarFacts, sidecarFacts } from "./contract-sidecar.ts";
import { rememberResultPlace, takeLogIndex } from "./synthetic-logs.ts";

/** Where the item stands in its file, and the sidecar records with its consensus time. */
export type ItemPlace = {
  index: number;
  blockNumber: bigint;
  sidecars: readonly proto.ITransactionSidecarRecord[];
};

const R = proto.ResponseCodeEnum;
/** Failed Ethereum transactions without a function result that still get the default result (§3.1). */
const NO_DEFAULT_RESULT = new Set<number>([R.DUPLICATE_TRANSACTION, R.WRONG_NONCE]);
/** Statuses after which an older record's Ethereum nonce still advanced (§3.3). */
const NONCE_ADVANCES = new Set<number>([R.SUCCESS, R.CONTRACT_REVERT_EXECUTED, R.MAX_CHILD_RECORDS_EXCEEDED]);
const TINYBAR_WEIBARS = 10_000_000_000n;
const HASH_BYTES = 32;
const EMPTY = new Uint8Array(0);
const ZERO_TOPIC = Uint8Array.of(0);

export function applyContractFacts(ctx: HandlerContext, place: ItemPlace): void {
  const { item } = ctx;
  const bodyCase = item.bodyCase;
  const isCallOrCreate = bodyCase === "contractCall" || bodyCase === "contractCreateInstance";
  const isEthereum = bodyCase === "ethereumTransaction";
  const hasResultPart = (item.recordFields.parts & RECORD_PARTS.contractResult) !== 0;
  if (!isCallOrCreate && !isEthereum && !hasResultPart && place.sidecars.length === 0) return;

  const facts = sidecarFacts(place.sidecars);
  const ethereum = isEthereum ? writeEthereumTransaction(ctx) : null;
  const record = hasResultPart ? item.record : null;
  const fr = record?.contractCallResult ?? record?.contractCreateResult ?? null;
  const hasFr = fr !== null && !isDefaultResult(fr);
  const defaultEthereum = isEthereum && !hasFr && !item.successful && !NO_DEFAULT_RESULT.has(item.status);
  if (isCallOrCreate || hasFr || defaultEthereum) {
    writeResult(ctx, place, facts, hasFr ? fr : null, ethereum, defaultEthereum);
  }
  if (hasFr) applyResultEntities(ctx, fr);
  if (ethereum !== null) advanceOlderNonce(ctx, hasFr ? fr : null, ethereum);
  applySidecarRecords(ctx, place.sidecars);
}

function writeResult(
  ctx: HandlerContext,
  place: ItemPlace,
  facts: SidecarFacts,
  fr: proto.IContractFunctionResult | null,
  ethereum: StoredEthereum | null,
  defaultEthereum: boolean,
): void {
  const { item, store, hapiVersion } = ctx;
  const body = item.body;
  const call = body.contractCall;
  const create = body.contractCreateInstance;
  let contractId: bigint;
  let amount: bigint;
  let gasLimit: bigint;
  let functionParameters: Uint8Array;
  if (call != null) {
    contractId = contractOf(ctx, call.contractID);
    amount = toBigInt(call.amount);
    gasLimit = toBigInt(call.gas);
    functionParameters = call.functionParameters ?? EMPTY;
  } else if (create != null) {
    contractId = entityIdOf(item.record.receipt?.contractID) ?? 0n;
    amount = toBigInt(create.initialBalance);
    gasLimit = toBigInt(create.gas);
    functionParameters = create.constructorParameters ?? EMPTY;
  } else if (defaultEthereum) {
    contractId = 0n;
    amount = ethereum === null ? 0n : ethereum.value / TINYBAR_WEIBARS;
    gasLimit = ethereum?.gasLimit ?? 0n;
    functionParameters = ethereum?.callData ?? EMPTY;
  } else {
    contractId = fr?.contractID == null ? 0n : (resolveContractId(store, fr.contractID) ?? 0n);
    // An Ethereum value is weibar: stored in tinybars (truncated) for both stream formats (contracts.md §11).
    amount = ethereum !== null ? BigInt.asIntN(64, ethereum.value / TINYBAR_WEIBARS) : toBigInt(fr?.amount);
    gasLimit = toBigInt(fr?.gas);
    functionParameters = fr?.functionParameters ?? EMPTY;
  }
  const gasUsed = fr === null ? (defaultEthereum ? 0n : null) : toBigInt(fr.gasUsed);
  const initcode =
    create?.initcode != null && create.initcode.length > 0 ? create.initcode : (facts.initcode ?? null);
  let gasConsumed: bigint | null = null;
  if (hapiAtLeast(hapiVersion, 0, 69)) gasConsumed = gasUsed;
  else if (facts.topLevelGasUsed !== null) {
    const creates = facts.topLevelCreates || facts.createdBytecode;
    gasConsumed = facts.topLevelGasUsed + intrinsicGas(initcode ?? functionParameters, creates);
  }
  let failedInitcode: Uint8Array | null = null;
  if (create != null && !item.successful) failedInitcode = initcode;
  const senderId = entityIdOf(fr?.senderId);
  const row: ContractResultRow = {
    contractId,
    consensusNs: item.consensusNs,
    payerId: item.payerId,
    senderId: senderId ?? item.payerId,
    type: item.typeId,
    amount,
    gasLimit,
    gasUsed,
    gasConsumed,
    functionParameters,
    callResult: fr === null ? (defaultEthereum ? EMPTY : null) : (fr.contractCallResult ?? EMPTY),
    bloom: fr === null ? null : storedBloom(fr.bloom),
    errorMessage: fr?.errorMessage ? fr.errorMessage : null,
    createdContractIds: createdIds(ctx, fr),
    failedInitcode,
    transactionHash: ethereum?.hash ?? item.recordFields.transactionHash.subarray(0, HASH_BYTES),
    transactionIndex: place.index,
    transactionNonce: item.nonce,
    transactionResult: item.status,
    blockNumber: place.blockNumber,
  };
  store.contracts.insertResult(row);
  rememberResultPlace(item, row.transactionHash, row.transactionIndex);
  if (fr !== null) writeLogs(ctx, fr, row);
}

/** The 256 zero bytes of a result without logs are stored as empty bytes, as upstream does. */
function storedBloom(bloom: Uint8Array | null | undefined): Uint8Array {
  if (bloom == null || (bloom.length > 0 && isAllZero(bloom))) return EMPTY;
  return bloom;
}

function createdIds(ctx: HandlerContext, fr: proto.IContractFunctionResult | null): bigint[] {
  const ids: bigint[] = [];
  for (const id of fr?.createdContractIDs ?? []) {
    const resolved = resolveContractId(ctx.store, id);
    if (resolved !== null) ids.push(resolved);
  }
  return ids;
}

function writeLogs(ctx: HandlerContext, fr: proto.IContractFunctionResult, result: ContractResultRow): void {
  const logs = fr.logInfo ?? [];
  for (const log of logs) {
    ctx.store.contracts.insertLog({
      contractId: log.contractID == null ? 0n : (resolveContractId(ctx.store, log.contractID) ?? 0n),
      consensusNs: result.consensusNs,
      // The record's log counter, which synthetic token events of the record or its children share.
      index: takeLogIndex(ctx.item),
      rootContractId: result.contractId,
      payerId: result.payerId,
      bloom: log.bloom ?? EMPTY,
      data: log.data ?? EMPTY,
      topics: (log.topic ?? []).slice(0, 4).map(trimTopic),
      transactionHash: result.transactionHash,
      transactionIndex: result.transactionIndex,
    });
  }
}

/**
 * Leading zero bytes removed, at least one byte kept (upstream `DomainUtils.trim`): the zero topic is one zero
 * byte, whether it came as 32 zero bytes (record files) or as no bytes (block streams' minimal form).
 */
export function trimTopic(topic: Uint8Array): Uint8Array {
  if (topic.length === 0) return ZERO_TOPIC;
  let start = 0;
  while (start < topic.length - 1 && topic[start] === 0) start++;
  return topic.subarray(start);
}

/**
 * Contract nonces the result reports, and (before HAPI 0.23) the contracts it created, which later records no
 * longer announce with a ContractCreate record of their own.
 */
function applyResultEntities(ctx: HandlerContext, fr: proto.IContractFunctionResult): void {
  const { item, store, hapiVersion } = ctx;
  for (const info of fr.contractNonces ?? []) {
    const id = info.contractId == null ? null : resolveContractId(store, info.contractId);
    if (id !== null) store.entity.touch([id], { ethereum_nonce: toBigInt(info.nonce) });
  }
  if (!item.successful || hapiAtLeast(hapiVersion, 0, 23)) return;
  const called = entityIdOf(item.record.receipt?.contractID);
  for (const created of fr.createdContractIDs ?? []) {
    const id = entityIdOf(created);
    if (id === null || id === called || store.entity.current([id]) !== undefined) continue;
    store.entity.create([id], item.consensusNs, {
      ...CONTRACT_DEFAULTS,
      created_ns: item.consensusNs,
      max_automatic_token_associations: 0,
    });
    store.hbar.open(item.consensusNs, id);
  }
}

/** The contract a ContractCall names: the receipt's, else the body's (an EVM address resolved). */
function contractOf(ctx: HandlerContext, bodyId: proto.IContractID | null | undefined): bigint {
  const fromReceipt = entityIdOf(ctx.item.record.receipt?.contractID);
  if (fromReceipt !== null && fromReceipt !== 0n) return fromReceipt;
  return bodyId == null ? 0n : (resolveContractId(ctx.store, bodyId) ?? 0n);
}

/** Upstream treats a function result equal to the empty default as absent (every field unset or default). */
function isDefaultResult(fr: proto.IContractFunctionResult): boolean {
  const empty = (bytes: Uint8Array | null | undefined) => bytes == null || bytes.length === 0;
  const zero = (n: Parameters<typeof toBigInt>[0]) => toBigInt(n) === 0n;
  return (
    fr.contractID == null &&
    empty(fr.contractCallResult) &&
    !fr.errorMessage &&
    empty(fr.bloom) &&
    zero(fr.gasUsed) &&
    (fr.logInfo ?? []).length === 0 &&
    (fr.createdContractIDs ?? []).length === 0 &&
    fr.evmAddress == null &&
    zero(fr.gas) &&
    zero(fr.amount) &&
    empty(fr.functionParameters) &&
    fr.senderId == null &&
    (fr.contractNonces ?? []).length === 0 &&
    fr.signerNonce == null
  );
}

/** A decoded Ethereum transaction and its hash as stored (null when it could not be computed). */
type StoredEthereum = Omit<EthereumTransactionFields, "hash"> & { hash: Uint8Array | null };

/** Decodes the body's Ethereum transaction and writes its row; null when it does not decode. */
function writeEthereumTransaction(ctx: HandlerContext): StoredEthereum | null {
  const { item, store } = ctx;
  const body = item.body.ethereumTransaction!;
  const raw = body.ethereumData ?? EMPTY;
  const decoded = decodeEthereumTransaction(raw);
  if (decoded === null) return null;
  const callDataId = entityIdOf(body.callData);
  const recordHash = item.recordFields.parts & RECORD_PARTS.contractResult ? item.record.ethereumHash : null;
  let hash: Uint8Array | null = decoded.hash;
  if (recordHash != null && recordHash.length > 0) hash = recordHash;
  else if (decoded.callData.length === 0 && callDataId !== null) {
    const fileData = store.contracts.fileContents(callDataId);
    hash = fileData === null ? null : hashWithCallData(raw, callDataFromFile(fileData));
  }
  store.contracts.insertEthereumTransaction({
    consensusNs: item.consensusNs,
    payerId: item.payerId,
    type: decoded.type,
    chainId: decoded.chainId,
    nonce: decoded.nonce,
    gasPrice: decoded.gasPrice,
    maxFeePerGas: decoded.maxFeePerGas,
    maxPriorityFeePerGas: decoded.maxPriorityFeePerGas,
    gasLimit: decoded.gasLimit,
    toAddress: decoded.toAddress,
    value: twosComplement(decoded.value),
    callData: decoded.callData,
    callDataId,
    accessList: decoded.accessList,
    authorizationList: decoded.authorizationList,
    signatureV: decoded.signatureV,
    recoveryId: decoded.recoveryId,
    signatureR: decoded.signatureR,
    signatureS: decoded.signatureS,
    maxGasAllowance: toBigInt(body.maxGasAllowance),
    hash,
  });
  return { ...decoded, hash };
}

/** Call data kept in a file: SDKs upload it as hex text; other contents are taken as the bytes themselves. */
export function callDataFromFile(contents: Uint8Array): Uint8Array {
  let text = Buffer.from(contents).toString("latin1").trim();
  if (text.startsWith("0x")) text = text.slice(2);
  if (text.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(text)) return Buffer.from(text, "hex");
  return contents;
}

/**
 * Records before HAPI 0.47 carry no signer nonce: the sender's Ethereum nonce becomes the transaction's + 1
 * when it ran (as upstream's `EthereumTransactionHandler.updateAccountNonce`); later ones are handled by
 * ethereum-nonce.ts from the record.
 */
function advanceOlderNonce(
  ctx: HandlerContext,
  fr: proto.IContractFunctionResult | null,
  ethereum: StoredEthereum,
): void {
  const { item, store } = ctx;
  if (fr === null || fr.signerNonce != null || !NONCE_ADVANCES.has(item.status)) return;
  const senderId = entityIdOf(fr.senderId);
  if (senderId === null || senderId === 0n) return;
  store.entity.touch([senderId], { ethereum_nonce: ethereum.nonce + 1n });
}

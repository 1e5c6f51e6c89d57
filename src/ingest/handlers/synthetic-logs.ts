/**
 * Synthetic ERC-20/ERC-721 events for HAPI token activity, as upstream's importer writes them
 * (`persist.syntheticContractLogs`, on by default; contracts.md §5.1): so that EVM tools reading
 * `/contracts/results/logs` see token movements and approvals as `Transfer`, `Approval` and `ApprovalForAll` logs
 * of the token's long-zero address.
 *
 * - Fungible transfer lists (success or FAIL_INVALID): a mint or token creation gives Transfer(0 → account), a
 *   burn or wipe Transfer(account → 0), per entry; any list of two or more entries is paired greedily, senders
 *   and receivers each by absolute amount (largest first) then id, one Transfer per step.
 * - NFT transfers: Transfer(sender → receiver) with the serial as topic3.
 * - CryptoApproveAllowance: ApprovalForAll per approved-for-all entry, Approval per serial, Approval per token
 *   allowance (walking the lists from the end, the last entry per key winning, as the allowances themselves);
 *   CryptoDeleteAllowance: Approval(owner → 0) per serial.
 *
 * A record that carries a contract result itself only gets fungible Transfer logs, and only before HAPI 0.71
 * (consensus nodes emit them natively from then on); their bloom is computed from address and topics. A child
 * record of a record with a contract result has its logs attached to that parent: its time, index counter, hash
 * and position, the parent's contract as `contract_id` and its receipt's contract as `root_contract_id`.
 * A fungible Transfer's parties are written as their EVM address when the account has one (upstream replaces the
 * long-zero topics at the end of the file; an account's EVM address never changes, so looking it up now gives the
 * same value).
 */
import { keccak256 } from "ethers";
import { decodeEntityId, entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { RECORD_PARTS } from "../../streams/record-fields.ts";
import type { DecodedItem } from "../decode.ts";
import { ownerOf } from "./allowance.ts";
import type { HandlerContext } from "./context.ts";
import { hapiAtLeast } from "./context.ts";

const TRANSFER = Buffer.from("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", "hex");
const APPROVAL = Buffer.from("8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925", "hex");
const APPROVAL_FOR_ALL = Buffer.from(
  "17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31",
  "hex",
);
/** Upstream's "no bytes" for bloom and data: one zero byte. */
const ONE_ZERO = Uint8Array.of(0);
const ONE = Uint8Array.of(1);
const EMPTY = new Uint8Array(0);
const HASH_BYTES = 32;
const BLOOM_BYTES = 256;
const TOPIC_BYTES = 32;

/** The next log index of each record (shared by its EVM logs and synthetic ones, upstream's counter). */
const logCounters = new WeakMap<DecodedItem, number>();
/** Hash and position of each record with a contract result, for the logs of its children. */
const resultPlaces = new WeakMap<DecodedItem, { transactionHash: Uint8Array; transactionIndex: number }>();

/** Takes the record's next log index (0 first). */
export function takeLogIndex(item: DecodedItem): number {
  const next = logCounters.get(item) ?? 0;
  logCounters.set(item, next + 1);
  return next;
}

/** Remembers where a contract result was written, for the synthetic logs of its child records. */
export function rememberResultPlace(
  item: DecodedItem,
  transactionHash: Uint8Array,
  transactionIndex: number,
): void {
  resultPlaces.set(item, { transactionHash, transactionIndex });
}

type SyntheticLog = {
  tokenId: bigint;
  topics: [Uint8Array, Uint8Array, Uint8Array, Uint8Array | null];
  data: Uint8Array;
  /** A fungible Transfer: the only kind a contract-origin record gets, and whose parties become EVM addresses. */
  fungibleTransfer: boolean;
};

/** Writes the record's synthetic logs. Runs before its contract result (whose EVM logs take later indexes). */
export function applySyntheticLogs(ctx: HandlerContext, index: number): void {
  const { item } = ctx;
  const parts = item.recordFields.parts;
  const contractOrigin = (parts & RECORD_PARTS.contractResult) !== 0;
  // Consensus nodes emit a contract's token events themselves from HAPI 0.71 on.
  if (contractOrigin && hapiAtLeast(ctx.hapiVersion, 0, 71)) return;
  const logs: SyntheticLog[] = [];
  if (item.successful && !contractOrigin) {
    if (item.bodyCase === "cryptoApproveAllowance") approvalLogs(item, logs);
    else if (item.bodyCase === "cryptoDeleteAllowance") deleteApprovalLogs(item, logs);
  }
  const transfersApply = item.successful || item.status === proto.ResponseCodeEnum.FAIL_INVALID;
  if (transfersApply && (parts & RECORD_PARTS.tokenTransferLists) !== 0) {
    for (const list of item.record.tokenTransferLists ?? []) {
      const tokenId = entityIdOf(list.token) ?? 0n;
      fungibleLogs(item, tokenId, list.transfers ?? [], logs);
      if (!contractOrigin) nftLogs(tokenId, list.nftTransfers ?? [], logs);
    }
  }
  for (const log of logs) writeLog(ctx, index, contractOrigin, log);
}

function fungibleLogs(
  item: DecodedItem,
  tokenId: bigint,
  transfers: readonly proto.IAccountAmount[],
  logs: SyntheticLog[],
): void {
  if (transfers.length === 0) return;
  const mints = item.bodyCase === "tokenMint" || item.bodyCase === "tokenCreation";
  const burns = item.bodyCase === "tokenBurn" || item.bodyCase === "tokenWipe";
  const entries = transfers.map((aa) => ({
    account: entityIdOf(aa.accountID) ?? 0n,
    amount: toBigInt(aa.amount),
  }));
  if (mints || burns) {
    for (const { account, amount } of entries) {
      const from = amount < 0n ? account : 0n;
      const to = amount > 0n ? account : 0n;
      logs.push(transferLog(tokenId, from, to, amount < 0n ? -amount : amount));
    }
  }
  if (entries.length < 2) return;
  // Senders (amount ≤ 0) and receivers, each by absolute amount (largest first), then shard, realm, num.
  const senders = entries.filter((e) => e.amount <= 0n).sort(byAmountThenId);
  const receivers = entries.filter((e) => e.amount > 0n).sort(byAmountThenId);
  let s = 0;
  let r = 0;
  let senderLeft = senders[0] === undefined ? 0n : -senders[0].amount;
  let receiverLeft = receivers[0]?.amount ?? 0n;
  while (s < senders.length && r < receivers.length) {
    const amount = senderLeft < receiverLeft ? senderLeft : receiverLeft;
    logs.push(transferLog(tokenId, senders[s]!.account, receivers[r]!.account, amount));
    senderLeft -= amount;
    receiverLeft -= amount;
    if (senderLeft === 0n && ++s < senders.length) senderLeft = -senders[s]!.amount;
    if (receiverLeft === 0n && ++r < receivers.length) receiverLeft = receivers[r]!.amount;
  }
}

function byAmountThenId(
  a: { account: bigint; amount: bigint },
  b: { account: bigint; amount: bigint },
): number {
  const absA = a.amount < 0n ? -a.amount : a.amount;
  const absB = b.amount < 0n ? -b.amount : b.amount;
  if (absA !== absB) return absA > absB ? -1 : 1;
  const idA = decodeEntityId(a.account);
  const idB = decodeEntityId(b.account);
  for (const part of ["shard", "realm", "num"] as const) {
    if (idA[part] !== idB[part]) return idA[part] < idB[part] ? -1 : 1;
  }
  return 0;
}

function transferLog(tokenId: bigint, from: bigint, to: bigint, amount: bigint): SyntheticLog {
  return {
    tokenId,
    topics: [TRANSFER, addressTopic(from), addressTopic(to), null],
    data: uint64Bytes(amount),
    fungibleTransfer: true,
  };
}

function nftLogs(tokenId: bigint, transfers: readonly proto.INftTransfer[], logs: SyntheticLog[]): void {
  for (const transfer of transfers) {
    const from = entityIdOf(transfer.senderAccountID) ?? 0n;
    const to = entityIdOf(transfer.receiverAccountID) ?? 0n;
    const serial = toBigInt(transfer.serialNumber);
    logs.push(indexedLog(tokenId, TRANSFER, from, to, serial));
  }
}

function indexedLog(
  tokenId: bigint,
  signature: Uint8Array,
  from: bigint,
  to: bigint,
  serial: bigint,
): SyntheticLog {
  return {
    tokenId,
    topics: [signature, addressTopic(from), addressTopic(to), uint64Bytes(serial)],
    data: ONE_ZERO,
    fungibleTransfer: false,
  };
}

/**
 * CryptoApproveAllowance as upstream's handler walks it: NFT allowances from the last (an approved-for-all entry
 * gives ApprovalForAll once per owner, spender and token; a serial gives an Approval once per token and serial,
 * unless its entry is approved-for-all), then token allowances from the last (once per owner, spender, token).
 */
function approvalLogs(item: DecodedItem, logs: SyntheticLog[]): void {
  const body = item.body.cryptoApproveAllowance!;
  const payer = item.payerId;
  const nftAllowances = body.nftAllowances ?? [];
  const forAllSeen = new Set<string>();
  const serialsSeen = new Set<string>();
  for (let i = nftAllowances.length - 1; i >= 0; i--) {
    const allowance = nftAllowances[i]!;
    const owner = ownerOf(allowance.owner, payer);
    if (owner === null) continue;
    const spender = entityIdOf(allowance.spender) ?? 0n;
    const tokenId = entityIdOf(allowance.tokenId) ?? 0n;
    const forAll = allowance.approvedForAll != null;
    if (forAll && once(forAllSeen, `${owner}:${spender}:${tokenId}`)) {
      logs.push({
        tokenId,
        topics: [APPROVAL_FOR_ALL, addressTopic(owner), addressTopic(spender), null],
        data: allowance.approvedForAll?.value === true ? ONE : ONE_ZERO,
        fungibleTransfer: false,
      });
    }
    for (const serialNumber of allowance.serialNumbers ?? []) {
      const serial = toBigInt(serialNumber);
      if (once(serialsSeen, `${tokenId}:${serial}`) && !forAll) {
        logs.push(indexedLog(tokenId, APPROVAL, owner, spender, serial));
      }
    }
  }
  const tokenAllowances = body.tokenAllowances ?? [];
  const tokensSeen = new Set<string>();
  for (let i = tokenAllowances.length - 1; i >= 0; i--) {
    const allowance = tokenAllowances[i]!;
    const owner = ownerOf(allowance.owner, payer);
    if (owner === null) continue;
    const spender = entityIdOf(allowance.spender) ?? 0n;
    const tokenId = entityIdOf(allowance.tokenId) ?? 0n;
    if (!once(tokensSeen, `${owner}:${spender}:${tokenId}`)) continue;
    logs.push({
      tokenId,
      topics: [APPROVAL, addressTopic(owner), addressTopic(spender), null],
      data: uint64Bytes(toBigInt(allowance.amount)),
      fungibleTransfer: false,
    });
  }
}

/** CryptoDeleteAllowance: each listed serial's approval goes to nobody. */
function deleteApprovalLogs(item: DecodedItem, logs: SyntheticLog[]): void {
  for (const allowance of item.body.cryptoDeleteAllowance!.nftAllowances ?? []) {
    const owner = ownerOf(allowance.owner, item.payerId) ?? item.payerId;
    const tokenId = entityIdOf(allowance.tokenId) ?? 0n;
    for (const serial of allowance.serialNumbers ?? []) {
      logs.push(indexedLog(tokenId, APPROVAL, owner, 0n, toBigInt(serial)));
    }
  }
}

function once(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

function writeLog(ctx: HandlerContext, index: number, contractOrigin: boolean, log: SyntheticLog): void {
  const { item, store } = ctx;
  const parent = ctx.parent !== undefined && hasResult(ctx.parent) ? ctx.parent : undefined;
  const topics = log.topics.filter((topic): topic is Uint8Array => topic !== null);
  if (log.fungibleTransfer) {
    topics[1] = evmAddressTopic(ctx, topics[1]!);
    topics[2] = evmAddressTopic(ctx, topics[2]!);
  }
  let consensusNs = item.consensusNs;
  let logIndex: number;
  let transactionHash: Uint8Array;
  let transactionIndex = index;
  let contractId = log.tokenId;
  let rootContractId = log.tokenId;
  if (parent !== undefined) {
    consensusNs = parent.consensusNs;
    logIndex = takeLogIndex(parent);
    const place = resultPlaces.get(parent);
    transactionHash = place?.transactionHash ?? ownHash(parent);
    transactionIndex = place?.transactionIndex ?? index;
    const result = parent.record.contractCallResult ?? parent.record.contractCreateResult;
    contractId = entityIdOf(result?.contractID) ?? 0n;
    rootContractId = entityIdOf(parent.record.receipt?.contractID) ?? 0n;
  } else {
    logIndex = takeLogIndex(item);
    transactionHash = ownHash(item);
  }
  store.contracts.insertLog({
    contractId,
    consensusNs,
    index: logIndex,
    rootContractId,
    payerId: item.payerId,
    bloom: contractOrigin ? logBloom(ctx, contractId, topics) : ONE_ZERO,
    data: log.data,
    topics,
    transactionHash,
    transactionIndex,
  });
}

function hasResult(item: DecodedItem): boolean {
  return (item.recordFields.parts & RECORD_PARTS.contractResult) !== 0;
}

/** Upstream's `RecordItem.getTransactionHash`: the Ethereum hash, else the first 32 bytes of the record's. */
function ownHash(item: DecodedItem): Uint8Array {
  if (item.bodyCase === "ethereumTransaction" && hasResult(item)) {
    const ethereumHash = item.record.ethereumHash;
    if (ethereumHash != null && ethereumHash.length > 0) return ethereumHash;
  }
  return item.recordFields.transactionHash.subarray(0, HASH_BYTES);
}

/** An account as a topic: its num's bytes without leading zeros (upstream's long-zero address trimmed); 0 → empty. */
function addressTopic(id: bigint): Uint8Array {
  if (id === 0n) return EMPTY;
  return uint64Bytes(decodeEntityId(id).num);
}

/** The party's EVM address (leading zero bytes trimmed) when its account has one, else the topic as it is. */
function evmAddressTopic(ctx: HandlerContext, topic: Uint8Array): Uint8Array {
  if (topic.length === 0) return topic;
  const address = evmAddressOf(ctx, BigInt(`0x${Buffer.from(topic).toString("hex")}`));
  return address === null ? topic : trimLeadingZeros(address);
}

function evmAddressOf(ctx: HandlerContext, id: bigint): Uint8Array | null {
  const address = ctx.store.entity.current([id])?.evm_address;
  return address instanceof Uint8Array && address.length > 0 ? address : null;
}

/** An unsigned 64-bit value as bytes without leading zeros (at least one byte). */
function uint64Bytes(value: bigint): Uint8Array {
  const hex = BigInt.asUintN(64, value).toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, "hex");
}

function trimLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

/** The Ethereum log bloom of one log: the contract's address and each topic (left-padded to 32 bytes). */
function logBloom(ctx: HandlerContext, contractId: bigint, topics: readonly Uint8Array[]): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES);
  const address =
    evmAddressOf(ctx, contractId) ??
    Buffer.from(decodeEntityId(contractId).num.toString(16).padStart(40, "0"), "hex");
  insertBloom(bloom, address);
  for (const topic of topics) {
    const padded = new Uint8Array(TOPIC_BYTES);
    padded.set(
      topic.subarray(Math.max(0, topic.length - TOPIC_BYTES)),
      Math.max(0, TOPIC_BYTES - topic.length),
    );
    insertBloom(bloom, padded);
  }
  return bloom;
}

function insertBloom(bloom: Uint8Array, input: Uint8Array): void {
  if (input.length === 0) return;
  const hash = Buffer.from(keccak256(input).slice(2), "hex");
  for (let i = 0; i < 3; i++) {
    const bit = ((hash[2 * i]! << 8) | hash[2 * i + 1]!) & 0x7ff;
    const byte = BLOOM_BYTES - 1 - (bit >> 3);
    bloom[byte] = bloom[byte]! | (1 << (bit & 7));
  }
}

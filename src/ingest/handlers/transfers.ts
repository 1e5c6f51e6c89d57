import { entityIdOf } from "../../ids.ts";
import type { WriteStore } from "../../store/write-store.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { RECORD_PARTS } from "../../streams/record-fields.ts";
import { hasTokenApprovals } from "../../streams/transaction-body-fields.ts";
import type { DecodedItem } from "../decode.ts";
import type { HandlerContext } from "./context.ts";
import { associate, associationDefaults } from "./token-account.ts";

/** The serial a node reports for "every NFT of the old treasury" when a token's treasury changes. */
const ALL_SERIALS = -1n;

/**
 * Applies what a record reports, whatever its transaction type: automatic associations, then fungible and NFT
 * movements from the token transfer lists. Balances and NFT owners come from these lists, never from bodies;
 * only the approval flags are read from a CryptoTransfer's body, as the mirror node does. Like the mirror
 * node, this runs for successful records and for FAIL_INVALID ones (errata records whose effects a node
 * committed nonetheless).
 */
export function applyRecordTransfers({ item, store }: HandlerContext): void {
  if (!item.successful && item.status !== proto.ResponseCodeEnum.FAIL_INVALID) return;
  const parts = item.recordFields.parts;
  // Most records have neither: their record is never decoded whole.
  if ((parts & (RECORD_PARTS.automaticTokenAssociations | RECORD_PARTS.tokenTransferLists)) === 0) return;
  const t = item.consensusNs;
  // TokenCreate's handler associates the treasury and collectors itself (not as automatic associations).
  if (item.bodyCase !== "tokenCreation") {
    for (const association of item.record.automaticTokenAssociations ?? []) {
      const tokenId = entityIdOf(association.tokenId);
      const accountId = entityIdOf(association.accountId);
      if (tokenId === null || accountId === null) continue;
      // A node reports only new associations; never reset the balance of a live one.
      if (store.tokenAccount.current([tokenId, accountId])?.associated === 1n) continue;
      associate(store, tokenId, accountId, t, true);
    }
  }
  const lists = item.record.tokenTransferLists ?? [];
  // Read the body only when there is a list to match it against and the body marks a token transfer approved:
  // without such a mark no entry matches as approved, and most bodies are never decoded.
  const bodyTransfers =
    lists.length === 0 || !marksTokenApprovals(item) ? [] : (item.body.cryptoTransfer?.tokenTransfers ?? []);
  for (const list of lists) {
    const tokenId = entityIdOf(list.token);
    if (tokenId === null) continue;
    const defaults = () => associationDefaults(store, tokenId);
    const bodyList = bodyTransfers.find((candidate) => entityIdOf(candidate.token) === tokenId);
    for (const transfer of list.transfers ?? []) {
      const accountId = entityIdOf(transfer.accountID);
      if (accountId === null) continue;
      const amount = toBigInt(transfer.amount);
      const isApproval = fungibleApproval(bodyList, accountId, amount, transfer.isApproval === true);
      store.insertTokenTransfer(t, tokenId, accountId, amount, isApproval);
      store.addBalance(tokenId, accountId, t, amount, defaults);
    }
    for (const transfer of list.nftTransfers ?? []) {
      const senderId = nonZero(entityIdOf(transfer.senderAccountID));
      const receiverId = nonZero(entityIdOf(transfer.receiverAccountID));
      const serial = toBigInt(transfer.serialNumber);
      const isApproval = nftApproval(bodyList, senderId, receiverId, serial);
      store.insertNftTransfer(t, tokenId, serial, senderId, receiverId, isApproval);
      if (serial === ALL_SERIALS) {
        if (senderId !== null && receiverId !== null) moveTreasury(store, tokenId, senderId, receiverId, t);
        continue;
      }
      // Burns and wipes (no receiver) are ended by their handlers; a transfer moves the NFT and clears spenders.
      if (receiverId !== null) moveNft(store, tokenId, serial, receiverId, t);
      if (senderId !== null) store.addBalance(tokenId, senderId, t, -1n, defaults);
      if (receiverId !== null) store.addBalance(tokenId, receiverId, t, 1n, defaults);
    }
  }
}

/**
 * A record debit is an approved (allowance) transfer as the importer decides it: a body entry equal to the
 * record's (account, amount and approval flag) gives its flag; failing that, any approved body entry of the
 * account for the token makes it one. Credits never are.
 */
function fungibleApproval(
  bodyList: proto.ITokenTransferList | undefined,
  accountId: bigint,
  amount: bigint,
  recordApproval: boolean,
) {
  if (bodyList === undefined || amount >= 0n) return false;
  const sameAccount = (bodyList.transfers ?? []).filter((aa) => entityIdOf(aa.accountID) === accountId);
  const equal = sameAccount.find(
    (aa) => toBigInt(aa.amount) === amount && (aa.isApproval === true) === recordApproval,
  );
  if (equal !== undefined) return recordApproval;
  return sameAccount.some((aa) => aa.isApproval === true);
}

/** The approval flag of the body's NFT transfer with the same serial, sender and receiver. */
function nftApproval(
  bodyList: proto.ITokenTransferList | undefined,
  senderId: bigint | null,
  receiverId: bigint | null,
  serial: bigint,
): boolean {
  for (const transfer of bodyList?.nftTransfers ?? []) {
    if (
      toBigInt(transfer.serialNumber) === serial &&
      nonZero(entityIdOf(transfer.senderAccountID)) === senderId &&
      nonZero(entityIdOf(transfer.receiverAccountID)) === receiverId
    ) {
      return transfer.isApproval === true;
    }
  }
  return false;
}

/** A treasury change of an NFT token: every NFT of the old treasury moves to the new one, spenders cleared. */
function moveTreasury(store: WriteStore, tokenId: bigint, from: bigint, to: bigint, t: bigint): void {
  const serials = store.serialsOwnedBy(tokenId, from);
  for (const serial of serials) moveNft(store, tokenId, serial, to, t);
  const defaults = () => associationDefaults(store, tokenId);
  const count = BigInt(serials.length);
  store.addBalance(tokenId, from, t, -count, defaults);
  store.addBalance(tokenId, to, t, count, defaults);
}

function moveNft(store: WriteStore, tokenId: bigint, serial: bigint, owner: bigint, t: bigint): void {
  const moved = store.nft.change([tokenId, serial], t, {
    account_id: owner,
    spender: null,
    delegating_spender: null,
  });
  if (!moved) {
    // The mint happened before this mirror's first file: keep what we know, with no creation time.
    store.nft.create([tokenId, serial], t, {
      account_id: owner,
      created_ns: null,
      deleted: false,
      metadata: null,
      spender: null,
      delegating_spender: null,
    });
  }
}

/** Whether the item's body is a CryptoTransfer that marks a token transfer approved (read off the wire). */
function marksTokenApprovals(item: DecodedItem): boolean {
  const { bodyBytes, bodyFields } = item;
  return (
    item.bodyCase === "cryptoTransfer" &&
    bodyFields.dataStart >= 0 &&
    hasTokenApprovals(bodyBytes, bodyFields.dataStart, bodyFields.dataEnd)
  );
}

/** Account 0.0.0 (an unset id) names nobody. */
function nonZero(id: bigint | null): bigint | null {
  return id === 0n ? null : id;
}

import { entityIdOf } from "../../ids.ts";
import type { WriteStore } from "../../store/write-store.ts";
import { toBigInt } from "../../streams/long.ts";
import type { HandlerContext } from "./context.ts";
import { associate, associationDefaults } from "./token-account.ts";

/** The serial a node reports for "every NFT of the old treasury" when a token's treasury changes. */
const ALL_SERIALS = -1n;

/**
 * Applies what every record reports, whatever its transaction type: automatic associations, then fungible and
 * NFT movements from the token transfer lists. Balances and NFT owners come from these lists, never from bodies.
 */
export function applyRecordTransfers({ item, store }: HandlerContext): void {
  const t = item.consensusNs;
  for (const association of item.record.automaticTokenAssociations ?? []) {
    const tokenId = entityIdOf(association.tokenId);
    const accountId = entityIdOf(association.accountId);
    if (tokenId === null || accountId === null) continue;
    // TokenCreate has already associated its treasury and collectors at t; don't reopen those rows.
    if (store.tokenAccount.current([tokenId, accountId])?.valid_from === t) continue;
    associate(store, tokenId, accountId, t, true);
  }
  for (const list of item.record.tokenTransferLists ?? []) {
    const tokenId = entityIdOf(list.token);
    if (tokenId === null) continue;
    const defaults = () => associationDefaults(store, tokenId);
    for (const transfer of list.transfers ?? []) {
      const accountId = entityIdOf(transfer.accountID);
      if (accountId === null) continue;
      const amount = toBigInt(transfer.amount);
      store.insertTokenTransfer(t, tokenId, accountId, amount, transfer.isApproval ?? false);
      store.addBalance(tokenId, accountId, t, amount, defaults);
    }
    for (const transfer of list.nftTransfers ?? []) {
      const senderId = entityIdOf(transfer.senderAccountID);
      const receiverId = entityIdOf(transfer.receiverAccountID);
      const serial = toBigInt(transfer.serialNumber);
      store.insertNftTransfer(t, tokenId, serial, senderId, receiverId, transfer.isApproval ?? false);
      const serials =
        serial === ALL_SERIALS && senderId !== null ? store.serialsOwnedBy(tokenId, senderId) : [serial];
      for (const s of serials) moveNft(store, tokenId, s, receiverId, t);
      const count = BigInt(serials.length);
      if (senderId !== null && senderId !== 0n) store.addBalance(tokenId, senderId, t, -count, defaults);
      if (receiverId !== null && receiverId !== 0n) store.addBalance(tokenId, receiverId, t, count, defaults);
    }
  }
}

function moveNft(
  store: WriteStore,
  tokenId: bigint,
  serial: bigint,
  receiverId: bigint | null,
  t: bigint,
): void {
  const owner = receiverId === 0n ? null : receiverId;
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

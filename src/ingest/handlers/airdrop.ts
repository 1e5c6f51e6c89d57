import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import type { HandlerContext } from "./context.ts";

/** The (sender, receiver, token, serial) key of a pending airdrop; serial 0 for a fungible token. */
function airdropKey(id: proto.IPendingAirdropId | null | undefined): bigint[] | null {
  if (id == null) return null;
  const sender = entityIdOf(id.senderId);
  const receiver = entityIdOf(id.receiverId);
  const fungible = id.fungibleTokenType != null;
  const tokenId = entityIdOf(fungible ? id.fungibleTokenType : id.nonFungibleToken?.token_ID);
  if (sender === null || receiver === null || tokenId === null) return null;
  const serial = fungible ? 0n : toBigInt(id.nonFungibleToken?.serialNumber);
  return [sender, receiver, tokenId, serial];
}

/**
 * TokenAirdrop: every entry of the record's `new_pending_airdrops` opens a PENDING version (upstream's
 * `TokenAirdropTransactionHandler`). For a fungible token the record carries the pending total, so a second
 * airdrop to the same receiver replaces the amount; an NFT airdrop has no amount. Transfers the node could
 * make at once are in the record's token transfer lists, applied like any other.
 */
export function handleTokenAirdrop({ item, store }: HandlerContext): void {
  for (const pending of item.record.newPendingAirdrops ?? []) {
    const key = airdropKey(pending.pendingAirdropId);
    if (key === null) continue;
    const fungible = key[3] === 0n;
    store.accountRelations.tokenAirdrop.create(key, item.consensusNs, {
      state: "PENDING",
      amount: fungible ? toBigInt(pending.pendingAirdropValue?.amount) : null,
    });
  }
}

/**
 * A claim or cancellation ends each listed airdrop with a version in that state, keeping its amount, as
 * upstream's merge does; an airdrop this mirror never saw pending is recorded in its final state too.
 */
export function settleAirdrops(
  { item, store }: HandlerContext,
  pendingAirdrops: readonly proto.IPendingAirdropId[],
  state: "CLAIMED" | "CANCELLED",
): void {
  const table = store.accountRelations.tokenAirdrop;
  for (const id of pendingAirdrops) {
    const key = airdropKey(id);
    if (key === null) continue;
    if (!table.change(key, item.consensusNs, { state })) {
      table.create(key, item.consensusNs, { state, amount: null });
    }
  }
}

export function handleTokenCancelAirdrop(ctx: HandlerContext): void {
  settleAirdrops(ctx, ctx.item.body.tokenCancelAirdrop?.pendingAirdrops ?? [], "CANCELLED");
}

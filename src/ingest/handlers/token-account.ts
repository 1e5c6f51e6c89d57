import { entityIdOf } from "../../ids.ts";
import type { TokenAccountDefaults, WriteStore } from "../../store/write-store.ts";
import { toBigInt } from "../../streams/long.ts";
import type { DecodedItem } from "../decode.ts";
import { settleAirdrops } from "./airdrop.ts";
import type { HandlerContext } from "./context.ts";

/** Freeze and KYC status of a fresh association, decided by the token's keys and freeze default. */
export function associationDefaults(store: WriteStore, tokenId: bigint): TokenAccountDefaults {
  const token = store.token.current([tokenId]);
  if (token === undefined) return { freezeStatus: "NOT_APPLICABLE", kycStatus: "NOT_APPLICABLE" };
  const freezeStatus =
    token.freeze_key == null ? "NOT_APPLICABLE" : token.freeze_default ? "FROZEN" : "UNFROZEN";
  const kycStatus = token.kyc_key == null ? "NOT_APPLICABLE" : "REVOKED";
  return { freezeStatus, kycStatus };
}

/** Opens an associated relationship at t (a re-association after a dissociation starts again from zero). */
export function associate(
  store: WriteStore,
  tokenId: bigint,
  accountId: bigint,
  t: bigint,
  automatic: boolean,
): void {
  const { freezeStatus, kycStatus } = associationDefaults(store, tokenId);
  store.tokenAccount.create([tokenId, accountId], t, {
    associated: true,
    automatic_association: automatic,
    freeze_status: freezeStatus,
    kyc_status: kycStatus,
    created_ns: t,
    balance: 0n,
    balance_ns: t,
  });
}

export function handleTokenAssociate({ item, store }: HandlerContext): void {
  const body = item.body.tokenAssociate!;
  const accountId = entityIdOf(body.account);
  if (accountId === null) return;
  for (const token of body.tokens ?? []) {
    const tokenId = entityIdOf(token);
    if (tokenId !== null) associate(store, tokenId, accountId, item.consensusNs, false);
  }
}

export function handleTokenDissociate({ item, store }: HandlerContext): void {
  const body = item.body.tokenDissociate!;
  const accountId = entityIdOf(body.account);
  if (accountId === null) return;
  const t = item.consensusNs;
  for (const token of body.tokens ?? []) {
    const tokenId = entityIdOf(token);
    if (tokenId === null) continue;
    store.tokenAccount.change([tokenId, accountId], t, { associated: false });
    if (store.entity.current([tokenId])?.deleted === 1n)
      dissociateFromDeletedToken(item, store, tokenId, accountId);
  }
}

/**
 * Dissociating from a deleted token destroys what the account held. The record shows it as one negative
 * transfer of the token (its NFT count, for an NFT token), which brings the balance to 0 when the transfer
 * lists are applied; the mirror node also takes it off the total supply, and ends the account's NFTs as a
 * burn would, with a transfer from the account to nobody in the NFTs' history.
 */
function dissociateFromDeletedToken(
  item: DecodedItem,
  store: WriteStore,
  tokenId: bigint,
  accountId: bigint,
) {
  const t = item.consensusNs;
  const list = item.record.tokenTransferLists?.find((candidate) => entityIdOf(candidate.token) === tokenId);
  const transfers = list?.transfers ?? [];
  if (transfers.length !== 1) return;
  const supply = store.currentSupply(tokenId);
  if (supply !== undefined) store.setSupply(tokenId, t, supply + toBigInt(transfers[0]?.amount));
  if (store.token.current([tokenId])?.type !== "NON_FUNGIBLE_UNIQUE") return;
  for (const serial of store.serialsOwnedBy(tokenId, accountId)) {
    store.nft.change([tokenId, serial], t, {
      deleted: true,
      account_id: null,
      spender: null,
      delegating_spender: null,
    });
    store.insertNftTransfer(t, tokenId, serial, accountId, null, false);
  }
}

/**
 * Claiming pending airdrops associates each receiver with the token, unless it already is: the receiver may
 * have associated on its own before claiming. The airdrops themselves end CLAIMED (`settleAirdrops`).
 */
export function handleTokenClaimAirdrop(ctx: HandlerContext): void {
  const { item, store } = ctx;
  const pendingAirdrops = item.body.tokenClaimAirdrop!.pendingAirdrops ?? [];
  settleAirdrops(ctx, pendingAirdrops, "CLAIMED");
  for (const pending of pendingAirdrops) {
    const receiverId = entityIdOf(pending.receiverId);
    const tokenId = entityIdOf(pending.fungibleTokenType ?? pending.nonFungibleToken?.token_ID);
    if (receiverId === null || tokenId === null) continue;
    if (store.tokenAccount.current([tokenId, receiverId])?.associated === 1n) continue;
    associate(store, tokenId, receiverId, item.consensusNs, false);
  }
}

function setStatus(
  ctx: HandlerContext,
  body: { token?: unknown; account?: unknown },
  patch: Record<string, string>,
) {
  const tokenId = entityIdOf(body.token as Parameters<typeof entityIdOf>[0]);
  const accountId = entityIdOf(body.account as Parameters<typeof entityIdOf>[0]);
  if (tokenId !== null && accountId !== null)
    ctx.store.tokenAccount.change([tokenId, accountId], ctx.item.consensusNs, patch);
}

export const handleTokenFreeze = (ctx: HandlerContext) =>
  setStatus(ctx, ctx.item.body.tokenFreeze!, { freeze_status: "FROZEN" });
export const handleTokenUnfreeze = (ctx: HandlerContext) =>
  setStatus(ctx, ctx.item.body.tokenUnfreeze!, { freeze_status: "UNFROZEN" });
export const handleTokenGrantKyc = (ctx: HandlerContext) =>
  setStatus(ctx, ctx.item.body.tokenGrantKyc!, { kyc_status: "GRANTED" });
export const handleTokenRevokeKyc = (ctx: HandlerContext) =>
  setStatus(ctx, ctx.item.body.tokenRevokeKyc!, { kyc_status: "REVOKED" });

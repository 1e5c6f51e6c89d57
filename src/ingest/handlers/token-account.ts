import { entityIdOf } from "../../ids.ts";
import type { TokenAccountDefaults, WriteStore } from "../../store/write-store.ts";
import { toBigInt } from "../../streams/long.ts";
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
    // Dissociating from a deleted fungible token burns what the account held: the record's one negative
    // transfer is the only trace of it, and the mirror node takes it off the total supply.
    if (store.entity.current([tokenId])?.deleted === 1n) {
      for (const list of item.record.tokenTransferLists ?? []) {
        if (entityIdOf(list.token) !== tokenId) continue;
        for (const transfer of list.transfers ?? []) {
          const supply = store.currentSupply(tokenId);
          if (supply !== undefined) store.setSupply(tokenId, t, supply + toBigInt(transfer.amount));
        }
      }
    }
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

import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import type { HandlerContext } from "./context.ts";

/**
 * The serial-specific part of a CryptoApproveAllowance (the rest is `allowance.ts`): the spender goes on the NFT
 * (a serial listed twice keeps the last spender). Without a delegating spender the NFT keeps the one it has, as
 * the mirror node does (it treats an unset delegating spender as "retain"); any transfer clears both.
 */
export function applyNftSerialAllowances({ item, store }: HandlerContext): void {
  for (const allowance of item.body.cryptoApproveAllowance!.nftAllowances ?? []) {
    const tokenId = entityIdOf(allowance.tokenId);
    if (tokenId === null) continue;
    const patch: Record<string, unknown> = { spender: nonZero(entityIdOf(allowance.spender)) };
    const delegatingSpender = nonZero(entityIdOf(allowance.delegatingSpender));
    if (delegatingSpender !== null) patch.delegating_spender = delegatingSpender;
    for (const serial of allowance.serialNumbers ?? []) {
      store.nft.change([tokenId, toBigInt(serial)], item.consensusNs, patch);
    }
  }
}

export function handleCryptoDeleteAllowance({ item, store }: HandlerContext): void {
  for (const allowance of item.body.cryptoDeleteAllowance!.nftAllowances ?? []) {
    const tokenId = entityIdOf(allowance.tokenId);
    if (tokenId === null) continue;
    for (const serial of allowance.serialNumbers ?? []) {
      store.nft.change([tokenId, toBigInt(serial)], item.consensusNs, {
        spender: null,
        delegating_spender: null,
      });
    }
  }
}

/** TokenUpdateNfts changes metadata only when the body sets it; spenders are kept. */
export function handleTokenUpdateNfts({ item, store }: HandlerContext): void {
  const body = item.body.tokenUpdateNfts!;
  const tokenId = entityIdOf(body.token);
  if (tokenId === null || body.metadata == null) return;
  const metadata = body.metadata.value ?? new Uint8Array();
  for (const serial of body.serialNumbers ?? []) {
    store.nft.change([tokenId, toBigInt(serial)], item.consensusNs, { metadata });
  }
}

function nonZero(id: bigint | null): bigint | null {
  return id === 0n ? null : id;
}

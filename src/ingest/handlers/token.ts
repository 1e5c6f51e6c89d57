import { entityIdOf } from "../../ids.ts";
import { type CustomFeeValue, encodeCustomFees } from "../../store/custom-fees.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { timestampToNs } from "../../time.ts";
import { type HandlerContext, hapiAtLeast } from "./context.ts";
import { keyBytes, publicKeyOf } from "./keys.ts";

/** Token names and symbols may hold NUL, which the mirror node replaces (PostgreSQL text cannot hold it). */
function cleanText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}

export function handleTokenCreate({ item, store, hapiVersion }: HandlerContext): void {
  const body = item.body.tokenCreation!;
  const tokenId = entityIdOf(item.record.receipt?.tokenID);
  if (tokenId === null) return;
  const t = item.consensusNs;
  store.entity.create([tokenId], t, {
    type: "TOKEN",
    created_ns: t,
    deleted: false,
    memo: body.memo,
    key: keyBytes(body.adminKey),
    public_key: publicKeyOf(body.adminKey),
    auto_renew_account_id: entityIdOf(body.autoRenewAccount),
    auto_renew_period: body.autoRenewPeriod ? toBigInt(body.autoRenewPeriod.seconds) : null,
    expiration_ns: body.expiry ? timestampToNs(body.expiry) : null,
  });
  const withMetadata = hapiAtLeast(hapiVersion, 0, 49);
  const initialSupply = toBigInt(body.initialSupply);
  const finite = body.supplyType === proto.TokenSupplyType.FINITE;
  store.token.create([tokenId], t, {
    created_ns: t,
    name: cleanText(body.name ?? ""),
    symbol: cleanText(body.symbol ?? ""),
    decimals: BigInt(body.decimals ?? 0),
    initial_supply: initialSupply,
    // Stored as the body gives it: 0 for a token of infinite supply, as the mirror node does.
    max_supply: toBigInt(body.maxSupply),
    supply_type: finite ? "FINITE" : "INFINITE",
    type: body.tokenType === proto.TokenType.NON_FUNGIBLE_UNIQUE ? "NON_FUNGIBLE_UNIQUE" : "FUNGIBLE_COMMON",
    treasury_id: entityIdOf(body.treasury) ?? 0n,
    freeze_default: body.freezeDefault,
    freeze_key: keyBytes(body.freezeKey),
    kyc_key: keyBytes(body.kycKey),
    wipe_key: keyBytes(body.wipeKey),
    supply_key: keyBytes(body.supplyKey),
    fee_schedule_key: keyBytes(body.feeScheduleKey),
    pause_key: keyBytes(body.pauseKey),
    metadata_key: withMetadata ? keyBytes(body.metadataKey) : null,
    metadata: withMetadata ? (body.metadata ?? new Uint8Array()) : null,
    pause_status: body.pauseKey ? "UNPAUSED" : "NOT_APPLICABLE",
  });
  store.setSupply(tokenId, t, initialSupply);
  const fees = customFeesOf(body.customFees, tokenId);
  // The mirror node writes a fee schedule version for every token, even an empty one; token info needs it.
  store.customFee.create([tokenId], t, { fees: encodeCustomFees(fees) });

  const hasFreezeKey = body.freezeKey != null;
  const hasKycKey = body.kycKey != null;
  const associate = (accountId: bigint | null, automatic: boolean) => {
    if (accountId === null) return;
    store.tokenAccount.create([tokenId, accountId], t, {
      associated: true,
      automatic_association: automatic,
      freeze_status: hasFreezeKey ? "UNFROZEN" : "NOT_APPLICABLE",
      kyc_status: hasKycKey ? "GRANTED" : "NOT_APPLICABLE",
      created_ns: t,
      balance: 0n,
      balance_ns: t,
    });
  };
  const automatic = item.record.automaticTokenAssociations ?? [];
  if (automatic.length > 0) {
    for (const association of automatic) {
      if (entityIdOf(association.tokenId) === tokenId) associate(entityIdOf(association.accountId), false);
    }
  } else {
    associate(entityIdOf(body.treasury), false);
    for (const fee of fees) {
      const chargedInToken =
        fee.kind === "fractional" || (fee.kind === "fixed" && fee.denominatingTokenId === tokenId);
      if (chargedInToken && fee.collectorId !== entityIdOf(body.treasury)) associate(fee.collectorId, false);
    }
  }
}

export function handleTokenUpdate({ item, store, hapiVersion }: HandlerContext): void {
  const body = item.body.tokenUpdate!;
  const tokenId = entityIdOf(body.token);
  if (tokenId === null) return;
  const t = item.consensusNs;
  // Every successful update opens an entity version (and clears `deleted`), even if no entity field changes.
  const entityPatch: Record<string, unknown> = { deleted: false };
  if (body.adminKey) {
    entityPatch.key = keyBytes(body.adminKey);
    entityPatch.public_key = publicKeyOf(body.adminKey);
  }
  if (body.autoRenewAccount) entityPatch.auto_renew_account_id = entityIdOf(body.autoRenewAccount);
  if (body.autoRenewPeriod) entityPatch.auto_renew_period = toBigInt(body.autoRenewPeriod.seconds);
  if (body.expiry) entityPatch.expiration_ns = timestampToNs(body.expiry);
  if (body.memo) entityPatch.memo = body.memo.value ?? "";
  store.entity.change([tokenId], t, entityPatch);

  const tokenPatch: Record<string, unknown> = {};
  if (body.name) tokenPatch.name = cleanText(body.name);
  if (body.symbol) tokenPatch.symbol = cleanText(body.symbol);
  if (body.treasury) tokenPatch.treasury_id = entityIdOf(body.treasury);
  if (body.freezeKey) tokenPatch.freeze_key = keyBytes(body.freezeKey);
  if (body.kycKey) tokenPatch.kyc_key = keyBytes(body.kycKey);
  if (body.wipeKey) tokenPatch.wipe_key = keyBytes(body.wipeKey);
  if (body.supplyKey) tokenPatch.supply_key = keyBytes(body.supplyKey);
  if (body.feeScheduleKey) tokenPatch.fee_schedule_key = keyBytes(body.feeScheduleKey);
  if (body.pauseKey) tokenPatch.pause_key = keyBytes(body.pauseKey);
  if (hapiAtLeast(hapiVersion, 0, 49)) {
    if (body.metadata) tokenPatch.metadata = body.metadata.value ?? new Uint8Array();
    if (body.metadataKey) tokenPatch.metadata_key = keyBytes(body.metadataKey);
  }
  store.token.change([tokenId], t, tokenPatch);
}

export function handleTokenDelete({ item, store }: HandlerContext): void {
  const tokenId = entityIdOf(item.body.tokenDeletion!.token);
  if (tokenId !== null) store.entity.change([tokenId], item.consensusNs, { deleted: true });
}

export function handleTokenPause({ item, store }: HandlerContext): void {
  const tokenId = entityIdOf(item.body.tokenPause!.token);
  if (tokenId !== null) store.token.change([tokenId], item.consensusNs, { pause_status: "PAUSED" });
}

export function handleTokenUnpause({ item, store }: HandlerContext): void {
  const tokenId = entityIdOf(item.body.tokenUnpause!.token);
  if (tokenId !== null) store.token.change([tokenId], item.consensusNs, { pause_status: "UNPAUSED" });
}

export function handleTokenFeeScheduleUpdate({ item, store }: HandlerContext): void {
  const body = item.body.tokenFeeScheduleUpdate!;
  const tokenId = entityIdOf(body.tokenId);
  if (tokenId === null) return;
  const fees = customFeesOf(body.customFees, tokenId);
  store.customFee.create([tokenId], item.consensusNs, { fees: encodeCustomFees(fees) });
}

export function handleTokenMint({ item, store }: HandlerContext): void {
  const body = item.body.tokenMint!;
  const tokenId = entityIdOf(body.token);
  if (tokenId === null) return;
  const t = item.consensusNs;
  store.setSupply(tokenId, t, toBigInt(item.record.receipt?.newTotalSupply));
  const serials = item.record.receipt?.serialNumbers ?? [];
  serials.forEach((serial, index) => {
    // The owner is set by the record's NFT transfer (no sender → treasury), applied after this handler.
    store.nft.create([tokenId, toBigInt(serial)], t, {
      account_id: null,
      created_ns: t,
      deleted: false,
      metadata: body.metadata?.[index] ?? null,
      spender: null,
      delegating_spender: null,
    });
  });
}

/** Burn and wipe: the supply comes from the receipt; every named serial ends (owner and spenders cleared). */
export function handleTokenBurnOrWipe({ item, store }: HandlerContext): void {
  const body = item.body.tokenBurn ?? item.body.tokenWipe!;
  const tokenId = entityIdOf(body.token);
  if (tokenId === null) return;
  const t = item.consensusNs;
  store.setSupply(tokenId, t, toBigInt(item.record.receipt?.newTotalSupply));
  for (const serial of body.serialNumbers ?? []) {
    store.nft.change([tokenId, toBigInt(serial)], t, {
      deleted: true,
      account_id: null,
      spender: null,
      delegating_spender: null,
    });
  }
}

/** Normalizes a HAPI fee list the way the mirror node stores it. */
export function customFeesOf(
  fees: readonly proto.ICustomFee[] | null | undefined,
  tokenId: bigint,
): CustomFeeValue[] {
  const result: CustomFeeValue[] = [];
  for (const fee of fees ?? []) {
    const collectorId = entityIdOf(fee.feeCollectorAccountId);
    const allCollectorsAreExempt = fee.allCollectorsAreExempt ?? false;
    if (fee.fixedFee) {
      result.push({
        kind: "fixed",
        amount: toBigInt(fee.fixedFee.amount),
        collectorId,
        denominatingTokenId: denominationOf(fee.fixedFee.denominatingTokenId, tokenId),
        allCollectorsAreExempt,
      });
    } else if (fee.fractionalFee) {
      const f = fee.fractionalFee;
      const maximum = toBigInt(f.maximumAmount);
      result.push({
        kind: "fractional",
        numerator: toBigInt(f.fractionalAmount?.numerator),
        denominator: toBigInt(f.fractionalAmount?.denominator),
        minimum: toBigInt(f.minimumAmount),
        maximum: maximum === 0n ? null : maximum,
        netOfTransfers: f.netOfTransfers ?? false,
        collectorId,
        allCollectorsAreExempt,
      });
    } else if (fee.royaltyFee) {
      const r = fee.royaltyFee;
      const fallbackAmount = toBigInt(r.fallbackFee?.amount);
      result.push({
        kind: "royalty",
        numerator: toBigInt(r.exchangeValueFraction?.numerator),
        denominator: toBigInt(r.exchangeValueFraction?.denominator),
        fallback:
          r.fallbackFee && fallbackAmount !== 0n
            ? {
                amount: fallbackAmount,
                denominatingTokenId: denominationOf(r.fallbackFee.denominatingTokenId, tokenId),
              }
            : null,
        collectorId,
        allCollectorsAreExempt,
      });
    }
  }
  return result;
}

/** A fee denominated in token 0.0.0 is, by HAPI convention, denominated in the token being created or updated. */
function denominationOf(id: proto.ITokenID | null | undefined, tokenId: bigint): bigint | null {
  if (id == null) return null;
  const encoded = entityIdOf(id);
  return encoded === 0n ? tokenId : encoded;
}

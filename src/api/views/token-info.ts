import { formatEntityId } from "../../ids.ts";
import type { CustomFeeValue } from "../../store/custom-fees.ts";
import type { TokenInfo } from "../../store/tokens.ts";
import { formatTimestamp } from "../../time.ts";
import { keyView } from "./keys.ts";

const NANOS_PER_SECOND = 1_000_000_000n;

/** Standard base64 of token or NFT metadata; `""` when there is none. */
export function base64(bytes: Uint8Array | null | undefined): string {
  if (bytes == null || bytes.length === 0) return "";
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** `GET /api/v1/tokens/{tokenId}`: fields in the order the mirror node prints them. */
export function tokenInfoView({ token, entity, customFees, totalSupply }: TokenInfo) {
  const createdNs = entity.created_ns ?? token.created_ns;
  const expiryNs =
    entity.expiration_ns ??
    (createdNs !== null && entity.auto_renew_period !== null
      ? createdNs + entity.auto_renew_period * NANOS_PER_SECOND
      : null);
  const modifiedNs = token.valid_from > entity.valid_from ? token.valid_from : entity.valid_from;
  return {
    admin_key: keyView(entity.key),
    auto_renew_account: formatEntityId(entity.auto_renew_account_id),
    auto_renew_period: entity.auto_renew_period,
    created_timestamp: formatTimestamp(token.created_ns),
    custom_fees: customFeesView(customFees.createdNs, customFees.fees, token.id, token.type),
    decimals: token.decimals.toString(),
    deleted: entity.deleted === null ? null : entity.deleted !== 0n,
    expiry_timestamp: expiryNs,
    fee_schedule_key: keyView(token.fee_schedule_key),
    freeze_default: token.freeze_default !== 0n,
    freeze_key: keyView(token.freeze_key),
    initial_supply: token.initial_supply.toString(),
    kyc_key: keyView(token.kyc_key),
    max_supply: token.max_supply.toString(),
    memo: entity.memo,
    metadata: base64(token.metadata),
    metadata_key: keyView(token.metadata_key),
    modified_timestamp: formatTimestamp(modifiedNs),
    name: token.name,
    pause_key: keyView(token.pause_key),
    pause_status: token.pause_status,
    supply_key: keyView(token.supply_key),
    supply_type: token.supply_type,
    symbol: token.symbol,
    token_id: formatEntityId(token.id),
    total_supply: totalSupply.toString(),
    treasury_account_id: formatEntityId(token.treasury_id),
    type: token.type,
    wipe_key: keyView(token.wipe_key),
  };
}

/**
 * The fee schedule: fixed fees always; fractional fees for fungible tokens, royalty fees for non-fungible ones
 * (the other list is absent, not empty). Fees keep the order of the transaction that set them.
 */
function customFeesView(createdNs: bigint, fees: readonly CustomFeeValue[], tokenId: bigint, type: string) {
  const fixed = [];
  const fractional = [];
  const royalty = [];
  for (const fee of fees) {
    if (fee.kind === "fixed") {
      fixed.push({
        all_collectors_are_exempt: fee.allCollectorsAreExempt,
        amount: fee.amount,
        collector_account_id: formatEntityId(fee.collectorId),
        denominating_token_id: formatEntityId(fee.denominatingTokenId),
      });
    } else if (fee.kind === "fractional") {
      fractional.push({
        all_collectors_are_exempt: fee.allCollectorsAreExempt,
        amount: { numerator: fee.numerator, denominator: fee.denominator },
        collector_account_id: formatEntityId(fee.collectorId),
        denominating_token_id: formatEntityId(tokenId),
        maximum: fee.maximum,
        minimum: fee.minimum,
        net_of_transfers: fee.netOfTransfers,
      });
    } else {
      royalty.push({
        all_collectors_are_exempt: fee.allCollectorsAreExempt,
        amount: { denominator: fee.denominator, numerator: fee.numerator },
        collector_account_id: formatEntityId(fee.collectorId),
        fallback_fee:
          fee.fallback === null
            ? null
            : {
                amount: fee.fallback.amount,
                denominating_token_id: formatEntityId(fee.fallback.denominatingTokenId),
              },
      });
    }
  }
  const view: Record<string, unknown> = { created_timestamp: formatTimestamp(createdNs), fixed_fees: fixed };
  if (type === "NON_FUNGIBLE_UNIQUE") view.royalty_fees = royalty;
  else view.fractional_fees = fractional;
  return view;
}

import { entityIdOf } from "../../ids.ts";
import { encodeCustomFees, type FixedFeeValue } from "../../store/custom-fees.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { timestampToNs } from "../../time.ts";
import type { HandlerContext } from "./context.ts";
import { keyBytes } from "./keys.ts";

/** A topic's fixed custom fees (HIP-991) in the custom_fee encoding; a topic has no other kind. */
function topicFeesOf(fees: readonly proto.IFixedCustomFee[] | null | undefined): string {
  const values: FixedFeeValue[] = [];
  for (const fee of fees ?? []) {
    if (fee.fixedFee == null) continue;
    values.push({
      kind: "fixed",
      amount: toBigInt(fee.fixedFee.amount),
      collectorId: entityIdOf(fee.feeCollectorAccountId),
      denominatingTokenId: entityIdOf(fee.fixedFee.denominatingTokenId),
      allCollectorsAreExempt: false,
    });
  }
  return encodeCustomFees(values);
}

function exemptKeysOf(keys: readonly proto.IKey[] | null | undefined): Uint8Array | null {
  if (keys == null || keys.length === 0) return null;
  return proto.FeeExemptKeyList.encode({ keys: [...keys] }).finish();
}

export function handleConsensusCreateTopic({ item, store }: HandlerContext): void {
  const body = item.body.consensusCreateTopic!;
  const topicId = entityIdOf(item.record.receipt?.topicID);
  if (topicId === null) return;
  const t = item.consensusNs;
  store.topic.create([topicId], t, {
    created_ns: t,
    deleted: false,
    memo: body.memo ?? "",
    admin_key: keyBytes(body.adminKey),
    submit_key: keyBytes(body.submitKey),
    fee_schedule_key: keyBytes(body.feeScheduleKey),
    fee_exempt_keys: exemptKeysOf(body.feeExemptKeyList),
    custom_fees: topicFeesOf(body.customFees),
    // The create always sets a fee schedule, an empty one too (the mirror node writes its custom_fee row).
    custom_fees_ns: t,
    auto_renew_account_id: entityIdOf(body.autoRenewAccount),
    auto_renew_period: body.autoRenewPeriod ? toBigInt(body.autoRenewPeriod.seconds) : null,
    expiration_ns: null,
  });
}

/** Only the fields an update sets change; a wrapper message that is present replaces the whole list. */
export function handleConsensusUpdateTopic({ item, store }: HandlerContext): void {
  const body = item.body.consensusUpdateTopic!;
  const topicId = entityIdOf(body.topicID);
  if (topicId === null) return;
  const patch: Record<string, unknown> = {};
  if (body.memo) patch.memo = body.memo.value ?? "";
  if (body.adminKey) patch.admin_key = keyBytes(body.adminKey);
  if (body.submitKey) patch.submit_key = keyBytes(body.submitKey);
  if (body.feeScheduleKey) patch.fee_schedule_key = keyBytes(body.feeScheduleKey);
  if (body.feeExemptKeyList) patch.fee_exempt_keys = exemptKeysOf(body.feeExemptKeyList.keys);
  if (body.customFees) {
    patch.custom_fees = topicFeesOf(body.customFees.fees);
    patch.custom_fees_ns = item.consensusNs;
  }
  if (body.autoRenewAccount) patch.auto_renew_account_id = entityIdOf(body.autoRenewAccount);
  if (body.autoRenewPeriod) patch.auto_renew_period = toBigInt(body.autoRenewPeriod.seconds);
  if (body.expirationTime) patch.expiration_ns = timestampToNs(body.expirationTime);
  store.topic.change([topicId], item.consensusNs, patch);
}

export function handleConsensusDeleteTopic({ item, store }: HandlerContext): void {
  const topicId = entityIdOf(item.body.consensusDeleteTopic!.topicID);
  if (topicId !== null) store.topic.change([topicId], item.consensusNs, { deleted: true });
}

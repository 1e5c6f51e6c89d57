/**
 * The schedules group (shared/reference/schedules.md §3): a successful ScheduleCreate opens a schedule and keeps
 * its signatures, a successful ScheduleSign adds signatures, a successful ScheduleDelete marks the schedule
 * deleted, and any record that names a schedule in `scheduleRef` (its transaction's execution, failed or not)
 * sets the schedule's execution time. Record files and blocks reach these the same way (ingest/decode.ts).
 */
import { entityIdOf } from "../../ids.ts";
import { MAX_INT64 } from "../../int64.ts";
import { readSignaturePairs } from "../../streams/signature-map.ts";
import { lastField } from "../../streams/transaction-body-bytes.ts";
import { timestampToNs } from "../../time.ts";
import type { DecodedItem } from "../decode.ts";
import type { HandlerContext } from "./context.ts";
import { keyBytes } from "./keys.ts";

const MIN_INT64 = -(1n << 63n);
/** `ScheduleCreateTransactionBody.scheduledTransactionBody`. */
const SCHEDULED_TRANSACTION_BODY = 1;

export function handleScheduleCreate({ item, store, parent }: HandlerContext): void {
  const scheduleId = entityIdOf(item.record.receipt?.scheduleID);
  if (scheduleId === null) return;
  const body = item.body.scheduleCreate!;
  const creatorId = ethereumSenderOf(parent) ?? item.payerId;
  // A payer that names no account (absent, 0.0.0, an alias) leaves the creator paying, as upstream reads it.
  const payerId = entityIdOf(body.payerAccountID);
  store.schedules.create({
    scheduleId,
    consensusNs: item.consensusNs,
    creatorId,
    payerId: payerId === null || payerId === 0n ? creatorId : payerId,
    expirationNs: body.expirationTime == null ? null : saturatedNs(body.expirationTime),
    waitForExpiry: body.waitForExpiry === true,
    memo: body.memo ?? "",
    adminKey: keyBytes(body.adminKey),
    transactionBody: scheduledBodyBytes(item),
  });
  keepSignatures(item, scheduleId, store);
}

export function handleScheduleSign({ item, store }: HandlerContext): void {
  const scheduleId = entityIdOf(item.body.scheduleSign?.scheduleID);
  if (scheduleId !== null) keepSignatures(item, scheduleId, store);
}

export function handleScheduleDelete({ item, store }: HandlerContext): void {
  const scheduleId = entityIdOf(item.body.scheduleDelete?.scheduleID);
  if (scheduleId !== null) store.schedules.deleted(scheduleId, item.consensusNs);
}

/**
 * Any record carrying `scheduleRef`, whatever its status: the schedule's transaction ran at this consensus time.
 * A schedule created before the first indexed file is not known, and stays unknown.
 */
export function applyScheduleExecution({ item, store }: HandlerContext): void {
  if (!item.recordFields.hasScheduleRef) return;
  const scheduleId = entityIdOf(item.record.scheduleRef);
  if (scheduleId !== null) store.schedules.executed(scheduleId, item.consensusNs);
}

/**
 * A schedule created from the EVM by an Ethereum transaction (its child record) is the Ethereum sender's: the
 * parent's contract result names it. Null for any other parent, or one naming no account.
 */
function ethereumSenderOf(parent: DecodedItem | undefined): bigint | null {
  if (parent?.bodyCase !== "ethereumTransaction") return null;
  const result = parent.record.contractCallResult ?? parent.record.contractCreateResult;
  const sender = entityIdOf(result?.senderId);
  return sender === null || sender === 0n ? null : sender;
}

function keepSignatures(item: DecodedItem, scheduleId: bigint, store: HandlerContext["store"]): void {
  const sigMap = item.signatureMap;
  if (sigMap === null) return;
  const pairs = readSignaturePairs(sigMap);
  if (pairs.length > 0) store.schedules.addSignatures(scheduleId, item.consensusNs, pairs);
}

/**
 * The `SchedulableTransactionBody` bytes exactly as the body carried them (not re-encoded: a decoder would drop
 * fields it does not know). Empty when the body has none.
 */
function scheduledBodyBytes(item: DecodedItem): Uint8Array {
  const { dataStart, dataEnd } = item.bodyFields;
  if (dataStart < 0) return new Uint8Array();
  const create = item.bodyBytes.subarray(dataStart, dataEnd);
  return (
    lastField(create, SCHEDULED_TRANSACTION_BODY, "ScheduleCreateTransactionBody") ?? new Uint8Array()
  ).slice();
}

/** Seconds and nanos as int64 nanoseconds, saturating at the int64 maximum as the mirror node does. */
function saturatedNs(ts: Parameters<typeof timestampToNs>[0]): bigint {
  const ns = timestampToNs(ts);
  return ns > MAX_INT64 || ns < MIN_INT64 ? MAX_INT64 : ns;
}

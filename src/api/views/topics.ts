/**
 * Views of the topics group: a consensus message (`rest/viewmodel/topicMessageViewModel.js`) and a topic (the
 * Java service's `TopicMapper`), fields in the order the mirror node prints them.
 */
import { formatEntityId } from "../../ids.ts";
import type { TopicMessageRecord, TopicRow } from "../../store/topics.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { formatTimestamp } from "../../time.ts";
import { toJson } from "../json.ts";
import { javaTimestamp } from "./java-numbers.ts";
import { javaKeyView } from "./keys.ts";

/**
 * `"shard.realm.num"` of a HAPI entity id as upstream's view prints a decoded one: null when it names no
 * number (an alias, an absent id) or is all zero.
 */
function protoEntityId(id: proto.IAccountID | null | undefined): string | null {
  if (id == null || id.accountNum == null) return null;
  const shard = toBigInt(id.shardNum);
  const realm = toBigInt(id.realmNum);
  const num = toBigInt(id.accountNum);
  return shard === 0n && realm === 0n && num === 0n ? null : `${shard}.${realm}.${num}`;
}

/**
 * `chunk_info`: the initial transaction id decoded from the body's bytes (`nonce` 0 and `scheduled` false when
 * unset, as protobuf decodes them), or, for a chunk that names none, the message's own payer and valid start
 * with `nonce` and `scheduled` null.
 */
function chunkInfoView(record: TopicMessageRecord) {
  let initial: {
    account_id: string | null;
    nonce: number | null;
    scheduled: boolean | null;
    transaction_valid_start: string | null;
  };
  if (record.initialTransactionId !== null) {
    const id = proto.TransactionID.decode(record.initialTransactionId);
    const start = id.transactionValidStart;
    initial = {
      account_id: protoEntityId(id.accountID),
      nonce: id.nonce ?? 0,
      scheduled: id.scheduled ?? false,
      transaction_valid_start:
        start == null ? null : `${toBigInt(start.seconds)}.${String(start.nanos ?? 0).padStart(9, "0")}`,
    };
  } else {
    initial = {
      account_id: formatEntityId(record.payerId),
      nonce: null,
      scheduled: null,
      transaction_valid_start: record.validStartNs === null ? null : formatTimestamp(record.validStartNs),
    };
  }
  return { initial_transaction_id: initial, number: record.chunkNum, total: record.chunkTotal };
}

/**
 * One message as JSON text, fields in upstream's order; `utf8` shows its bytes as UTF-8 text (invalid sequences
 * become U+FFFD) instead of base64. Written directly rather than through `toJson`: pages of messages are the
 * bulk of what a mirror serves, and base64, timestamps, ids and numbers need no escaping.
 */
export function topicMessageJson(
  record: TopicMessageRecord,
  utf8 = false,
  idText: (id: bigint) => string = quotedId,
): string {
  const chunkInfo = record.chunkNum === null ? "null" : toJson(chunkInfoView(record));
  const message = utf8
    ? JSON.stringify(Buffer.from(record.messageBase64, "base64").toString("utf8"))
    : `"${record.messageBase64}"`;
  return (
    `{"chunk_info":${chunkInfo},"consensus_timestamp":"${formatTimestamp(record.consensusNs)}",` +
    `"message":${message},"payer_account_id":${idText(record.payerId)},` +
    `"running_hash":"${record.runningHashBase64}","running_hash_version":${record.runningHashVersion},` +
    `"sequence_number":${record.sequenceNumber},"topic_id":${idText(record.topicId)}}`
  );
}

/** A page of messages with its next link, as JSON text. */
export function topicMessagesJson(
  records: readonly TopicMessageRecord[],
  utf8: boolean,
  next: string | null,
) {
  // A page's messages share their topic and often their payers: each id is formatted once.
  const ids = new Map<bigint, string>();
  const idText = (id: bigint) => {
    let text = ids.get(id);
    if (text === undefined) {
      text = quotedId(id);
      ids.set(id, text);
    }
    return text;
  };
  let out = '{"messages":[';
  for (let i = 0; i < records.length; i++)
    out += (i === 0 ? "" : ",") + topicMessageJson(records[i]!, utf8, idText);
  return `${out}],"links":{"next":${next === null ? "null" : JSON.stringify(next)}}}`;
}

function quotedId(id: bigint): string {
  const text = formatEntityId(id);
  return text === null ? "null" : `"${text}"`;
}

/** The fee-exempt keys: each key of the stored `KeyList` (as a Java key), `[]` for none. */
function exemptKeysView(bytes: Buffer | null) {
  if (bytes === null || bytes.length === 0) return [];
  return (proto.KeyList.decode(bytes).keys ?? []).map((key) => javaKeyView(proto.Key.encode(key).finish()));
}

/** `GET /api/v1/topics/{topicId}` (Java): the topic's current version. */
export function topicView(row: TopicRow) {
  const fixedFees = [];
  for (const fee of row.customFees) {
    if (fee.kind !== "fixed") continue;
    fixedFees.push({
      amount: fee.amount,
      collector_account_id: formatEntityId(fee.collectorId),
      denominating_token_id: formatEntityId(fee.denominatingTokenId),
    });
  }
  return {
    admin_key: javaKeyView(row.adminKey),
    auto_renew_account: formatEntityId(row.autoRenewAccountId),
    auto_renew_period: row.autoRenewPeriod,
    created_timestamp: javaTimestamp(row.createdNs),
    // A fee schedule never recorded reads as upstream's placeholder, which starts at 0.
    custom_fees: { created_timestamp: javaTimestamp(row.customFeesNs ?? 0n), fixed_fees: fixedFees },
    deleted: row.deleted,
    fee_exempt_key_list: exemptKeysView(row.feeExemptKeys),
    fee_schedule_key: javaKeyView(row.feeScheduleKey),
    memo: row.memo,
    submit_key: javaKeyView(row.submitKey),
    timestamp: { from: javaTimestamp(row.validFrom), to: null },
    topic_id: formatEntityId(row.id),
  };
}

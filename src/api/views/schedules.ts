/**
 * The schedule object of `/api/v1/schedules` and `/api/v1/schedules/{id}` (upstream `formatScheduleRow`), keys
 * in upstream's order: only `deleted` is out of alphabetical place.
 */
import { formatEntityId } from "../../ids.ts";
import type { ScheduleRow, ScheduleSignatureRow } from "../../store/schedules.ts";
import { formatTimestamp } from "../../time.ts";
import { keyView } from "./keys.ts";

/** `rest/model/signatureType.js`: the SignaturePair oneof field number's name. */
const SIGNATURE_TYPES: Readonly<Record<number, string>> = {
  2: "CONTRACT",
  3: "ED25519",
  4: "RSA_3072",
  5: "ECDSA_384",
  6: "ECDSA_SECP256K1",
};

/** PostgreSQL's `encode(…, 'base64')` breaks its output with a line feed after every 76 characters. */
const MIME_LINE = 76;

/**
 * Base64 as upstream's SQL renders the signature parts (standard alphabet, padded, MIME line breaks): a 64-byte
 * signature comes out as 76 characters, a line feed, and 12 more.
 */
export function postgresBase64(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  if (text.length <= MIME_LINE) return text;
  const lines: string[] = [];
  for (let at = 0; at < text.length; at += MIME_LINE) lines.push(text.slice(at, at + MIME_LINE));
  return lines.join("\n");
}

function signatureView(signature: ScheduleSignatureRow) {
  return {
    consensus_timestamp: formatTimestamp(signature.consensusNs),
    public_key_prefix: postgresBase64(signature.publicKeyPrefix),
    signature: postgresBase64(signature.signature),
    type: SIGNATURE_TYPES[signature.type] ?? "UNKNOWN",
  };
}

export function scheduleView(row: ScheduleRow) {
  return {
    admin_key: keyView(row.adminKey),
    deleted: row.deleted,
    consensus_timestamp: formatTimestamp(row.createdNs),
    creator_account_id: formatEntityId(row.creatorId),
    executed_timestamp: row.executedNs === null ? null : formatTimestamp(row.executedNs),
    expiration_time: row.expirationNs === null ? null : formatTimestamp(row.expirationNs),
    memo: row.memo,
    payer_account_id: formatEntityId(row.payerId),
    schedule_id: formatEntityId(row.id),
    signatures: row.signatures.map(signatureView),
    transaction_body: row.transactionBody.toString("base64"),
    wait_for_expiry: row.waitForExpiry,
  };
}

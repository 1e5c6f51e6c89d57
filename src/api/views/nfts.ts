import { formatEntityId } from "../../ids.ts";
import { transactionTypeName } from "../../ingest/transaction-types.ts";
import type { NftEvent, NftRow } from "../../store/nfts.ts";
import { formatTimestamp } from "../../time.ts";

const NANOS_PER_SECOND = 1_000_000_000n;

/** An NFT as `/nfts` and `/nfts/{serialNumber}` show it, fields in the mirror node's order. */
export function nftView(row: NftRow) {
  return {
    account_id: formatEntityId(row.account_id),
    created_timestamp: row.created_ns === null ? null : formatTimestamp(row.created_ns),
    delegating_spender: formatEntityId(row.delegating_spender),
    deleted: row.deleted !== 0n,
    // Unlike token metadata, NFT metadata the mirror never saw stays null rather than "".
    metadata: row.metadata === null ? null : Buffer.from(row.metadata).toString("base64"),
    modified_timestamp: formatTimestamp(row.valid_from),
    serial_number: row.serial,
    spender: formatEntityId(row.spender),
    token_id: formatEntityId(row.token_id),
  };
}

/** One entry of `/nfts/{serialNumber}/transactions`, fields in the mirror node's order. */
export function nftEventView(event: NftEvent) {
  return {
    consensus_timestamp: formatTimestamp(event.consensus_ns),
    nonce: event.nonce,
    transaction_id: transactionIdOf(event.payer_id, event.valid_start_ns),
    type: transactionTypeName(Number(event.type)),
    is_approval: event.is_approval,
    receiver_account_id: formatEntityId(event.receiver_id),
    sender_account_id: formatEntityId(event.sender_id),
  };
}

/** `<payer>-<valid start seconds>-<valid start nanoseconds, 9 digits>`. */
function transactionIdOf(payerId: bigint, validStartNs: bigint): string {
  const seconds = validStartNs / NANOS_PER_SECOND;
  const nanos = (validStartNs % NANOS_PER_SECOND).toString().padStart(9, "0");
  return `${formatEntityId(payerId)}-${seconds}-${nanos}`;
}

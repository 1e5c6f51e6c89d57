/**
 * Hooks, hook storage and registered nodes as upstream's Java mappers write them (`HookMapper`,
 * `HookStorageMapper`, `RegisteredNodeMapper`): keys in the OpenAPI property order, absent values as null.
 */
import { formatEntityId } from "../../ids.ts";
import type { HookRow, HookStorageRow, RegisteredNodeRow } from "../../store/hooks.ts";
import { javaTimestamp as formatTimestamp } from "./java-numbers.ts";
import { javaKeyView } from "./keys.ts";

const nullableTime = (ns: bigint | null) => (ns === null ? null : formatTimestamp(ns));

export function hookView(row: HookRow, ownerId: bigint) {
  return {
    admin_key: javaKeyView(row.admin_key),
    contract_id: row.contract_id === null ? null : formatEntityId(row.contract_id),
    created_timestamp: nullableTime(row.created_ns),
    deleted: row.deleted === 1n,
    extension_point: "ACCOUNT_ALLOWANCE_HOOK",
    hook_id: row.hook_id,
    owner_id: formatEntityId(ownerId),
    timestamp_range: { from: formatTimestamp(row.valid_from), to: null },
    type: "EVM",
  };
}

/** `0x` + the bytes in hex, left-padded with zeros to 64 digits. */
export function slotHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString("hex").padStart(64, "0")}`;
}

export function hookStorageView(row: HookStorageRow) {
  return {
    key: slotHex(row.key),
    // A read without a write (hook executions log reads) has no value.
    value: row.value === null ? null : slotHex(row.value),
    timestamp: formatTimestamp(row.timestamp_ns),
  };
}

export function registeredNodeView(row: RegisteredNodeRow) {
  return {
    admin_key: javaKeyView(row.admin_key),
    created_timestamp: nullableTime(row.created_ns),
    description: row.description,
    registered_node_id: row.registered_node_id,
    service_endpoints: JSON.parse(row.service_endpoints) as unknown[],
    timestamp: { from: formatTimestamp(row.valid_from), to: null },
  };
}

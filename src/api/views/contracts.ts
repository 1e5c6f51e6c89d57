/**
 * The contract object (contracts.md §2.3), in upstream's key order: the list item, and the single answer with
 * `bytecode` and `runtime_bytecode` appended.
 */
import { decodeEntityId, formatEntityId } from "../../ids.ts";
import type { ContractDetailRow, ContractRow } from "../../store/contracts.ts";
import { formatTimestamp } from "../../time.ts";
import { entityAddress, hex } from "./evm-hex.ts";
import { keyView } from "./keys.ts";

const NS_PER_SECOND = 1_000_000_000n;

/** Files above 0.0.1000 are users' (upstream `isValidUserFileId`). */
export function isUserFile(fileId: bigint | null | undefined): fileId is bigint {
  return fileId != null && decodeEntityId(fileId).num > 1000n;
}

function expiration(row: ContractRow): string | null {
  if (row.expirationNs !== null) return formatTimestamp(row.expirationNs);
  if (row.createdNs !== null && row.autoRenewPeriod !== null) {
    return formatTimestamp(row.createdNs + row.autoRenewPeriod * NS_PER_SECOND);
  }
  return null;
}

/** One item of `/contracts`. */
export function contractView(row: ContractRow) {
  return {
    admin_key: keyView(row.key),
    auto_renew_account: formatEntityId(row.autoRenewAccountId),
    auto_renew_period: row.autoRenewPeriod,
    contract_id: formatEntityId(row.id),
    created_timestamp: row.createdNs === null ? null : formatTimestamp(row.createdNs),
    deleted: row.deleted,
    evm_address: entityAddress(row.evmAddress, row.id),
    expiration_timestamp: expiration(row),
    file_id: formatEntityId(row.fileId),
    max_automatic_token_associations: row.maxAutomaticTokenAssociations,
    memo: row.memo,
    nonce: row.ethereumNonce,
    obtainer_id: formatEntityId(row.obtainerId),
    permanent_removal: row.permanentRemoval,
    proxy_account_id: formatEntityId(row.proxyAccountId),
    timestamp: {
      from: formatTimestamp(row.validFrom),
      to: row.validTo === null ? null : formatTimestamp(row.validTo),
    },
  };
}

/**
 * `/contracts/{id}`: the object plus `bytecode` (the user file's contents as of creation read as text, with `0x`
 * added unless present; else the initcode) and `runtime_bytecode`. `fileContents` is null when there is none.
 */
export function contractDetailView(row: ContractDetailRow, fileContents: Uint8Array | null) {
  let bytecode: string;
  if (isUserFile(row.fileId)) {
    const text = fileContents === null ? "" : Buffer.from(fileContents).toString("utf8");
    bytecode = text.startsWith("0x") ? text : `0x${text}`;
  } else {
    bytecode = hex(row.initcode);
  }
  return { ...contractView(row), bytecode, runtime_bytecode: hex(row.runtimeBytecode) };
}

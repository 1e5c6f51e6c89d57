/**
 * The `/contracts/{id}/state` item (contracts.md §6.2) and the action object of
 * `/contracts/results/{id}/actions` (§7).
 */
import { formatEntityId } from "../../ids.ts";
import type { ContractActionRow, ContractSlotRow } from "../../store/contract-state.ts";
import { formatTimestamp } from "../../time.ts";
import { entityAddress, hex, longZeroAddress, uint256 } from "./evm-hex.ts";

export function contractSlotView(row: ContractSlotRow) {
  return {
    address: entityAddress(row.contractEvmAddress, row.contractId),
    contract_id: formatEntityId(row.contractId),
    timestamp: formatTimestamp(row.consensusNs),
    slot: uint256(row.slot),
    value: uint256(row.value),
  };
}

const CALL_OPERATION_TYPES = [
  "UNKNOWN",
  "CALL",
  "CALLCODE",
  "DELEGATECALL",
  "STATICCALL",
  "CREATE",
  "CREATE2",
];
const CALL_TYPES = ["NO_ACTION", "CALL", "CREATE", "PRECOMPILE", "SYSTEM"];
const RESULT_DATA_TYPES: Readonly<Record<number, string>> = {
  11: "OUTPUT",
  12: "REVERT_REASON",
  13: "ERROR",
};

export function contractActionView(row: ContractActionRow) {
  const recipient = row.recipientAccount ?? row.recipientContract;
  const recipientType =
    row.recipientAccount !== null ? "ACCOUNT" : row.recipientContract !== null ? "CONTRACT" : null;
  const to =
    row.recipientAddress !== null && row.recipientAddress.length > 0
      ? `0x${Buffer.from(row.recipientAddress).toString("hex").padStart(40, "0")}`
      : longZeroAddress(recipient);
  return {
    call_depth: row.callDepth,
    call_operation_type: CALL_OPERATION_TYPES[row.callOperationType] ?? "UNKNOWN",
    call_type: CALL_TYPES[row.callType] ?? "NO_ACTION",
    caller: formatEntityId(row.caller),
    caller_type: row.callerType,
    from: longZeroAddress(row.caller),
    gas: row.gas,
    gas_used: row.gasUsed,
    index: row.index,
    input: hex(row.input),
    recipient: formatEntityId(recipient),
    recipient_type: recipientType,
    result_data: hex(row.resultData),
    result_data_type: RESULT_DATA_TYPES[row.resultDataType] ?? "OUTPUT",
    timestamp: formatTimestamp(row.consensusNs),
    to,
    value: row.value,
  };
}

/**
 * Contract result objects (contracts.md §3.4, §3.5, §5.2, §6.1) in upstream's key order: the list object of
 * `/contracts/{id}/results`, the detailed object of `/contracts/results` and the single-result answers (with
 * `logs` and `state_changes`), and the log and state-change objects inside them.
 */
import { formatEntityId } from "../../ids.ts";
import type {
  ContractLogRow,
  ContractResultRow,
  EthereumTransactionRow,
  StateChangeRow,
} from "../../store/contract-results.ts";
import { formatTimestamp } from "../../time.ts";
import {
  bloomHex,
  entityAddress,
  hex,
  hex32,
  longZeroAddress,
  qty,
  qtyInt,
  signedOf,
  uint256,
  unsignedOf,
} from "./evm-hex.ts";
import { resultName } from "./transactions.ts";

/** The block of a result: its hash (96 hex digits), number and gas used. */
export type ResultBlock = { readonly hash: string; readonly number: bigint; readonly gasUsed: bigint };

/** SUCCESS, FEE_SCHEDULE_FILE_PART_UPLOADED, SUCCESS_BUT_MISSING_EXPECTED_OPERATION. */
const SUCCESS_CODES = new Set([22, 104, 220]);
const WEIBARS_PER_TINYBAR = 10_000_000_000n;

/** `/contracts/{id}/results` items. */
export function contractResultView(row: ContractResultRow) {
  return {
    address: entityAddress(row.contractEvmAddress, row.contractId),
    amount: row.amount,
    bloom: bloomHex(row.bloom),
    call_result: hex(row.callResult),
    contract_id: formatEntityId(row.contractId),
    created_contract_ids: row.createdContractIds.map((id) => formatEntityId(id)),
    error_message: row.errorMessage === null || row.errorMessage === "" ? null : row.errorMessage,
    from: longZeroAddress(row.senderId),
    function_parameters: hex(row.functionParameters),
    gas_consumed: row.gasConsumed,
    gas_limit: row.gasLimit,
    gas_used: row.gasUsed,
    timestamp: formatTimestamp(row.consensusNs),
    to: longZeroAddress(row.contractId),
    hash: hex(row.transactionHash),
  };
}

/** The short log object (a result's `logs`). */
export function resultLogView(log: ContractLogRow) {
  return {
    address: entityAddress(log.contractEvmAddress, log.contractId),
    bloom: hex(log.bloom),
    contract_id: formatEntityId(log.contractId),
    data: hex32(log.data),
    index: log.index,
    topics: log.topics.filter((t): t is string => t !== null).map((t) => uint256OrZero(t)),
  };
}

function uint256OrZero(topic: string): string {
  return uint256(topic) ?? `0x${"0".repeat(64)}`;
}

/** The long log object (items of the two log lists). */
export function contractLogView(log: ContractLogRow, block: ResultBlock | undefined) {
  return {
    ...resultLogView(log),
    block_hash: block === undefined ? "0x" : `0x${block.hash}`,
    block_number: block === undefined ? null : block.number,
    root_contract_id: formatEntityId(log.rootContractId),
    timestamp: formatTimestamp(log.consensusNs),
    transaction_hash: hex(log.transactionHash),
    transaction_index: log.transactionIndex,
  };
}

/** A result's `state_changes` item. */
export function stateChangeView(change: StateChangeRow) {
  return {
    address: entityAddress(change.contractEvmAddress, change.contractId),
    contract_id: formatEntityId(change.contractId),
    slot: uint256(change.slot),
    value_read: uint256(change.valueRead),
    value_written: uint256(change.valueWritten),
  };
}

/** Weibar bytes as a tinybar quantity (`hbar=true`): `"0x"` when absent or empty. */
function tinybarQuantity(weibars: Buffer | null): string {
  if (weibars === null || weibars.length === 0) return "0x";
  return qtyInt(unsignedOf(weibars) / WEIBARS_PER_TINYBAR);
}

/** What the detailed object is built from besides the result row. */
export type ResultDetails = {
  readonly block: ResultBlock | undefined;
  readonly eth: EthereumTransactionRow | undefined;
  /** Single answers only (absent in the `/contracts/results` list). */
  readonly logs?: readonly ContractLogRow[];
  readonly stateChanges?: readonly StateChangeRow[];
  /** The contents of the Ethereum transaction's call data file (single answers), if it is a user file. */
  readonly callDataFile?: Uint8Array | null;
  /** Tinybars (true) or weibars. */
  readonly hbar: boolean;
  /** The list reads the Ethereum transaction without its call data and gas limit (contracts.md §3.5). */
  readonly list: boolean;
};

/** The detailed result object (contracts.md §3.5). */
export function contractResultDetailView(row: ContractResultRow, details: ResultDetails) {
  const { block, eth, hbar, list } = details;
  const base = contractResultView(row);
  const result = resultName(row.transactionResult);
  const successful = SUCCESS_CODES.has(row.transactionResult);
  const status = successful ? "0x1" : "0x0";
  const callData = list ? null : (eth?.callData ?? null);
  let failedInitcode: string | null = null;
  if (row.failedInitcode !== null && row.failedInitcode.length > 0) failedInitcode = hex(row.failedInitcode);
  else if (!successful && callData !== null && callData.length > 0) failedInitcode = hex(callData);

  const view: Record<string, unknown> = {
    ...base,
    block_hash: block === undefined ? "0x" : `0x${block.hash}`,
    block_number: block === undefined ? null : block.number,
    hash: base.hash,
    logs: details.logs?.map(resultLogView),
    result,
    transaction_index: row.transactionIndex,
    state_changes: details.stateChanges?.map(stateChangeView),
    status,
    failed_initcode: failedInitcode,
    access_list: null,
    block_gas_used: block === undefined || block.gasUsed === -1n ? null : block.gasUsed,
    chain_id: null,
    gas_price: null,
    max_fee_per_gas: null,
    max_priority_fee_per_gas: null,
    r: null,
    s: null,
    type: null,
    v: null,
    nonce: null,
  };
  if (eth === undefined) {
    if (!hbar) view.amount = row.amount * WEIBARS_PER_TINYBAR;
    return view;
  }
  view.access_list = hex(eth.accessList);
  view.chain_id = qty(eth.chainId);
  if (!successful && (row.errorMessage === null || row.errorMessage === "")) view.error_message = result;
  if (!list) view.gas_limit = eth.gasLimit;
  if (hbar) {
    view.amount =
      eth.value === null || eth.value.length === 0 ? null : signedOf(eth.value) / WEIBARS_PER_TINYBAR;
    view.gas_price = tinybarQuantity(eth.gasPrice);
    view.max_fee_per_gas = tinybarQuantity(eth.maxFeePerGas);
    view.max_priority_fee_per_gas = tinybarQuantity(eth.maxPriorityFeePerGas);
  } else {
    view.amount = eth.value === null ? 0n : unsignedOf(eth.value);
    view.gas_price = qty(eth.gasPrice);
    view.max_fee_per_gas = qty(eth.maxFeePerGas);
    view.max_priority_fee_per_gas = qty(eth.maxPriorityFeePerGas);
  }
  view.nonce = eth.nonce;
  view.r = hex(eth.signatureR);
  view.s = hex(eth.signatureS);
  if (eth.toAddress !== null && eth.toAddress.length > 0) view.to = hex(eth.toAddress);
  view.type = eth.type;
  view.v =
    eth.type === 0 && eth.signatureV !== null && eth.signatureV.length > 0
      ? unsignedOf(eth.signatureV)
      : eth.recoveryId;
  if (callData !== null && callData.length > 0) view.function_parameters = hex(callData);
  else if (row.functionParameters.length === 0 && details.callDataFile != null) {
    view.function_parameters = hex(details.callDataFile);
  }
  return view;
}

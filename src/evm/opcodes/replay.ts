/**
 * Replays a recorded contract transaction with the opcode logger (issue 28; upstream's web3 `OpcodeServiceImpl`
 * and `ContractDebugService`): the call is rebuilt from the indexed result (and its Ethereum transaction, if any)
 * and executed on the ledger as it stood one nanosecond before the transaction reached consensus, in its block. The
 * transactions before it in the same block are already in that state at their own times.
 */
import { formatEntityId } from "../../ids.ts";
import type { ContractResultRow, EthereumTransactionRow } from "../../store/contract-results.ts";
import type { EvmStateQueries } from "../../store/evm-state.ts";
import { longZeroAddress } from "../address.ts";
import { type BlockValues, type CallInput, executeCall, MAX_GAS } from "../execute.ts";
import { createStateView } from "../state-view.ts";
import { createOpcodeTrace, type OpcodeEntry, type TraceLimits, type TraceOptions } from "./tracer.ts";

/** HAPI `ContractCreate` (upstream's `CONTRACTCREATEINSTANCE`): its replay is a creation. */
const CONTRACT_CREATE_TYPE = 8;

/** Hedera charges at least this share of the gas limit (`contracts.maxRefundPercentOfGasLimit`, 20%). */
const MAX_REFUND_PERCENT = 20n;

export type ReplaySource = {
  result: ContractResultRow;
  eth: EthereumTransactionRow | undefined;
  /** The HAPI type of the transaction found by id; null when found by hash (upstream does not read it then). */
  transactionType: number | null;
};

/** The response body of `/opcodes` (upstream's `OpcodesResponse`). */
export type OpcodesResponse = {
  address: string;
  contract_id: string | null;
  gas: number;
  failed: boolean;
  return_value: string;
  opcodes: OpcodeEntry[];
};

export type ReplayOutcome =
  | { kind: "traced"; response: OpcodesResponse; truncated: boolean }
  /** The run reached a system contract (or a token's facade) that this server does not execute. */
  | { kind: "unsupported"; address: string };

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
const ZERO_ADDRESS = new Uint8Array(20);

/** The address upstream's `evmAddressFromId` gives an entity at an instant: its own EVM address, else long-zero. */
function evmAddressOf(queries: EvmStateQueries, id: bigint | null, atNs: bigint): Uint8Array {
  if (id === null || id === 0n) return ZERO_ADDRESS;
  return queries.entityAt(id, atNs)?.evmAddress ?? longZeroAddress(id);
}

/** The call the transaction made, as upstream's `buildCallServiceParameters` rebuilds it. */
function recordedCall(queries: EvmStateQueries, source: ReplaySource): CallInput {
  const { result, eth } = source;
  const atNs = result.consensusNs;
  let to: Uint8Array | null;
  if (eth !== undefined) {
    to = eth.toAddress === null || eth.toAddress.length === 0 ? null : new Uint8Array(eth.toAddress);
  } else if (source.transactionType === CONTRACT_CREATE_TYPE) {
    to = null;
  } else {
    to = evmAddressOf(queries, result.contractId, atNs);
  }
  // Call data offloaded to a file leaves the Ethereum row's empty; the result's function parameters hold it.
  const data =
    eth?.callData !== undefined && eth.callData !== null && eth.callData.length > 0
      ? eth.callData
      : Buffer.from(result.functionParameters, "hex");
  const gas = eth?.gasLimit ?? result.gasLimit;
  return {
    data: new Uint8Array(data),
    from: evmAddressOf(queries, result.senderId, atNs),
    to,
    gas: gas > MAX_GAS ? MAX_GAS : gas,
    gasPrice: 0n,
    // Tinybars, as the result records them (the Ethereum transaction's value is in weibars).
    value: result.amount,
  };
}

/** The account the transaction addressed, at its consensus time: its id and canonical address. */
function recipientOf(
  queries: EvmStateQueries,
  input: CallInput,
  result: ContractResultRow,
): { address: string; contractId: string | null } {
  const atNs = result.consensusNs;
  let id: bigint | null = null;
  if (input.to === null) id = result.contractId === 0n ? null : result.contractId;
  else if (input.to.some((byte) => byte !== 0))
    id = createStateView(queries, atNs).account(input.to)?.id ?? null;
  if (id === null) return { address: hex(ZERO_ADDRESS), contractId: null };
  return { address: hex(evmAddressOf(queries, id, atNs)), contractId: formatEntityId(id) };
}

/** The gas Hedera reports: what the run used less its refund, but at least 80% of the gas limit. */
function hederaGasUsed(used: bigint, refund: bigint, limit: bigint): bigint {
  const net = used - refund;
  const floor = limit - (limit * MAX_REFUND_PERCENT) / 100n;
  return net > floor ? net : floor;
}

export async function replayWithOpcodes(
  queries: EvmStateQueries,
  source: ReplaySource,
  block: BlockValues,
  chainId: bigint,
  options: TraceOptions,
  limits?: TraceLimits,
): Promise<ReplayOutcome> {
  const input = recordedCall(queries, source);
  // The state just before the transaction: everything up to the previous nanosecond, earlier ones of its block too.
  const view = createStateView(queries, source.result.consensusNs - 1n);
  const trace = createOpcodeTrace(options, limits);
  const outcome = await executeCall(view, block, chainId, input, trace.observer);
  if (outcome.kind === "unsupported") return outcome;
  const returned = outcome.kind === "success" ? outcome.output : outcome.revertData;
  const recipient = recipientOf(queries, input, source.result);
  return {
    kind: "traced",
    truncated: trace.truncated(),
    response: {
      address: recipient.address,
      contract_id: recipient.contractId,
      gas: Number(hederaGasUsed(outcome.gasUsed, trace.refund(), input.gas)),
      failed: outcome.kind !== "success",
      return_value: hex(returned),
      opcodes: trace.entries(),
    },
  };
}

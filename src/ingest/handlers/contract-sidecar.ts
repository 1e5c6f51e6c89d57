/**
 * The sidecar facts of one transaction (HIP-435: state changes, actions, bytecode; block streams derive the same
 * records from their trace data), written as upstream's importer writes them (contracts.md §2.4, §6.1, §7): one
 * state change row per storage change, a new version of the slot's value for every write, one action row per
 * action, and the contract's bytecode.
 */
import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { timestampToNs } from "../../time.ts";
import type { HandlerContext } from "./context.ts";
import { resolveContractId } from "./contract-ids.ts";

/** What the contract result itself takes from the sidecar records of its transaction. */
export type SidecarFacts = {
  /** Initcode of a non-migration bytecode record, if any. */
  initcode: Uint8Array | null;
  /** Whether a non-migration bytecode record exists (a contract was created). */
  createdBytecode: boolean;
  /** gas_used of the top-level action (call depth 0), null without actions. */
  topLevelGasUsed: bigint | null;
  /** Whether the top-level action is a CREATE. */
  topLevelCreates: boolean;
};

const EMPTY = new Uint8Array(0);
const SLOT_BYTES = 32;
/** Intrinsic gas: a transaction, each zero and non-zero payload byte, a contract creation. */
const TX_GAS = 21_000n;
const ZERO_BYTE_GAS = 4n;
const NON_ZERO_BYTE_GAS = 16n;
const CREATE_GAS = 32_000n;
/** `ContractAction.result_data` members' field numbers, which upstream stores as the result data type. */
const RESULT_DATA_TYPE = { output: 11, revertReason: 12, error: 13 } as const;

export function sidecarFacts(records: readonly proto.ITransactionSidecarRecord[]): SidecarFacts {
  const facts: SidecarFacts = {
    initcode: null,
    createdBytecode: false,
    topLevelGasUsed: null,
    topLevelCreates: false,
  };
  for (const record of records) {
    const bytecode = record.bytecode;
    if (bytecode != null && record.migration !== true) {
      facts.createdBytecode = true;
      if (bytecode.initcode != null && bytecode.initcode.length > 0) facts.initcode ??= bytecode.initcode;
    }
    for (const action of record.actions?.contractActions ?? []) {
      if ((action.callDepth ?? 0) !== 0 || facts.topLevelGasUsed !== null) continue;
      facts.topLevelGasUsed = toBigInt(action.gasUsed);
      facts.topLevelCreates = action.callType === proto.ContractActionType.CREATE;
    }
  }
  return facts;
}

/** Intrinsic gas of a payload (upstream's gas_consumed before HAPI 0.69 adds it to the top-level action's gas). */
export function intrinsicGas(payload: Uint8Array, creates: boolean): bigint {
  let gas = TX_GAS + (creates ? CREATE_GAS : 0n);
  for (const byte of payload) gas += byte === 0 ? ZERO_BYTE_GAS : NON_ZERO_BYTE_GAS;
  return gas;
}

export function applySidecarRecords(
  ctx: HandlerContext,
  records: readonly proto.ITransactionSidecarRecord[],
): void {
  let actionIndex = 0;
  for (const record of records) {
    const migration = record.migration === true;
    const t =
      record.consensusTimestamp == null ? ctx.item.consensusNs : timestampToNs(record.consensusTimestamp);
    for (const change of record.stateChanges?.contractStateChanges ?? [])
      writeStateChange(ctx, t, change, migration);
    for (const action of record.actions?.contractActions ?? []) writeAction(ctx, t, actionIndex++, action);
    if (record.bytecode != null) writeBytecode(ctx, record.bytecode, migration);
  }
}

function writeStateChange(
  ctx: HandlerContext,
  t: bigint,
  change: proto.IContractStateChange,
  migration: boolean,
): void {
  const { store, item } = ctx;
  const contractId = change.contractId == null ? null : resolveContractId(store, change.contractId);
  if (contractId === null) return;
  for (const storage of change.storageChanges ?? []) {
    const slot = storage.slot ?? EMPTY;
    const valueRead = storage.valueRead ?? EMPTY;
    const valueWritten = storage.valueWritten == null ? null : (storage.valueWritten.value ?? EMPTY);
    store.contracts.insertStateChange({
      consensusNs: t,
      contractId,
      slot,
      payerId: item.payerId,
      valueRead,
      valueWritten,
      migration,
    });
    const value = valueWritten ?? (migration ? valueRead : null);
    if (value === null) continue;
    const key = [contractId, padSlot(slot)];
    const current = store.contracts.state.current(key);
    store.contracts.state.create(key, t, { value, created_ns: current?.created_ns ?? t });
  }
}

/**
 * A slot as 32 bytes, left-padded with zeros (numeric order in the slot history's key). Always a plain Uint8Array
 * (never a Buffer): the versioned table's cache keys it by its string form, which for a Uint8Array lists the bytes.
 */
export function padSlot(slot: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.max(SLOT_BYTES, slot.length));
  padded.set(slot, padded.length - slot.length);
  return padded;
}

function writeAction(ctx: HandlerContext, t: bigint, index: number, action: proto.IContractAction): void {
  const callingContract = entityIdOf(action.callingContract);
  const callingAccount = entityIdOf(action.callingAccount);
  const resultData = action.output ?? action.revertReason ?? action.error ?? null;
  const resultDataType =
    action.revertReason != null
      ? RESULT_DATA_TYPE.revertReason
      : action.error != null
        ? RESULT_DATA_TYPE.error
        : RESULT_DATA_TYPE.output;
  ctx.store.contracts.insertAction({
    consensusNs: t,
    index,
    payerId: ctx.item.payerId,
    callDepth: action.callDepth ?? 0,
    callType: action.callType ?? 0,
    callOperationType: action.callOperationType ?? 0,
    caller: callingContract ?? callingAccount,
    callerType: callingContract !== null ? "CONTRACT" : callingAccount !== null ? "ACCOUNT" : null,
    gas: toBigInt(action.gas),
    gasUsed: toBigInt(action.gasUsed),
    value: toBigInt(action.value),
    input: action.input ?? null,
    recipientAccount: entityIdOf(action.recipientAccount),
    recipientContract: entityIdOf(action.recipientContract),
    recipientAddress: action.targetedAddress ?? null,
    resultData,
    resultDataType,
  });
}

/**
 * A created contract's bytecode (its initcode only when the ContractCreate body carried none); a migration record
 * replaces the runtime bytecode of a contract already known.
 */
function writeBytecode(ctx: HandlerContext, bytecode: proto.IContractBytecode, migration: boolean): void {
  const { store, item } = ctx;
  const id = bytecode.contractId == null ? null : resolveContractId(store, bytecode.contractId);
  if (id === null) return;
  const runtime =
    bytecode.runtimeBytecode != null && bytecode.runtimeBytecode.length > 0 ? bytecode.runtimeBytecode : null;
  if (migration) {
    if (runtime !== null && store.contracts.code(id) !== undefined)
      store.contracts.putCode({ id, fileId: null, initcode: null, runtimeBytecode: runtime });
    return;
  }
  if (!item.successful) return;
  const stored = store.contracts.code(id);
  const initcode =
    stored?.initcode == null && bytecode.initcode != null && bytecode.initcode.length > 0
      ? bytecode.initcode
      : null;
  store.contracts.putCode({ id, fileId: null, initcode, runtimeBytecode: runtime });
}

/**
 * Contract results of a block's transactions, as the mirror node importer's block transformers derive them
 * (`AbstractBlockTransactionTransformer.transformSmartContractResult`, `AbstractContractTransformer`): the EVM
 * transaction result of a contract call, create or Ethereum transaction output becomes the record's contract
 * call or create result; the logs of the EVM trace data become its log infos, each with its bloom, and the
 * result's bloom is theirs together; a created contract's EVM address comes from its account in state changes.
 * ContractUpdate and ContractDelete name their contract in the receipt, resolved from an EVM address if need be.
 */
import { CorruptFileError } from "../errors.ts";
import { OUTPUT, TRACE } from "./block-items.ts";
import type { StateChangeContext } from "./block-state-changes.ts";
import { BLOOM_BYTES, contractEvmAddress, logBloom, orBloom } from "./evm-bloom.ts";
import { toBigInt, toLong } from "./long.ts";
import { proto } from "./proto.ts";
import { WIRE_LENGTH_DELIMITED, WireReader } from "./protobuf-wire.ts";

/** A transaction output: which member of `TransactionOutput.transaction` it is, and that member's bytes. */
export type Output = { kind: number; bytes: Uint8Array };

/** `CallContractOutput`/`CreateContractOutput` field 1 and `EthereumOutput` fields 1 (call) and 2 (create). */
const EVM_RESULT = 1;
const ETHEREUM_CALL_RESULT = 1;
const ETHEREUM_CREATE_RESULT = 2;
/** `EVMTraceData.logs` and the fields of `EvmTransactionLog`. */
const EVM_TRACE_LOGS = 4;
const LOG = { contractId: 1, data: 2, topics: 3 } as const;

/** Sets the contract call or create result (and the receipt's contract) from the outputs and trace data. */
export function transformContractResult(
  name: string,
  record: proto.TransactionRecord,
  outputs: readonly Output[],
  traces: readonly Uint8Array[],
  context: () => StateChangeContext,
): void {
  const evm = evmResultOf(name, outputs);
  if (evm === null) return;
  let evmResult: proto.EvmTransactionResult;
  try {
    evmResult = proto.EvmTransactionResult.decode(evm.bytes);
  } catch (cause) {
    throw new CorruptFileError(
      name,
      `an EVM transaction result does not decode: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
  const receipt = record.receipt as proto.TransactionReceipt;
  const result = proto.ContractFunctionResult.create({
    contractCallResult: evmResult.resultData,
    errorMessage: evmResult.errorMessage,
    gasUsed: evmResult.gasUsed,
  });
  if (evmResult.contractNonces.length > 0) result.contractNonces = evmResult.contractNonces;
  if (evmResult.contractId != null) {
    result.contractID = evmResult.contractId;
    receipt.contractID = evmResult.contractId;
  }
  if (evmResult.senderId != null) result.senderId = evmResult.senderId;
  if (evmResult.signerNonce != null) result.signerNonce = evmResult.signerNonce;
  if (evm.create && evmResult.contractId != null) {
    const id = evmResult.contractId;
    const account = context().account({
      shardNum: id.shardNum,
      realmNum: id.realmNum,
      accountNum: id.contractNum,
    });
    if (account !== undefined && account.alias.length > 0) result.evmAddress = { value: account.alias };
  }
  const internal = evmResult.internalCallContext;
  if (internal != null) {
    if (internal.value != null) result.amount = internal.value;
    if (internal.callData != null) result.functionParameters = internal.callData;
    if (internal.gas != null) result.gas = internal.gas;
  }
  addLogs(name, result, traces);
  if (evm.create) record.contractCreateResult = result;
  else record.contractCallResult = result;
}

/** The EVM transaction result of a contract call, create or Ethereum output, and whether it created a contract. */
function evmResultOf(
  name: string,
  outputs: readonly Output[],
): { bytes: Uint8Array; create: boolean } | null {
  const find = (kind: number) => outputs.find((o) => o.kind === kind)?.bytes;
  const call = find(OUTPUT.contractCall);
  if (call !== undefined) return present(lastField(name, call, EVM_RESULT), false);
  const created = find(OUTPUT.contractCreate);
  if (created !== undefined) return present(lastField(name, created, EVM_RESULT), true);
  const ethereum = find(OUTPUT.ethereumCall);
  if (ethereum === undefined) return null;
  const ethereumCall = lastField(name, ethereum, ETHEREUM_CALL_RESULT);
  if (ethereumCall !== null) return { bytes: ethereumCall, create: false };
  return present(lastField(name, ethereum, ETHEREUM_CREATE_RESULT), true);
}

const present = (bytes: Uint8Array | null, create: boolean) => (bytes === null ? null : { bytes, create });

/** The logs of the EVM trace data as log infos, each with its bloom; the result's bloom is all of theirs. */
function addLogs(name: string, result: proto.ContractFunctionResult, traces: readonly Uint8Array[]): void {
  const logs: proto.ContractLoginfo[] = [];
  for (const trace of traces) {
    const evmTrace = lastField(name, trace, TRACE.evmTraceData);
    if (evmTrace === null) continue;
    const reader = new WireReader(name, evmTrace, "EVMTraceData");
    while (reader.pos < evmTrace.length) {
      const tag = reader.tag(evmTrace.length);
      if (tag >>> 3 === EVM_TRACE_LOGS && (tag & 7) === WIRE_LENGTH_DELIMITED)
        logs.push(logInfoOf(name, reader.lengthDelimited(evmTrace.length)));
      else reader.skip(tag & 7, evmTrace.length);
    }
  }
  if (logs.length === 0) return;
  const bloom = new Uint8Array(BLOOM_BYTES);
  for (const log of logs) orBloom(bloom, log.bloom);
  result.logInfo = logs;
  result.bloom = bloom;
}

function logInfoOf(name: string, bytes: Uint8Array): proto.ContractLoginfo {
  const reader = new WireReader(name, bytes, "EvmTransactionLog");
  let contractId: proto.ContractID | null = null;
  let data: Uint8Array = new Uint8Array();
  const topics: Uint8Array[] = [];
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if ((tag & 7) !== WIRE_LENGTH_DELIMITED) reader.skip(tag & 7, bytes.length);
    else if (field === LOG.contractId)
      contractId = proto.ContractID.decode(reader.lengthDelimited(bytes.length));
    else if (field === LOG.data) data = reader.lengthDelimited(bytes.length);
    else if (field === LOG.topics) topics.push(reader.lengthDelimited(bytes.length));
    else reader.skip(tag & 7, bytes.length);
  }
  const id = contractId ?? proto.ContractID.create();
  // Topics stay as the block gives them (leading zeros trimmed), as the importer keeps them; the bloom pads them.
  return proto.ContractLoginfo.create({
    contractID: id,
    bloom: logBloom(contractEvmAddress(id), topics),
    data,
    topic: topics,
  });
}

/** Long-zero EVM addresses: 12 zero bytes, then the entity number. */
const LONG_ZERO_PREFIX = 12;
const EVM_ADDRESS_BYTES = 20;

/**
 * The contract a ContractUpdate or ContractDelete names, for its receipt (`AbstractContractTransformer
 * .resolveEvmAddress`): its id as given; an EVM address in long-zero form read as the number in the same shard
 * and realm; any other EVM address looked up among the contracts in state changes (null: not found).
 */
export function resolveContractId(
  id: proto.IContractID,
  context: () => StateChangeContext,
): proto.IContractID | null {
  const address = id.evmAddress;
  if (address == null || address.length === 0) return id;
  const shard = toBigInt(id.shardNum);
  const realm = toBigInt(id.realmNum);
  if (
    address.length === EVM_ADDRESS_BYTES &&
    address.subarray(0, LONG_ZERO_PREFIX).every((b) => b === 0) &&
    shard === 0n &&
    realm === 0n
  ) {
    const num = new DataView(address.buffer, address.byteOffset + LONG_ZERO_PREFIX, 8).getBigUint64(0);
    return { shardNum: id.shardNum, realmNum: id.realmNum, contractNum: toLong(num) };
  }
  return context().contractIdByEvmAddress(address) ?? null;
}

/** The last occurrence of a length-delimited field, as a view (null: absent). */
function lastField(name: string, bytes: Uint8Array, field: number): Uint8Array | null {
  const reader = new WireReader(name, bytes, "output");
  let found: Uint8Array | null = null;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if (tag >>> 3 === field && (tag & 7) === WIRE_LENGTH_DELIMITED)
      found = reader.lengthDelimited(bytes.length);
    else reader.skip(tag & 7, bytes.length);
  }
  return found;
}

/** `EVMTraceData` fields beyond its logs, `ContractSlotUsage`, `SlotRead` and `ExecutedInitcode`. */
const EVM_TRACE = { executedInitcode: 1, contractActions: 2, contractSlotUsages: 3 } as const;
const SLOT_USAGE = { contractId: 1, impliedWrites: 2, writtenSlotKeys: 3, slotReads: 4 } as const;
const SLOT_READ = { index: 1, key: 2, readValue: 3 } as const;
const INITCODE = { contractId: 1, bookends: 2, explicit: 3, deploy: 1, metadata: 2 } as const;

/**
 * The sidecar records a record file would carry for this transaction, rebuilt from its EVM trace data as the
 * importer's block transformers do: actions as they stand; state changes from the slot usages (written keys
 * listed, or implied by the unit's storage state changes; written values from those state changes; reads with the
 * values read); the bytecode of a contract created with its executed initcode (runtime from the bytecode state
 * change, initcode explicit or as the bookends around the runtime).
 */
export function evmSidecarRecords(
  name: string,
  consensusTimestamp: proto.ITimestamp,
  traces: readonly Uint8Array[],
  context: () => StateChangeContext,
): proto.ITransactionSidecarRecord[] {
  const out: proto.ITransactionSidecarRecord[] = [];
  const actions: proto.IContractAction[] = [];
  const stateChanges: proto.IContractStateChange[] = [];
  for (const trace of traces) {
    const evmTrace = lastField(name, trace, TRACE.evmTraceData);
    if (evmTrace === null) continue;
    const reader = new WireReader(name, evmTrace, "EVMTraceData");
    while (reader.pos < evmTrace.length) {
      const tag = reader.tag(evmTrace.length);
      const field = tag >>> 3;
      if ((tag & 7) !== WIRE_LENGTH_DELIMITED) {
        reader.skip(tag & 7, evmTrace.length);
        continue;
      }
      const bytes = reader.lengthDelimited(evmTrace.length);
      if (field === EVM_TRACE.contractActions)
        actions.push(decodeOrFail(name, () => proto.ContractAction.decode(bytes)));
      else if (field === EVM_TRACE.contractSlotUsages) stateChanges.push(slotUsage(name, bytes, context));
      else if (field === EVM_TRACE.executedInitcode)
        out.push(executedInitcode(name, consensusTimestamp, bytes, context));
    }
  }
  if (stateChanges.length > 0)
    out.unshift({ consensusTimestamp, stateChanges: { contractStateChanges: stateChanges } });
  if (actions.length > 0) out.push({ consensusTimestamp, actions: { contractActions: actions } });
  return out;
}

function slotUsage(
  name: string,
  bytes: Uint8Array,
  context: () => StateChangeContext,
): proto.IContractStateChange {
  const reader = new WireReader(name, bytes, "ContractSlotUsage");
  let contractId: proto.IContractID = {};
  let explicit: Uint8Array[] | null = null;
  const reads: Array<{ index: number | null; key: Uint8Array | null; value: Uint8Array }> = [];
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if ((tag & 7) !== WIRE_LENGTH_DELIMITED) reader.skip(tag & 7, bytes.length);
    else if (field === SLOT_USAGE.contractId)
      contractId = decodeOrFail(name, () => proto.ContractID.decode(reader.lengthDelimited(bytes.length)));
    else if (field === SLOT_USAGE.writtenSlotKeys)
      explicit = repeatedBytes(name, reader.lengthDelimited(bytes.length), 1);
    else if (field === SLOT_USAGE.slotReads) reads.push(slotRead(name, reader.lengthDelimited(bytes.length)));
    else reader.skip(tag & 7, bytes.length);
  }
  const written = explicit ?? [...context().writtenSlots(contractId)];
  const readOf = new Map<number, Uint8Array>();
  const changes: proto.IStorageChange[] = [];
  for (const read of reads) {
    if (read.index !== null) readOf.set(read.index, read.value);
    else if (read.key !== null) changes.push({ slot: trimmed(read.key), valueRead: trimmed(read.value) });
  }
  written.forEach((key, index) => {
    const value = context().slotValue(contractId, key) ?? new Uint8Array();
    changes.push({
      slot: trimmed(key),
      valueRead: trimmed(readOf.get(index) ?? new Uint8Array()),
      valueWritten: { value: trimmed(value) },
    });
  });
  return { contractId, storageChanges: changes };
}

function slotRead(
  name: string,
  bytes: Uint8Array,
): { index: number | null; key: Uint8Array | null; value: Uint8Array } {
  const reader = new WireReader(name, bytes, "SlotRead");
  const read: { index: number | null; key: Uint8Array | null; value: Uint8Array } = {
    index: null,
    key: null,
    value: new Uint8Array(),
  };
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if (field === SLOT_READ.index && (tag & 7) === 0) read.index = reader.int32(bytes.length);
    else if (field === SLOT_READ.key && (tag & 7) === WIRE_LENGTH_DELIMITED)
      read.key = reader.lengthDelimited(bytes.length);
    else if (field === SLOT_READ.readValue && (tag & 7) === WIRE_LENGTH_DELIMITED)
      read.value = reader.lengthDelimited(bytes.length);
    else reader.skip(tag & 7, bytes.length);
  }
  return read;
}

function executedInitcode(
  name: string,
  consensusTimestamp: proto.ITimestamp,
  bytes: Uint8Array,
  context: () => StateChangeContext,
): proto.ITransactionSidecarRecord {
  const reader = new WireReader(name, bytes, "ExecutedInitcode");
  let contractId: proto.IContractID = {};
  let explicit: Uint8Array | null = null;
  let bookends: Uint8Array | null = null;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if ((tag & 7) !== WIRE_LENGTH_DELIMITED) reader.skip(tag & 7, bytes.length);
    else if (field === INITCODE.contractId)
      contractId = decodeOrFail(name, () => proto.ContractID.decode(reader.lengthDelimited(bytes.length)));
    else if (field === INITCODE.explicit) explicit = reader.lengthDelimited(bytes.length);
    else if (field === INITCODE.bookends) bookends = reader.lengthDelimited(bytes.length);
    else reader.skip(tag & 7, bytes.length);
  }
  const runtime = context().bytecode(contractId) ?? new Uint8Array();
  let initcode = explicit ?? new Uint8Array();
  if (bookends !== null) {
    const deploy = lastField(name, bookends, INITCODE.deploy) ?? new Uint8Array();
    const metadata = lastField(name, bookends, INITCODE.metadata) ?? new Uint8Array();
    initcode = Buffer.concat([deploy, runtime, metadata]);
  }
  return { consensusTimestamp, bytecode: { contractId, initcode, runtimeBytecode: runtime } };
}

function repeatedBytes(name: string, bytes: Uint8Array, field: number): Uint8Array[] {
  const reader = new WireReader(name, bytes, "WrittenSlotKeys");
  const out: Uint8Array[] = [];
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if (tag >>> 3 === field && (tag & 7) === WIRE_LENGTH_DELIMITED)
      out.push(reader.lengthDelimited(bytes.length));
    else reader.skip(tag & 7, bytes.length);
  }
  return out;
}

function trimmed(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

function decodeOrFail<T>(name: string, decode: () => T): T {
  try {
    return decode();
  } catch (cause) {
    throw new CorruptFileError(name, `EVM trace data does not decode: ${(cause as Error).message}`, {
      cause,
    });
  }
}

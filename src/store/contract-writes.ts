/**
 * Writes of the contracts group (migration 0100-contracts; docs/contracts-schema.md): results, their hash rows,
 * Ethereum transactions, logs, state changes, slot history, actions and bytecode. Immutable rows are batched and
 * written at flush; the slot history is a versioned table (write-behind like entities).
 */
import { createBatchInsert } from "./batch-insert.ts";
import type { Db } from "./db.ts";
import { createVersionedTable, type VersionedTable } from "./versioned.ts";

export type ContractResultRow = {
  contractId: bigint;
  consensusNs: bigint;
  payerId: bigint;
  senderId: bigint | null;
  type: number;
  amount: bigint;
  gasLimit: bigint;
  gasUsed: bigint | null;
  gasConsumed: bigint | null;
  functionParameters: Uint8Array;
  callResult: Uint8Array | null;
  bloom: Uint8Array | null;
  errorMessage: string | null;
  createdContractIds: readonly bigint[];
  failedInitcode: Uint8Array | null;
  transactionHash: Uint8Array;
  transactionIndex: number;
  transactionNonce: number;
  transactionResult: number;
  blockNumber: bigint;
};

export type EthereumTransactionRow = {
  consensusNs: bigint;
  payerId: bigint;
  type: number;
  chainId: Uint8Array | null;
  nonce: bigint;
  gasPrice: Uint8Array | null;
  maxFeePerGas: Uint8Array | null;
  maxPriorityFeePerGas: Uint8Array | null;
  gasLimit: bigint;
  toAddress: Uint8Array | null;
  value: Uint8Array | null;
  callData: Uint8Array | null;
  callDataId: bigint | null;
  accessList: Uint8Array | null;
  authorizationList: string | null;
  signatureV: Uint8Array | null;
  recoveryId: number | null;
  signatureR: Uint8Array | null;
  signatureS: Uint8Array | null;
  maxGasAllowance: bigint | null;
  hash: Uint8Array | null;
};

export type ContractLogRow = {
  contractId: bigint;
  consensusNs: bigint;
  index: number;
  rootContractId: bigint | null;
  payerId: bigint;
  bloom: Uint8Array;
  data: Uint8Array;
  topics: readonly Uint8Array[];
  transactionHash: Uint8Array;
  transactionIndex: number;
};

export type ContractStateChangeRow = {
  consensusNs: bigint;
  contractId: bigint;
  slot: Uint8Array;
  payerId: bigint;
  valueRead: Uint8Array;
  valueWritten: Uint8Array | null;
  migration: boolean;
};

export type ContractActionRow = {
  consensusNs: bigint;
  index: number;
  payerId: bigint;
  callDepth: number;
  callType: number;
  callOperationType: number;
  caller: bigint | null;
  callerType: "ACCOUNT" | "CONTRACT" | null;
  gas: bigint;
  gasUsed: bigint;
  value: bigint;
  input: Uint8Array | null;
  recipientAccount: bigint | null;
  recipientContract: bigint | null;
  recipientAddress: Uint8Array | null;
  resultData: Uint8Array | null;
  resultDataType: number;
};

/** What a contract runs; null fields leave what the row holds. */
export type ContractCodeRow = {
  id: bigint;
  fileId: bigint | null;
  initcode: Uint8Array | null;
  runtimeBytecode: Uint8Array | null;
};

export type ContractWrites = {
  insertResult(row: ContractResultRow): void;
  insertEthereumTransaction(row: EthereumTransactionRow): void;
  insertLog(row: ContractLogRow): void;
  insertStateChange(row: ContractStateChangeRow): void;
  insertAction(row: ContractActionRow): void;
  /** Sets what a contract runs; columns given as null keep their stored value. */
  putCode(row: ContractCodeRow): void;
  /** The stored code row of a contract, or undefined. */
  code(id: bigint): ContractCodeRow | undefined;
  /** A file's latest contents (file_data: the newest create or non-empty update, then later appends), or null. */
  fileContents(fileId: bigint): Uint8Array | null;
  /** Storage slot values, versioned (key contract_id, slot as 32 bytes; columns value, created_ns). */
  state: VersionedTable;
  flush(): void;
  reset(): void;
};

const TOPICS = 4;
const FILE_UPDATE = 19n;
const FILE_APPEND = 16n;

export function createContractWrites(db: Db): ContractWrites {
  const results = createBatchInsert(db, "contract_result", [
    "contract_id",
    "consensus_ns",
    "payer_id",
    "sender_id",
    "type",
    "amount",
    "gas_limit",
    "gas_used",
    "gas_consumed",
    "function_parameters",
    "call_result",
    "bloom",
    "error_message",
    "created_contract_ids",
    "failed_initcode",
    "transaction_hash",
    "transaction_index",
    "transaction_nonce",
    "transaction_result",
    "block_number",
  ]);
  const hashes = createBatchInsert(
    db,
    "contract_transaction_hash",
    ["hash", "consensus_ns", "entity_id", "payer_id", "transaction_result"],
    { orReplace: true },
  );
  const ethereum = createBatchInsert(db, "ethereum_transaction", [
    "consensus_ns",
    "payer_id",
    "type",
    "chain_id",
    "nonce",
    "gas_price",
    "max_fee_per_gas",
    "max_priority_fee_per_gas",
    "gas_limit",
    "to_address",
    "value",
    "call_data",
    "call_data_id",
    "access_list",
    "authorization_list",
    "signature_v",
    "recovery_id",
    "signature_r",
    "signature_s",
    "max_gas_allowance",
    "hash",
  ]);
  const logs = createBatchInsert(db, "contract_log", [
    "contract_id",
    "consensus_ns",
    '"index"',
    "root_contract_id",
    "payer_id",
    "bloom",
    "data",
    "topic0",
    "topic1",
    "topic2",
    "topic3",
    "transaction_hash",
    "transaction_index",
  ]);
  // A slot named twice in one transaction's sidecar keeps the later change (one row per key).
  const stateChanges = createBatchInsert(
    db,
    "contract_state_change",
    ["consensus_ns", "contract_id", "slot", "payer_id", "value_read", "value_written", "migration"],
    { orReplace: true },
  );
  const actions = createBatchInsert(db, "contract_action", [
    "consensus_ns",
    '"index"',
    "payer_id",
    "call_depth",
    "call_type",
    "call_operation_type",
    "caller",
    "caller_type",
    "gas",
    "gas_used",
    "value",
    "input",
    "recipient_account",
    "recipient_contract",
    "recipient_address",
    "result_data",
    "result_data_type",
  ]);
  const upsertCode = db.prepare(
    `INSERT INTO contract (id, file_id, initcode, runtime_bytecode) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET file_id = coalesce(excluded.file_id, file_id),
       initcode = coalesce(excluded.initcode, initcode),
       runtime_bytecode = coalesce(excluded.runtime_bytecode, runtime_bytecode)`,
  );
  const selectCode = db.prepare("SELECT id, file_id, initcode, runtime_bytecode FROM contract WHERE id = ?");
  // Newest first; a file is rebuilt from its newest create or non-empty update and the appends after it.
  const selectFileRows = db.prepare(
    "SELECT type, contents FROM file_data WHERE file_id = ? ORDER BY consensus_ns DESC LIMIT 10000",
  );
  const state = createVersionedTable(db, "contract_state", ["contract_id", "slot"], ["value", "created_ns"]);
  const batches = [results, hashes, ethereum, logs, stateChanges, actions];

  return {
    insertResult(r) {
      results.add(
        r.contractId,
        r.consensusNs,
        r.payerId,
        r.senderId,
        r.type,
        r.amount,
        r.gasLimit,
        r.gasUsed,
        r.gasConsumed,
        r.functionParameters,
        r.callResult,
        r.bloom,
        r.errorMessage,
        JSON.stringify(r.createdContractIds.map(String)),
        r.failedInitcode,
        r.transactionHash,
        r.transactionIndex,
        r.transactionNonce,
        r.transactionResult,
        r.blockNumber,
      );
      hashes.add(r.transactionHash, r.consensusNs, r.contractId, r.payerId, r.transactionResult);
    },
    insertEthereumTransaction(e) {
      ethereum.add(
        e.consensusNs,
        e.payerId,
        e.type,
        e.chainId,
        e.nonce,
        e.gasPrice,
        e.maxFeePerGas,
        e.maxPriorityFeePerGas,
        e.gasLimit,
        e.toAddress,
        e.value,
        e.callData,
        e.callDataId,
        e.accessList,
        e.authorizationList,
        e.signatureV,
        e.recoveryId,
        e.signatureR,
        e.signatureS,
        e.maxGasAllowance,
        e.hash,
      );
    },
    insertLog(l) {
      const topics: Array<Uint8Array | null> = [];
      for (let i = 0; i < TOPICS; i++) topics.push(l.topics[i] ?? null);
      logs.add(
        l.contractId,
        l.consensusNs,
        l.index,
        l.rootContractId,
        l.payerId,
        l.bloom,
        l.data,
        ...topics,
        l.transactionHash,
        l.transactionIndex,
      );
    },
    insertStateChange(s) {
      stateChanges.add(
        s.consensusNs,
        s.contractId,
        s.slot,
        s.payerId,
        s.valueRead,
        s.valueWritten,
        s.migration ? 1 : 0,
      );
    },
    insertAction(a) {
      actions.add(
        a.consensusNs,
        a.index,
        a.payerId,
        a.callDepth,
        a.callType,
        a.callOperationType,
        a.caller,
        a.callerType,
        a.gas,
        a.gasUsed,
        a.value,
        a.input,
        a.recipientAccount,
        a.recipientContract,
        a.recipientAddress,
        a.resultData,
        a.resultDataType,
      );
    },
    putCode: (c) => upsertCode.run(c.id, c.fileId, c.initcode, c.runtimeBytecode),
    code(id) {
      const row = selectCode.get(id) as
        | {
            id: bigint;
            file_id: bigint | null;
            initcode: Uint8Array | null;
            runtime_bytecode: Uint8Array | null;
          }
        | undefined;
      if (row === undefined) return undefined;
      return {
        id: row.id,
        fileId: row.file_id,
        initcode: row.initcode,
        runtimeBytecode: row.runtime_bytecode,
      };
    },
    fileContents(fileId) {
      const parts: Uint8Array[] = [];
      for (const row of selectFileRows.iterate(fileId) as Iterable<{ type: bigint; contents: Uint8Array }>) {
        if (row.type === FILE_APPEND) {
          parts.push(row.contents);
          continue;
        }
        if (row.type === FILE_UPDATE && row.contents.length === 0) continue;
        parts.push(row.contents);
        return Buffer.concat(parts.reverse());
      }
      return null;
    },
    state,
    flush() {
      for (const batch of batches) batch.flush();
      state.flush();
    },
    reset() {
      for (const batch of batches) batch.clear();
      state.reset();
    },
  };
}

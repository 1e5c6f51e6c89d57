/**
 * Read queries of contract storage and call traces (contracts.md §6.2, §7):
 * - the current state of a contract: a range on `contract_state_current` in (32-byte) slot order;
 * - the state as of a time: per slot the latest `contract_state_change` within the time conditions, a range on
 *   `contract_state_change_slot (contract_id, slot, consensus_ns)` in the trimmed slots' byte order (upstream's);
 * - a transaction's actions: a range on the `contract_action` key at its consensus time.
 */
import { MAX_INT64 } from "../int64.ts";
import { type Condition, direction, type Order, type StatementCache, WhereBuilder } from "./conditions.ts";
import type { Db } from "./db.ts";

/** One slot of `/state`: its value and when it was last set. */
export type ContractSlotRow = {
  contractId: bigint;
  /** 32 bytes (current state) or trimmed bytes (as of a time). */
  slot: Buffer;
  value: Buffer;
  consensusNs: bigint;
  contractEvmAddress: Buffer | null;
};

export type ContractStateQuery = {
  contractId: bigint;
  /** Slot values as raw bytes, already padded (current state) or trimmed (as of a time). */
  slotsIn: readonly Buffer[];
  slotConditions: readonly Condition<Buffer>[];
  /** Conditions on the change time; empty: the current state. */
  timestamps: readonly Condition<bigint>[];
  order: Order;
  limit: number;
};

export type ContractActionRow = {
  consensusNs: bigint;
  index: bigint;
  callDepth: bigint;
  callType: number;
  callOperationType: number;
  caller: bigint | null;
  callerType: string | null;
  gas: bigint;
  gasUsed: bigint;
  value: bigint;
  input: Buffer | null;
  recipientAccount: bigint | null;
  recipientContract: bigint | null;
  recipientAddress: Buffer | null;
  resultData: Buffer | null;
  resultDataType: number;
};

export type ContractActionQuery = {
  consensusNs: bigint;
  payerId: bigint;
  indexes: readonly Condition<number>[];
  order: Order;
  limit: number;
};

export type ContractStateQueries = {
  listState(query: ContractStateQuery): ContractSlotRow[];
  listActions(query: ContractActionQuery): ContractActionRow[];
};

const clamp = (value: bigint) => (value > MAX_INT64 ? MAX_INT64 : value);

type ActionDbRow = {
  consensus_ns: bigint;
  index: bigint;
  call_depth: bigint;
  call_type: bigint;
  call_operation_type: bigint;
  caller: bigint | null;
  caller_type: string | null;
  gas: bigint;
  gas_used: bigint;
  value: bigint;
  input: Buffer | null;
  recipient_account: bigint | null;
  recipient_contract: bigint | null;
  recipient_address: Buffer | null;
  result_data: Buffer | null;
  result_data_type: bigint;
};

export function createContractStateQueries(db: Db, statements: StatementCache): ContractStateQueries {
  const evmAddress = db.prepare("SELECT evm_address FROM entity WHERE id = ? AND valid_to IS NULL").pluck();

  return {
    listState({ contractId, slotsIn, slotConditions, timestamps, order, limit }) {
      const address = (evmAddress.get(contractId) as Buffer | null | undefined) ?? null;
      const dir = direction(order);
      const where = new WhereBuilder().add("contract_id = ?", contractId);
      if (timestamps.length === 0) {
        where.add("valid_to IS NULL").compare("slot", slotConditions).in("slot", slotsIn);
        const sql = `SELECT slot, value, valid_from FROM contract_state INDEXED BY contract_state_current
          ${where.sql()} ORDER BY slot ${dir} LIMIT +?`;
        const rows = statements(sql)
          .raw(true)
          .all(...where.params, limit) as Array<[Buffer, Buffer, bigint]>;
        return rows.map(([slot, value, validFrom]) => ({
          contractId,
          slot,
          value,
          consensusNs: validFrom,
          contractEvmAddress: address,
        }));
      }
      where
        .compare(
          "consensus_ns",
          timestamps.map((c) => ({ op: c.op, value: clamp(c.value) })),
        )
        .compare("slot", slotConditions)
        .in("slot", slotsIn);
      // SQLite's bare columns of a max() aggregate come from the row holding the max: the latest change per slot.
      const sql = `SELECT slot, coalesce(value_written, value_read), max(consensus_ns)
        FROM contract_state_change INDEXED BY contract_state_change_slot ${where.sql()}
        GROUP BY slot ORDER BY slot ${dir} LIMIT +?`;
      const rows = statements(sql)
        .raw(true)
        .all(...where.params, limit) as Array<[Buffer, Buffer, bigint]>;
      return rows.map(([slot, value, consensusNs]) => ({
        contractId,
        slot,
        value,
        consensusNs,
        contractEvmAddress: address,
      }));
    },

    listActions({ consensusNs, payerId, indexes, order, limit }) {
      const where = new WhereBuilder()
        .add("consensus_ns = ?", consensusNs)
        .add("payer_id = ?", payerId)
        .compare(
          '"index"',
          indexes.map((c) => ({ op: c.op, value: BigInt(c.value) })),
        );
      const sql = `SELECT consensus_ns, "index", call_depth, call_type, call_operation_type, caller, caller_type,
        gas, gas_used, value, input, recipient_account, recipient_contract, recipient_address, result_data,
        result_data_type FROM contract_action ${where.sql()} ORDER BY "index" ${direction(order)} LIMIT +?`;
      const rows = statements(sql).all(...where.params, limit) as ActionDbRow[];
      return rows.map((r) => ({
        consensusNs: r.consensus_ns,
        index: r.index,
        callDepth: r.call_depth,
        callType: Number(r.call_type),
        callOperationType: Number(r.call_operation_type),
        caller: r.caller,
        callerType: r.caller_type,
        gas: r.gas,
        gasUsed: r.gas_used,
        value: r.value,
        input: r.input,
        recipientAccount: r.recipient_account,
        recipientContract: r.recipient_contract,
        recipientAddress: r.recipient_address,
        resultData: r.result_data,
        resultDataType: Number(r.result_data_type),
      }));
    },
  };
}

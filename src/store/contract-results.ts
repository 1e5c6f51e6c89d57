/**
 * Read queries of contract results (contracts.md §3, §4): a contract's page (one range on the `contract_result`
 * key), the global page (one range on `contract_result_time`, or on `contract_result_sender` for one `from`), and
 * everything one result's detailed answer needs, all at one consensus time: the result, its Ethereum transaction,
 * the transaction's contract set, its logs and state changes. Hash and transaction-id lookups give that time.
 */
import { MAX_INT64 } from "../int64.ts";
import { type Condition, direction, type Order, type StatementCache, WhereBuilder } from "./conditions.ts";
import type { Db } from "./db.ts";

/** One contract result, with the current EVM address of its contract (null when it has none). */
export type ContractResultRow = {
  contractId: bigint;
  consensusNs: bigint;
  payerId: bigint;
  senderId: bigint | null;
  amount: bigint;
  gasLimit: bigint;
  gasUsed: bigint | null;
  gasConsumed: bigint | null;
  /** Blob columns as lower-case hex digits (no `0x`; `hexColumn`). */
  functionParameters: string;
  callResult: string | null;
  bloom: string | null;
  errorMessage: string | null;
  createdContractIds: bigint[];
  failedInitcode: string | null;
  transactionHash: string;
  transactionIndex: bigint;
  transactionNonce: bigint;
  transactionResult: number;
  blockNumber: bigint;
  contractEvmAddress: string | null;
};

/** An `ethereum_transaction` row (contracts.md §3.3). */
export type EthereumTransactionRow = {
  consensusNs: bigint;
  payerId: bigint;
  type: number;
  chainId: Buffer | null;
  nonce: bigint;
  gasPrice: Buffer | null;
  maxFeePerGas: Buffer | null;
  maxPriorityFeePerGas: Buffer | null;
  gasLimit: bigint;
  toAddress: Buffer | null;
  value: Buffer | null;
  callData: Buffer | null;
  callDataId: bigint | null;
  accessList: Buffer | null;
  signatureV: Buffer | null;
  recoveryId: bigint | null;
  signatureR: Buffer | null;
  signatureS: Buffer | null;
};

/** A log at one consensus time (the short form's columns), with its contract's current EVM address. */
export type ContractLogRow = {
  contractId: bigint;
  consensusNs: bigint;
  index: bigint;
  rootContractId: bigint | null;
  /** Blob columns as lower-case hex digits (no `0x`; `hexColumn`). */
  bloom: string;
  data: string;
  topics: Array<string | null>;
  transactionHash: string;
  transactionIndex: bigint;
  contractEvmAddress: string | null;
};

/** A state change (trimmed bytes, as stored), with its contract's current EVM address. */
export type StateChangeRow = {
  contractId: bigint;
  slot: Buffer;
  valueRead: Buffer;
  valueWritten: Buffer | null;
  migration: boolean;
  contractEvmAddress: Buffer | null;
};

export type ContractResultListQuery = {
  /** Only this contract's results; null: every contract's. */
  contractId: bigint | null;
  timestamps: readonly Condition<bigint>[];
  /** `from` values (IN list; empty: none) and other `from` conditions. */
  sendersIn: readonly bigint[];
  senderConditions: readonly Condition<bigint>[];
  transactionIndexes: readonly bigint[];
  /** Child results too. */
  internal: boolean;
  order: Order;
  limit: number;
};

/** The consensus time of a contract transaction a lookup found, with its payer and contract. */
export type ContractTransactionRef = { consensusNs: bigint; payerId: bigint; entityId: bigint };

export type ContractResultQueries = {
  listResults(query: ContractResultListQuery): ContractResultRow[];
  /** The result at this consensus time, if any. */
  resultAt(consensusNs: bigint): ContractResultRow | undefined;
  /** The Ethereum transaction at this time with this payer. */
  ethereumTransactionAt(consensusNs: bigint, payerId: bigint): EthereumTransactionRow | undefined;
  /** The Ethereum transactions at these times (list pages). */
  ethereumTransactionsAt(times: readonly bigint[]): Map<bigint, EthereumTransactionRow>;
  logsAt(consensusNs: bigint): ContractLogRow[];
  stateChangesAt(consensusNs: bigint): StateChangeRow[];
  /** The best result row with this 32-byte hash: SUCCESS first, then the latest. */
  findByHash(hash: Buffer): ContractTransactionRef | undefined;
  /** The best transaction with this id (SUCCESS first, then the latest) within 35 minutes of its valid start. */
  findById(payerId: bigint, validStartNs: bigint, nonce: number): ContractTransactionRef | undefined;
};

const SUCCESS = 22n;
/** `maxTransactionConsensusTimestampRange` (35 min). */
const TRANSACTION_RANGE_NS = 35n * 60n * 1_000_000_000n;

/**
 * A blob column as lower-case hex text (NULL kept), for the answers, which print hex: SQLite's `hex()` costs far
 * less than a Node Buffer per value, which is most of a page's read time otherwise.
 */
export function hexColumn(expression: string): string {
  return `iif(${expression} IS NULL, NULL, lower(hex(${expression})))`;
}

const resultColumns = (
  evmAddress: string,
) => `r.contract_id, r.consensus_ns, r.payer_id, r.sender_id, r.amount,
  r.gas_limit, r.gas_used, r.gas_consumed, ${hexColumn("r.function_parameters")}, ${hexColumn("r.call_result")},
  ${hexColumn("r.bloom")}, r.error_message, r.created_contract_ids, ${hexColumn("r.failed_initcode")},
  ${hexColumn("r.transaction_hash")}, r.transaction_index, r.transaction_nonce, r.transaction_result,
  r.block_number, ${evmAddress}`;
const RESULT_COLUMNS = resultColumns(hexColumn("e.evm_address"));
const ENTITY_JOIN = "LEFT JOIN entity e ON e.id = r.contract_id AND e.valid_to IS NULL";

type ResultDbRow = [
  contractId: bigint,
  consensusNs: bigint,
  payerId: bigint,
  senderId: bigint | null,
  amount: bigint,
  gasLimit: bigint,
  gasUsed: bigint | null,
  gasConsumed: bigint | null,
  functionParameters: string,
  callResult: string | null,
  bloom: string | null,
  errorMessage: string | null,
  createdContractIds: string,
  failedInitcode: string | null,
  transactionHash: string,
  transactionIndex: bigint,
  transactionNonce: bigint,
  transactionResult: bigint,
  blockNumber: bigint,
  evmAddress: string | null,
];

function toResult(row: ResultDbRow): ContractResultRow {
  return {
    contractId: row[0],
    consensusNs: row[1],
    payerId: row[2],
    senderId: row[3],
    amount: row[4],
    gasLimit: row[5],
    gasUsed: row[6],
    gasConsumed: row[7],
    functionParameters: row[8],
    callResult: row[9],
    bloom: row[10],
    errorMessage: row[11],
    createdContractIds: (JSON.parse(row[12]) as string[]).map((id) => BigInt(id)),
    failedInitcode: row[13],
    transactionHash: row[14],
    transactionIndex: row[15],
    transactionNonce: row[16],
    transactionResult: Number(row[17]),
    blockNumber: row[18],
    contractEvmAddress: row[19],
  };
}

const ETH_COLUMNS = `consensus_ns, payer_id, type, chain_id, nonce, gas_price, max_fee_per_gas, max_priority_fee_per_gas,
  gas_limit, to_address, value, call_data, call_data_id, access_list, signature_v, recovery_id, signature_r, signature_s`;

type EthDbRow = {
  consensus_ns: bigint;
  payer_id: bigint;
  type: bigint;
  chain_id: Buffer | null;
  nonce: bigint;
  gas_price: Buffer | null;
  max_fee_per_gas: Buffer | null;
  max_priority_fee_per_gas: Buffer | null;
  gas_limit: bigint;
  to_address: Buffer | null;
  value: Buffer | null;
  call_data: Buffer | null;
  call_data_id: bigint | null;
  access_list: Buffer | null;
  signature_v: Buffer | null;
  recovery_id: bigint | null;
  signature_r: Buffer | null;
  signature_s: Buffer | null;
};

function toEth(row: EthDbRow): EthereumTransactionRow {
  return {
    consensusNs: row.consensus_ns,
    payerId: row.payer_id,
    type: Number(row.type),
    chainId: row.chain_id,
    nonce: row.nonce,
    gasPrice: row.gas_price,
    maxFeePerGas: row.max_fee_per_gas,
    maxPriorityFeePerGas: row.max_priority_fee_per_gas,
    gasLimit: row.gas_limit,
    toAddress: row.to_address,
    value: row.value,
    callData: row.call_data,
    callDataId: row.call_data_id,
    accessList: row.access_list,
    signatureV: row.signature_v,
    recoveryId: row.recovery_id,
    signatureR: row.signature_r,
    signatureS: row.signature_s,
  };
}

const LOG_COLUMNS = `l.contract_id, l.consensus_ns, l."index", l.root_contract_id, ${hexColumn("l.bloom")},
  ${hexColumn("l.data")}, ${hexColumn("l.topic0")}, ${hexColumn("l.topic1")}, ${hexColumn("l.topic2")},
  ${hexColumn("l.topic3")}, ${hexColumn("l.transaction_hash")}, l.transaction_index, ${hexColumn("e.evm_address")}`;

export type LogDbRow = [
  contractId: bigint,
  consensusNs: bigint,
  index: bigint,
  rootContractId: bigint | null,
  bloom: string,
  data: string,
  topic0: string | null,
  topic1: string | null,
  topic2: string | null,
  topic3: string | null,
  transactionHash: string,
  transactionIndex: bigint,
  evmAddress: string | null,
];

/** The columns of a log row, joined with its contract's current entity version (alias `e`). */
export const LOG_SELECT = `SELECT ${LOG_COLUMNS} FROM contract_log l`;
export const LOG_ENTITY_JOIN = "LEFT JOIN entity e ON e.id = l.contract_id AND e.valid_to IS NULL";

export function toLog(row: LogDbRow): ContractLogRow {
  return {
    contractId: row[0],
    consensusNs: row[1],
    index: row[2],
    rootContractId: row[3],
    bloom: row[4],
    data: row[5],
    topics: [row[6], row[7], row[8], row[9]],
    transactionHash: row[10],
    transactionIndex: row[11],
    contractEvmAddress: row[12],
  };
}

const clamp = (value: bigint) => (value > MAX_INT64 ? MAX_INT64 : value);

export function createContractResultQueries(db: Db, statements: StatementCache): ContractResultQueries {
  const resultAt = db
    .prepare(`SELECT ${RESULT_COLUMNS} FROM contract_result r ${ENTITY_JOIN} WHERE r.consensus_ns = ?`)
    .raw(true);
  const ethAt = db.prepare(
    `SELECT ${ETH_COLUMNS} FROM ethereum_transaction WHERE consensus_ns = ? AND payer_id = ?`,
  );
  const ethAtTime = db.prepare(`SELECT ${ETH_COLUMNS} FROM ethereum_transaction WHERE consensus_ns = ?`);
  const logsAt = db
    .prepare(
      `${LOG_SELECT} INDEXED BY contract_log_time ${LOG_ENTITY_JOIN} WHERE l.consensus_ns = ? ORDER BY l."index"`,
    )
    .raw(true);
  const changesAt = db
    .prepare(
      `SELECT c.contract_id, c.slot, c.value_read, c.value_written, c.migration, e.evm_address
       FROM contract_state_change c LEFT JOIN entity e ON e.id = c.contract_id AND e.valid_to IS NULL
       WHERE c.consensus_ns = ? ORDER BY c.contract_id, c.slot`,
    )
    .raw(true);
  const evmAddressOf = db
    .prepare(`SELECT ${hexColumn("evm_address")} FROM entity WHERE id = ? AND valid_to IS NULL`)
    .pluck();
  const byHash = db.prepare(
    `SELECT consensus_ns, entity_id, payer_id, transaction_result FROM contract_transaction_hash WHERE hash = ?
     ORDER BY consensus_ns DESC LIMIT 1000`,
  );
  const byId = db.prepare(
    `SELECT consensus_ns, payer_id, result FROM "transaction" WHERE valid_start_ns = ? AND payer_id = ?
       AND consensus_ns >= ? AND consensus_ns <= ? AND nonce = ? ORDER BY consensus_ns DESC LIMIT 1000`,
  );

  return {
    listResults(query) {
      const {
        contractId,
        timestamps,
        sendersIn,
        senderConditions,
        transactionIndexes,
        internal,
        order,
        limit,
      } = query;
      const where = new WhereBuilder();
      let from = "contract_result r";
      if (contractId !== null) where.add("r.contract_id = ?", contractId);
      else if (sendersIn.length === 0 && senderConditions.length === 0) {
        from = "contract_result r INDEXED BY contract_result_time";
      }
      // eq values form an IN list (upstream's updateConditionsAndParamsWithInValues); the others are ANDed.
      where
        .startOf("r.consensus_ns", order)
        .compare(
          "r.consensus_ns",
          timestamps.filter((c) => c.op !== "eq"),
        )
        .in(
          "r.consensus_ns",
          timestamps.filter((c) => c.op === "eq").map((c) => clamp(c.value)),
        );
      where.in("r.sender_id", sendersIn).compare("r.sender_id", senderConditions);
      where.in("r.transaction_index", transactionIndexes);
      if (!internal) where.add("r.transaction_nonce = 0");
      // One contract's page reads its address once, not once per row.
      const columns = contractId === null ? RESULT_COLUMNS : resultColumns("NULL");
      const join = contractId === null ? ENTITY_JOIN : "";
      const sql = `SELECT ${columns} FROM ${from} ${join} ${where.sql()}
        ORDER BY r.consensus_ns ${direction(order)} LIMIT +?`;
      const rows = (
        statements(sql)
          .raw(true)
          .all(...where.params, limit) as ResultDbRow[]
      ).map(toResult);
      if (contractId !== null && rows.length > 0) {
        const address = (evmAddressOf.get(contractId) as string | null | undefined) ?? null;
        for (const row of rows) row.contractEvmAddress = address;
      }
      return rows;
    },

    resultAt(consensusNs) {
      const row = resultAt.get(clamp(consensusNs)) as ResultDbRow | undefined;
      return row === undefined ? undefined : toResult(row);
    },

    ethereumTransactionAt(consensusNs, payerId) {
      const row = ethAt.get(consensusNs, payerId) as EthDbRow | undefined;
      return row === undefined ? undefined : toEth(row);
    },

    ethereumTransactionsAt(times) {
      const found = new Map<bigint, EthereumTransactionRow>();
      for (const time of times) {
        const row = ethAtTime.get(time) as EthDbRow | undefined;
        if (row !== undefined) found.set(time, toEth(row));
      }
      return found;
    },

    logsAt: (consensusNs) => (logsAt.all(consensusNs) as LogDbRow[]).map(toLog),

    stateChangesAt(consensusNs) {
      const rows = changesAt.all(consensusNs) as Array<
        [bigint, Buffer, Buffer, Buffer | null, bigint, Buffer | null]
      >;
      return rows.map((r) => ({
        contractId: r[0],
        slot: r[1],
        valueRead: r[2],
        valueWritten: r[3],
        migration: r[4] !== 0n,
        contractEvmAddress: r[5],
      }));
    },

    findByHash(hash) {
      const rows = byHash.all(hash) as Array<{
        consensus_ns: bigint;
        entity_id: bigint;
        payer_id: bigint;
        transaction_result: bigint;
      }>;
      const best = rows.find((r) => r.transaction_result === SUCCESS) ?? rows[0];
      return best === undefined
        ? undefined
        : { consensusNs: best.consensus_ns, payerId: best.payer_id, entityId: best.entity_id };
    },

    findById(payerId, validStartNs, nonce) {
      if (validStartNs < 0n) return undefined;
      const upper = clamp(validStartNs + TRANSACTION_RANGE_NS);
      const rows = byId.all(validStartNs, payerId, validStartNs, upper, nonce) as Array<{
        consensus_ns: bigint;
        payer_id: bigint;
        result: bigint;
      }>;
      const best = rows.find((r) => r.result === SUCCESS) ?? rows[0];
      return best === undefined
        ? undefined
        : { consensusNs: best.consensus_ns, payerId: best.payer_id, entityId: best.payer_id };
    },
  };
}

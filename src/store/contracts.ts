/**
 * Read queries of contract entities (contracts.md §1.3, §2): the `/contracts` page (current versions of type
 * CONTRACT in id order, one range on `entity_current_contract`), one contract's current or historical version
 * with its bytecode, and an EVM address resolved to a contract id (one seek on `entity_current_evm_address`).
 */
import { MAX_INT64 } from "../int64.ts";
import { type Condition, direction, type Order, type StatementCache, WhereBuilder } from "./conditions.ts";
import type { Db } from "./db.ts";

/** A contract version as the contract object shows it. */
export type ContractRow = {
  id: bigint;
  validFrom: bigint;
  validTo: bigint | null;
  createdNs: bigint | null;
  deleted: boolean | null;
  memo: string;
  key: Buffer | null;
  autoRenewAccountId: bigint | null;
  autoRenewPeriod: bigint | null;
  expirationNs: bigint | null;
  evmAddress: Buffer | null;
  maxAutomaticTokenAssociations: bigint | null;
  ethereumNonce: bigint | null;
  obtainerId: bigint | null;
  permanentRemoval: boolean | null;
  proxyAccountId: bigint | null;
  fileId: bigint | null;
};

/** A contract version with what it runs (`/contracts/{id}`). */
export type ContractDetailRow = ContractRow & { initcode: Buffer | null; runtimeBytecode: Buffer | null };

export type ContractListQuery = {
  /** The contract is one of these (empty: no such condition). */
  idsIn: readonly bigint[];
  idConditions: readonly Condition<bigint>[];
  order: Order;
  limit: number;
};

/** How `/contracts/{id}` names the contract: its id, or an EVM address (any version that is a contract). */
export type ContractKey = { id: bigint } | { evmAddress: Buffer };

export type ContractQueries = {
  listContracts(query: ContractListQuery): ContractRow[];
  /**
   * The version of a contract `/contracts/{id}` answers: without conditions the current one; with them, the
   * latest-starting version whose validity range overlaps every condition's range (contracts.md §2.2).
   */
  getContract(key: ContractKey, timestamps: readonly Condition<bigint>[]): ContractDetailRow | undefined;
  /**
   * The id of the contract (type CONTRACT, `deleted` false) whose EVM address this is; null when none. Throws
   * when two live contracts share it (upstream answers 500).
   */
  contractIdByEvmAddress(evmAddress: Buffer): bigint | null;
  /** Whether a current entity of type CONTRACT has this id. */
  isContract(id: bigint): boolean;
};

const ENTITY_COLUMNS = `e.id, e.valid_from, e.valid_to, e.created_ns, e.deleted, e.memo, e.key, e.auto_renew_account_id,
  e.auto_renew_period, e.expiration_ns, e.evm_address, e.max_automatic_token_associations, e.ethereum_nonce,
  e.obtainer_id, e.permanent_removal, e.proxy_account_id, c.file_id`;

type EntityDbRow = {
  id: bigint;
  valid_from: bigint;
  valid_to: bigint | null;
  created_ns: bigint | null;
  deleted: bigint | null;
  memo: string;
  key: Buffer | null;
  auto_renew_account_id: bigint | null;
  auto_renew_period: bigint | null;
  expiration_ns: bigint | null;
  evm_address: Buffer | null;
  max_automatic_token_associations: bigint | null;
  ethereum_nonce: bigint | null;
  obtainer_id: bigint | null;
  permanent_removal: bigint | null;
  proxy_account_id: bigint | null;
  file_id: bigint | null;
  initcode?: Buffer | null;
  runtime_bytecode?: Buffer | null;
};

function toRow(row: EntityDbRow): ContractRow {
  return {
    id: row.id,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    createdNs: row.created_ns,
    deleted: row.deleted === null ? null : row.deleted !== 0n,
    memo: row.memo,
    key: row.key,
    autoRenewAccountId: row.auto_renew_account_id,
    autoRenewPeriod: row.auto_renew_period,
    expirationNs: row.expiration_ns,
    evmAddress: row.evm_address,
    maxAutomaticTokenAssociations: row.max_automatic_token_associations,
    ethereumNonce: row.ethereum_nonce,
    obtainerId: row.obtainer_id,
    permanentRemoval: row.permanent_removal === null ? null : row.permanent_removal !== 0n,
    proxyAccountId: row.proxy_account_id,
    fileId: row.file_id,
  };
}

const clamp = (value: bigint) => (value > MAX_INT64 ? MAX_INT64 : value);

/**
 * A condition on a version's validity range `[valid_from, valid_to)`: it keeps the versions overlapping the
 * condition's range (eq/lte `(-inf, T]`, lt `(-inf, T)`, gt `(T, inf)`, gte `[T, inf)`); `ne` keeps those that do
 * not contain T.
 */
function overlapClause(where: WhereBuilder, { op, value }: Condition<bigint>): void {
  const t = clamp(value);
  switch (op) {
    case "eq":
    case "lte":
      where.add("e.valid_from <= ?", t);
      break;
    case "lt":
      where.add("e.valid_from < ?", t);
      break;
    case "gt":
      where.add("(e.valid_to IS NULL OR e.valid_to > ?)", t + 1n);
      break;
    case "gte":
      where.add("(e.valid_to IS NULL OR e.valid_to > ?)", t);
      break;
    case "ne":
      where.add("NOT (e.valid_from <= ? AND (e.valid_to IS NULL OR e.valid_to > ?))", t, t);
      break;
  }
}

export function createContractQueries(db: Db, statements: StatementCache): ContractQueries {
  const byEvm = db
    .prepare(
      `SELECT id FROM entity WHERE evm_address = ? AND valid_to IS NULL AND type = 'CONTRACT' AND deleted = 0
       LIMIT 2`,
    )
    .pluck();
  const currentIdByEvm = db
    .prepare(
      `SELECT id FROM entity WHERE evm_address = ? AND valid_to IS NULL AND type = 'CONTRACT'
       ORDER BY id LIMIT 1`,
    )
    .pluck();
  const isContract = db
    .prepare("SELECT 1 FROM entity WHERE id = ? AND valid_to IS NULL AND type = 'CONTRACT'")
    .pluck();
  const detailColumns = `${ENTITY_COLUMNS}, c.initcode, c.runtime_bytecode`;

  return {
    listContracts({ idsIn, idConditions, order, limit }) {
      const where = new WhereBuilder()
        .add("e.valid_to IS NULL")
        .add("e.type = 'CONTRACT'")
        .startOf("e.id", order)
        .compare("e.id", idConditions)
        .in("e.id", idsIn);
      const sql = `SELECT ${ENTITY_COLUMNS} FROM entity e INDEXED BY entity_current_contract
        LEFT JOIN contract c ON c.id = e.id ${where.sql()} ORDER BY e.id ${direction(order)} LIMIT +?`;
      const rows = statements(sql).all(...where.params, limit) as EntityDbRow[];
      return rows.map(toRow);
    },

    getContract(key, timestamps) {
      let id: bigint;
      if ("id" in key) id = key.id;
      else {
        const found = currentIdByEvm.get(key.evmAddress) as bigint | undefined;
        if (found === undefined) return undefined;
        id = found;
      }
      const where = new WhereBuilder().add("e.id = ?", id).add("e.type = 'CONTRACT'");
      if (timestamps.length === 0) where.add("e.valid_to IS NULL");
      for (const condition of timestamps) overlapClause(where, condition);
      const sql = `SELECT ${detailColumns} FROM entity e LEFT JOIN contract c ON c.id = e.id ${where.sql()}
        ORDER BY e.valid_from DESC LIMIT 1`;
      const row = statements(sql).get(...where.params) as EntityDbRow | undefined;
      if (row === undefined) return undefined;
      return { ...toRow(row), initcode: row.initcode ?? null, runtimeBytecode: row.runtime_bytecode ?? null };
    },

    contractIdByEvmAddress(evmAddress) {
      const ids = byEvm.all(evmAddress) as bigint[];
      if (ids.length > 1) throw new Error("two live contracts share one EVM address");
      return ids[0] ?? null;
    },

    isContract: (id) => isContract.get(id) !== undefined,
  };
}

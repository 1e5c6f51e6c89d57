/**
 * Read queries of the accounts and balances groups: account versions (as of an instant), account lists, hbar
 * balances with the instant of their last change, token balances of an account, and the ledger instants the
 * historical balance answers are taken at.
 *
 * Hbar balances come from `hbar_balance` (store/hbar-ledger.ts): the newest row of an account at or before T,
 * and for a row whose account changed several times in its record file, the pair in its blob at or before T.
 * The SQL function `mirrorlite_hbar_at(balance, changes, at)` does that lookup inside a statement, so that list
 * filters on a historical balance stay one statement.
 */
import { MAX_INT64 } from "../int64.ts";
import { type AccountLookup, createAccountLookup } from "./account-lookup.ts";
import {
  bounds,
  type Condition,
  createStatementCache,
  direction,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";
import { balanceInChanges } from "./hbar-changes.ts";

/** One version of an account (entity columns an account answer shows). */
export type AccountRow = {
  id: bigint;
  valid_from: bigint;
  valid_to: bigint | null;
  type: string;
  created_ns: bigint | null;
  deleted: bigint | null;
  memo: string;
  key: Buffer | null;
  auto_renew_period: bigint | null;
  expiration_ns: bigint | null;
  alias: Buffer | null;
  evm_address: Buffer | null;
  max_automatic_token_associations: bigint | null;
  receiver_sig_required: bigint | null;
  decline_reward: bigint | null;
  staked_account_id: bigint | null;
  staked_node_id: bigint | null;
  stake_period_start: bigint | null;
  ethereum_nonce: bigint | null;
};

/** An hbar balance and the consensus time of its last change (null: never changed since it became known). */
export type HbarBalance = { balance: bigint; changedNs: bigint | null };

/** An account of a list, with its current hbar balance when asked for. */
export type AccountListRow = AccountRow & { hbar: HbarBalance | null };

export type TokenBalanceRow = { token_id: bigint; balance: bigint };

/**
 * Which version of an account a `timestamp` selection picks: among the versions overlapping [lower, upper]
 * (null: unbounded) that also overlap (-inf, v] for every `atOrBefore` value and contain none of the `excluded`
 * instants, the newest (upstream's `timestamp_range && … order by timestamp_range desc limit 1`).
 */
export type VersionSelection = {
  lower: bigint | null;
  upper: bigint | null;
  atOrBefore: readonly bigint[];
  excluded: readonly bigint[];
};

/** What `GET /api/v1/accounts` asks for. */
export type AccountsQuery = {
  /** `account.id` equalities: one IN list (null members name nobody). Empty: no such condition. */
  ids: readonly (bigint | null)[];
  /** Other `account.id` conditions, ANDed; a null value matches nothing. */
  idConditions: readonly Condition<bigint | null>[];
  /** Conditions on the current hbar balance (ignored without `includeBalance`, as upstream does). */
  balances: readonly Condition<bigint>[];
  /** Conditions on the entity's `public_key`, ANDed. */
  publicKeys: readonly Condition<string>[];
  includeBalance: boolean;
  order: Order;
  limit: number;
};

/** What `GET /api/v1/balances` asks for. */
export type BalancesListQuery = {
  ids: readonly (bigint | null)[];
  idConditions: readonly Condition<bigint | null>[];
  balances: readonly Condition<bigint>[];
  /** Current balances: conditions on `public_key`; historical: the one current public key to match. */
  publicKeys: readonly Condition<string>[];
  order: Order;
  limit: number;
  /** Null: current balances. Otherwise the ledger instant (inclusive) the balances are taken at. */
  atNs: bigint | null;
};

export type BalanceListRow = { account_id: bigint; hbar: HbarBalance };

export type AccountQueries = AccountLookup & {
  /** The version of an account (type ACCOUNT or CONTRACT) a selection picks; the current one without. */
  findAccount(id: bigint, selection?: VersionSelection): AccountRow | undefined;
  listAccounts(query: AccountsQuery): AccountListRow[];
  /** The current hbar balance and its last change (the account's creation, `createdNs`, counts as one). */
  currentHbar(id: bigint, createdNs: bigint | null): HbarBalance;
  /** The hbar balance right after `atNs`, and its last change at or before it. */
  hbarAt(id: bigint, atNs: bigint, createdNs: bigint | null): HbarBalance;
  /**
   * Token balances of an account, ordered by token: the associated relationships now (`atNs` null) or at an
   * instant, with the balance they had then.
   */
  tokenBalances(id: bigint, atNs: bigint | null, order: Order, limit: number): TokenBalanceRow[];
  /**
   * The newest ledger instant in [lower, upper] that is not excluded: the consensus time of an indexed
   * transaction, or the instant of the starting balance state. Null when there is none.
   */
  ledgerInstant(lower: bigint, upper: bigint, excluded: readonly bigint[]): bigint | null;
  /** Accounts and balances of `/api/v1/balances`, ordered by account. */
  listBalances(query: BalancesListQuery): BalanceListRow[];
};

const HBAR_AT_FUNCTION = "mirrorlite_hbar_at";

const ACCOUNT_COLUMNS = `e.id, e.valid_from, e.valid_to, e.type, e.created_ns, e.deleted, e.memo, e.key,
  e.auto_renew_period, e.expiration_ns, e.alias, e.evm_address, e.max_automatic_token_associations,
  e.receiver_sig_required, e.decline_reward, e.staked_account_id, e.staked_node_id, e.stake_period_start,
  e.ethereum_nonce`;

/** Accounts of `/accounts` (and contracts): the predicate of the partial index `entity_current_account`. */
const ACCOUNT_TYPES = "e.type IN ('ACCOUNT', 'CONTRACT')";
/** Balance holders of `/balances`: accounts, contracts and the starting state's accounts of unknown type. */
const HOLDER_TYPES = "e.type IN ('ACCOUNT', 'CONTRACT', 'UNKNOWN')";

/** The newest hbar row of `e.id` at or before `atSql` (SQL text of an instant), joined as `hb`. */
function hbarJoin(atSql: string | null): string {
  const bound = atSql === null ? "" : ` AND h.valid_from <= ${atSql}`;
  return `LEFT JOIN hbar_balance hb ON hb.account_id = e.id AND hb.valid_from = (SELECT h.valid_from
    FROM hbar_balance h WHERE h.account_id = e.id${bound} ORDER BY h.valid_from DESC LIMIT 1)`;
}

/** The hbar row an account query joins: the balance, and where the last change at or before the instant is. */
type HbarColumns = { hb_balance: bigint | null; hb_from: bigint | null; hb_changes: Uint8Array | null };

/** The instant of the row's last change at or before `atNs` (the row starts at or before it). */
function changedAt(row: HbarColumns | undefined, atNs: bigint): bigint | null {
  if (row === undefined || row.hb_from === null) return null;
  return row.hb_changes === null ? row.hb_from : (lastChangeAt(row.hb_changes, atNs) ?? row.hb_from);
}

export function createAccountQueries(
  db: Db,
  statement: StatementCache = createStatementCache(db),
): AccountQueries {
  db.function(HBAR_AT_FUNCTION, { deterministic: true, safeIntegers: true }, (balance, changes, at) => {
    if (balance === null) return 0n;
    if (changes === null) return balance as bigint;
    return balanceInChanges(changes as Uint8Array, at as bigint) ?? (balance as bigint);
  });

  const lookup = createAccountLookup(db);
  const currentAccount = db.prepare(
    `SELECT ${ACCOUNT_COLUMNS} FROM entity e WHERE e.id = ? AND e.valid_to IS NULL AND ${ACCOUNT_TYPES}`,
  );
  const hbarNow = db.prepare(
    `SELECT balance AS hb_balance, valid_from AS hb_from, changes AS hb_changes
     FROM hbar_balance WHERE account_id = ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const hbarAtStatement = db.prepare(
    `SELECT ${HBAR_AT_FUNCTION}(balance, changes, ?) AS hb_balance, valid_from AS hb_from,
       changes AS hb_changes
     FROM hbar_balance WHERE account_id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const startInstant = db.prepare("SELECT consensus_ns FROM hbar_start WHERE id = 1").pluck();
  const transactionInstants = db
    .prepare(
      `SELECT consensus_ns FROM "transaction" WHERE consensus_ns >= ? AND consensus_ns <= ?
       ORDER BY consensus_ns DESC LIMIT ?`,
    )
    .pluck();

  /** An hbar balance from its row, the account's creation counting as a change (to balance 0). */
  function withCreation(
    created: bigint | null,
    row: HbarColumns | undefined,
    atNs: bigint | null,
  ): HbarBalance {
    const createdNs = created != null && (atNs === null || created <= atNs) ? created : null;
    const changed = changedAt(row, atNs ?? MAX_INT64);
    return {
      balance: row?.hb_balance ?? 0n,
      changedNs: changed === null || (createdNs !== null && createdNs > changed) ? createdNs : changed,
    };
  }

  return {
    ...lookup,
    findAccount(id, selection) {
      if (selection === undefined) return currentAccount.get(id) as AccountRow | undefined;
      const where = new WhereBuilder().add("e.id = ?", id).add(ACCOUNT_TYPES);
      if (selection.upper !== null) where.add("e.valid_from <= ?", clamp(selection.upper));
      if (selection.lower !== null)
        where.add("(e.valid_to IS NULL OR e.valid_to > ?)", clamp(selection.lower));
      for (const at of selection.atOrBefore) where.add("e.valid_from <= ?", clamp(at));
      for (const at of selection.excluded) {
        const bound = clamp(at);
        where.add("NOT (e.valid_from <= ? AND (e.valid_to IS NULL OR e.valid_to > ?))", bound, bound);
      }
      const sql = `SELECT ${ACCOUNT_COLUMNS} FROM entity e ${where.sql()} ORDER BY e.valid_from DESC LIMIT 1`;
      return statement(sql).get(...where.params) as AccountRow | undefined;
    },

    listAccounts(query) {
      const where = new WhereBuilder().add("e.valid_to IS NULL").add(ACCOUNT_TYPES);
      if (!addIdConditions(where, query.ids, query.idConditions, query.order)) return [];
      where.compare("e.public_key", query.publicKeys);
      let join = "";
      let hbarColumns = "";
      if (query.includeBalance) {
        join = hbarJoin(null);
        hbarColumns = `, hb.balance AS hb_balance, hb.valid_from AS hb_from,
          hb.changes AS hb_changes`;
        where.compare("COALESCE(hb.balance, 0)", query.balances);
      }
      const sql = `SELECT ${ACCOUNT_COLUMNS}${hbarColumns} FROM entity e ${join} ${where.sql()}
        ORDER BY e.id ${direction(query.order)} LIMIT ?`;
      const rows = statement(sql).all(...where.params, query.limit) as Array<AccountRow & HbarColumns>;
      return rows.map((row) => ({
        ...row,
        hbar: query.includeBalance ? withCreation(row.created_ns, row, null) : null,
      }));
    },

    currentHbar(id, createdNs) {
      return withCreation(createdNs, hbarNow.get(id) as HbarColumns | undefined, null);
    },

    hbarAt(id, atNs, createdNs) {
      return withCreation(createdNs, hbarAtStatement.get(atNs, id, atNs) as HbarColumns | undefined, atNs);
    },

    tokenBalances(id, atNs, order, limit) {
      const dir = direction(order);
      if (atNs === null) {
        const sql = `SELECT token_id, balance FROM token_account
          WHERE account_id = ? AND valid_to IS NULL AND associated = 1 ORDER BY token_id ${dir} LIMIT ?`;
        return statement(sql).all(id, limit) as TokenBalanceRow[];
      }
      // The relationship version valid at the instant (the current one, or a closed one: one seek each in its own
      // index, merged in token order), with the newest balance since it began (none yet: 0).
      const sql = `SELECT v.token_id, COALESCE((SELECT b.balance FROM token_balance b
          WHERE b.token_id = v.token_id AND b.account_id = ? AND b.valid_from <= ?
            AND b.valid_from >= v.created_ns ORDER BY b.valid_from DESC LIMIT 1), 0) AS balance
        FROM (SELECT token_id, created_ns FROM token_account
            WHERE account_id = ? AND valid_to IS NULL AND valid_from <= ? AND associated = 1
          UNION ALL
          SELECT token_id, created_ns FROM token_account
            WHERE account_id = ? AND valid_to IS NOT NULL AND valid_to > ? AND valid_from <= ? AND associated = 1) v
        ORDER BY v.token_id ${dir} LIMIT ?`;
      return statement(sql).all(id, atNs, id, atNs, id, atNs, atNs, limit) as TokenBalanceRow[];
    },

    ledgerInstant(lower, upper, excluded) {
      if (upper < lower || lower > MAX_INT64) return null;
      const skip = new Set(excluded);
      let best: bigint | null = null;
      const instants = transactionInstants.all(clamp(lower), clamp(upper), skip.size + 1) as bigint[];
      for (const instant of instants) {
        if (!skip.has(instant)) {
          best = instant;
          break;
        }
      }
      const start = startInstant.get() as bigint | undefined;
      if (start !== undefined && start >= lower && start <= upper && !skip.has(start)) {
        if (best === null || start > best) best = start;
      }
      return best;
    },

    listBalances(query) {
      const where = new WhereBuilder();
      const at = query.atNs;
      if (at === null) where.add("e.valid_to IS NULL");
      else where.add("e.valid_from <= ?", at).add("(e.valid_to IS NULL OR e.valid_to > ?)", at);
      where.add(HOLDER_TYPES);
      if (!addIdConditions(where, query.ids, query.idConditions, query.order)) return [];
      const dir = direction(query.order);
      let sql: string;
      let params: unknown[];
      if (at === null) {
        where.compare("e.public_key", query.publicKeys);
        where.compare("COALESCE(hb.balance, 0)", query.balances);
        sql = `SELECT e.id AS account_id, e.created_ns, hb.balance AS hb_balance, hb.valid_from AS hb_from,
            hb.changes AS hb_changes
          FROM entity e ${hbarJoin(null)} ${where.sql()} ORDER BY e.id ${dir} LIMIT ?`;
        params = [...where.params, query.limit];
      } else {
        // The one public key applies to the accounts' current keys (upstream looks their ids up first).
        const publicKey = query.publicKeys[0];
        const keyJoin =
          publicKey === undefined
            ? ""
            : `JOIN entity k ON k.id = e.id AND k.valid_to IS NULL AND k.type IN ('ACCOUNT', 'CONTRACT')
                AND k.public_key = ?`;
        const inner = `SELECT e.id AS account_id, e.created_ns,
            ${HBAR_AT_FUNCTION}(hb.balance, hb.changes, ?) AS hb_balance, hb.valid_from AS hb_from,
            hb.changes AS hb_changes
          FROM entity e ${hbarJoin("?")} ${keyJoin} ${where.sql()}`;
        const outer = new WhereBuilder().compare("hb_balance", query.balances);
        sql = `SELECT * FROM (${inner}) ${outer.sql()} ORDER BY account_id ${dir} LIMIT ?`;
        params = [
          at,
          at,
          ...(publicKey === undefined ? [] : [publicKey.value]),
          ...where.params,
          ...outer.params,
          query.limit,
        ];
      }
      const rows = statement(sql).all(...params) as Array<
        HbarColumns & { account_id: bigint; created_ns: bigint | null }
      >;
      return rows.map((row) => ({ account_id: row.account_id, hbar: withCreation(row.created_ns, row, at) }));
    },
  };
}

/**
 * Adds the `account.id` conditions; false when they match nothing (an IN list naming nobody, or a range on an
 * address that names no account).
 */
function addIdConditions(
  where: WhereBuilder,
  ids: readonly (bigint | null)[],
  conditions: readonly Condition<bigint | null>[],
  order: Order,
): boolean {
  if (conditions.some((c) => c.value === null)) return false;
  if (ids.length > 0) {
    const named = ids.filter((id): id is bigint => id !== null);
    if (named.length === 0) return false;
    where.in("e.id", named);
  }
  where.compare("e.id", conditions as readonly Condition<bigint>[]);
  // Nothing to start from: the page is a keyset walk from the first (or last) id, on the index of the walk.
  if (ids.length === 0 && !bounds(conditions)) where.startOf("e.id", order);
  return true;
}

/** An instant as SQLite can bind it: beyond int64 (10-digit seconds reach 10^19 ns), the greatest int64. */
function clamp(ns: bigint): bigint {
  return ns > MAX_INT64 ? MAX_INT64 : ns;
}

/** The time of the last pair at or before `atNs` in an `hbar_balance` blob, or null when every pair is later. */
function lastChangeAt(blob: Uint8Array, atNs: bigint): bigint | null {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  let found: bigint | null = null;
  let low = 0;
  let high = Math.floor(blob.byteLength / 16) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const t = view.getBigInt64(mid * 16, true);
    if (t <= atNs) {
      found = t;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

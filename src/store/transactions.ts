/**
 * The transaction index, read: lists by the filters of `GET /api/v1/transactions` (also embedded in
 * `/api/v1/accounts/{id}`), and the transactions of one transaction id or hash.
 *
 * Every list is assembled from index range reads, never from a walk that filters what it skips without bound:
 * - an account's transactions are one range read of account_transaction (clustered on account, then time),
 *   the entry's kind (type, outcome, credit / debit) checked as it is read; several accounts' pages are merged;
 * - without an account, a filter on type or result reads the `(kind)` index of the transaction table, one
 *   stream per kind present (found by seeking to the next one) merged; no such filter walks the table itself,
 *   every row it reads on the page (credit/debit without an account: almost every record has both).
 *
 * A range of accounts (`account.id=gte:…`) enumerates the accounts in range that have transactions, one seek
 * each; up to `MAX_RANGE_ACCOUNTS` of them their pages are merged. Past that, candidates are read in consensus
 * order and kept when they involve an account in range, at most `MAX_RANGE_CANDIDATES` of them per request: a
 * page that budget does not fill ends early with a resume point (`TransactionPage.resumeNs`), from which the
 * route's next link continues, as upstream's bound timestamp ranges do. No request reads without bound.
 */
import type { Condition, Order, StatementCache } from "./conditions.ts";
import type { Db } from "./db.ts";
import {
  ACCOUNT_KIND_BITS,
  type HbarTransfer,
  TRANSACTION_FLAGS,
  type TransactionExtras,
  unpackDetails,
} from "./transaction-lists.ts";
import { type AccountScope, accountScope, type TimeBounds, timeBounds } from "./transaction-plan.ts";
import { notInList } from "./value-list.ts";

export type { AccountScope, TimeBounds };

/** What `GET /api/v1/transactions` (and an account's embedded list) filters on. */
export type TransactionListQuery = {
  /** Eq values form an IN list; other operators are ANDed. A null value (an EVM address naming nobody) matches nothing. */
  accountIds: readonly Condition<bigint | null>[];
  /** ANDed; two different eq values or an empty range match nothing. */
  timestamps: readonly Condition<bigint>[];
  /** Type ids (transaction-types.ts); empty: every type. */
  types: readonly number[];
  result: "success" | "fail" | null;
  creditDebit: "credit" | "debit" | null;
  order: Order;
  limit: number;
};

export type TokenTransferEntry = { tokenId: bigint; accountId: bigint; amount: bigint; isApproval: boolean };

export type NftTransferEntry = {
  tokenId: bigint;
  serial: bigint;
  senderId: bigint | null;
  receiverId: bigint | null;
  isApproval: boolean;
};

/** One transaction with everything its REST object shows (see api/views/transactions.ts). */
export type TransactionRow = {
  consensusNs: bigint;
  type: number;
  result: number;
  payerId: bigint;
  validStartNs: bigint;
  nonce: number;
  scheduled: boolean;
  highVolume: boolean;
  chargedFee: bigint;
  maxFee: bigint;
  validDurationSeconds: bigint | null;
  nodeId: bigint | null;
  entityId: bigint | null;
  parentNs: bigint | null;
  /** Empty when the body has no memo. */
  memo: Uint8Array;
  hash: Uint8Array;
  /** Hbar transfers, by account then amount. */
  transfers: HbarTransfer[];
  /** Fungible token transfers, by token then account. */
  tokenTransfers: TokenTransferEntry[];
  /** NFT transfers in record order. */
  nftTransfers: NftTransferEntry[];
  extras: TransactionExtras;
};

/** Which transactions one id or hash request asks for (`nonce` and `scheduled`: the last value given). */
export type TransactionLookupFilter = { nonce?: number; scheduled?: boolean };

/** A page of a list, and where it stopped early when a wide account range's budget ran out. */
export type TransactionPage = {
  rows: TransactionRow[];
  /**
   * Null when the page is the whole answer (full, or the last); else the consensus time of the last candidate
   * examined: the page holds every match up to it, and the next page continues after it.
   */
  resumeNs: bigint | null;
};

export type TransactionQueries = {
  /** Transactions matching the filter, in `order` by consensus time, at most `limit`. */
  listTransactions(query: TransactionListQuery): TransactionRow[];
  /** The same, with the resume point of a wide account range's page that ended early. */
  listTransactionPage(query: TransactionListQuery): TransactionPage;
  /**
   * The consensus times of that page (and its resume point), rows not read: a caller that keeps rendered
   * transactions reads only the rows it lacks (`loadTransactions`).
   */
  listTransactionTimesPage(query: TransactionListQuery): { times: bigint[]; resumeNs: bigint | null };
  /** The rows of these consensus times, in the same order (a time with no row is left out). */
  loadTransactions(times: readonly bigint[]): TransactionRow[];
  /** The consensus times `listTransactions` would render (for paging checks and benches). */
  listTransactionTimestamps(query: TransactionListQuery): bigint[];
  /**
   * Every transaction with this payer and valid start (children, the scheduled execution, duplicates), as
   * upstream's `getTransactionsByIdOrHash` finds them: consensus within [valid start − 10 s, valid start + 35 min],
   * widened to 62 days after the lower bound for a successful ScheduleCreate whose execution is not found
   * (or `scheduled=true` with nothing found); then the inner transactions of an atomic batch.
   */
  getTransactionsById(
    payerId: bigint,
    validStartNs: bigint,
    filter: TransactionLookupFilter,
  ): TransactionRow[];
  /** The transactions with this 48-byte hash (and the payer of the first), ascending. */
  getTransactionsByHash(hash: Uint8Array, filter: TransactionLookupFilter): TransactionRow[];
};

/** Past this many accounts in an `account.id` range, candidates are read in consensus order instead. */
export const MAX_RANGE_ACCOUNTS = 256;
/** Most candidate transactions one request examines for a wide account range (then it resumes, see above). */
export const MAX_RANGE_CANDIDATES = 2000;

const NS_PER_MS = 1_000_000n;
/** `maxRecordFileCloseInterval` (10 s): how long before its valid start a transaction may reach consensus. */
const RECORD_FILE_CLOSE_NS = 10_000n * NS_PER_MS;
/** `maxTransactionConsensusTimestampRange` (35 min). */
const TRANSACTION_RANGE_NS = 35n * 60_000n * NS_PER_MS;
/** `maxScheduledTransactionConsensusTimestampRange` (89285 min, 62 days). */
const SCHEDULED_RANGE_NS = 89_285n * 60_000n * NS_PER_MS;
const SCHEDULE_CREATE = 42;
const SUCCESS_RESULTS = new Set([22, 104, 220]);
const TYPE_LIMIT = 1 << 20;

const COLUMNS = [
  "consensus_ns",
  "type",
  "result",
  "payer_id",
  "valid_start_ns",
  "nonce",
  "flags",
  "hash",
  "details",
];
const ROW_COLUMNS = COLUMNS.join(", ");

type RawRow = {
  consensus_ns: bigint;
  type: bigint;
  result: bigint;
  payer_id: bigint;
  valid_start_ns: bigint;
  nonce: bigint;
  flags: bigint;
  hash: Buffer;
  details: Buffer;
};

/** A page's consensus times, and where it stopped early (see `TransactionPage.resumeNs`). */
type TimesPage = { times: bigint[]; resumeNs: bigint | null };

/** A sorted, de-duplicated stream of consensus times that one key (a kind, an account) yields. */
type Fetch = (lower: bigint, upper: bigint, limit: number) => bigint[];

/** How far a wide account range reads before it resumes (tests make them small to see it happen). */
export type RangeLimits = { accounts: number; candidates: number };

export function createTransactionQueries(
  db: Db,
  statement: StatementCache,
  limits: RangeLimits = { accounts: MAX_RANGE_ACCOUNTS, candidates: MAX_RANGE_CANDIDATES },
): TransactionQueries {
  const getRow = db.prepare(`SELECT ${ROW_COLUMNS} FROM "transaction" WHERE consensus_ns = ?`);
  const getTokenTransfers = db.prepare(
    `SELECT token_id, account_id, amount, is_approval FROM token_transfer WHERE consensus_ns = ?
     ORDER BY token_id, account_id`,
  );
  const getNftTransfers = db.prepare(
    `SELECT token_id, serial, sender_id, receiver_id, is_approval FROM nft_transfer WHERE consensus_ns = ?
     ORDER BY rowid`,
  );
  const nextGlobalKind = db
    .prepare(`SELECT kind FROM "transaction" WHERE kind > ? AND kind <= ? ORDER BY kind LIMIT 1`)
    .pluck();
  const nextAccount = db
    .prepare(
      `SELECT account_id FROM account_transaction WHERE account_id > ? AND account_id <= ?
       ORDER BY account_id LIMIT 1`,
    )
    .pluck();
  const firstAccount = db
    .prepare(
      `SELECT account_id FROM account_transaction WHERE account_id >= ? AND account_id <= ?
       ORDER BY account_id LIMIT 1`,
    )
    .pluck();
  /**
   * One account's page: a range read of its entries in the walk's direction, each entry's kind checked as it is
   * read (`mask`/`bits`: outcome and credit / debit bits; `types`: ",12,14," or NULL for every type). One
   * statement shape whatever the filter, so no filter prepares another.
   */
  const accountPageSql = (order: "ASC" | "DESC") => `
    SELECT consensus_ns FROM account_transaction
    WHERE account_id = :account AND consensus_ns >= :lower AND consensus_ns <= :upper
      AND (kind & :mask) = :bits AND (:types IS NULL OR instr(:types, ',' || (kind >> 3) || ',') > 0)
    ORDER BY consensus_ns ${order} LIMIT +:limit`;
  const accountPageDown = db.prepare(accountPageSql("DESC")).pluck();
  const accountPageUp = db.prepare(accountPageSql("ASC")).pluck();
  const rowsById = db.prepare(
    `SELECT ${ROW_COLUMNS} FROM "transaction" WHERE valid_start_ns = ? AND payer_id = ?
       AND consensus_ns >= ? AND consensus_ns <= ? ORDER BY consensus_ns`,
  );
  const candidatesByHash = db.prepare(
    `SELECT consensus_ns, payer_id, hash FROM "transaction" WHERE substr(hash, 1, 4) = ? ORDER BY consensus_ns`,
  );

  const toRow = (raw: RawRow): TransactionRow => {
    const flags = Number(raw.flags);
    const details = unpackDetails(raw.consensus_ns, raw.details);
    const row: TransactionRow = {
      consensusNs: raw.consensus_ns,
      type: Number(raw.type),
      result: Number(raw.result),
      payerId: raw.payer_id,
      validStartNs: raw.valid_start_ns,
      nonce: Number(raw.nonce),
      scheduled: (flags & TRANSACTION_FLAGS.scheduled) !== 0,
      highVolume: (flags & TRANSACTION_FLAGS.highVolume) !== 0,
      hash: raw.hash,
      ...details,
      tokenTransfers: [],
      nftTransfers: [],
    };
    if ((flags & TRANSACTION_FLAGS.tokenTransfers) !== 0) {
      row.tokenTransfers = (
        getTokenTransfers.all(raw.consensus_ns) as {
          token_id: bigint;
          account_id: bigint;
          amount: bigint;
          is_approval: bigint;
        }[]
      ).map((t) => ({
        tokenId: t.token_id,
        accountId: t.account_id,
        amount: t.amount,
        isApproval: t.is_approval !== 0n,
      }));
    }
    if ((flags & TRANSACTION_FLAGS.nftTransfers) !== 0) {
      row.nftTransfers = (
        getNftTransfers.all(raw.consensus_ns) as {
          token_id: bigint;
          serial: bigint;
          sender_id: bigint | null;
          receiver_id: bigint | null;
          is_approval: bigint;
        }[]
      ).map((t) => ({
        tokenId: t.token_id,
        serial: t.serial,
        senderId: t.sender_id,
        receiverId: t.receiver_id,
        isApproval: t.is_approval !== 0n,
      }));
    }
    return row;
  };

  // Rows of a page by their key, one seek each: cheaper than one statement with an IN list padded with NULLs
  // (which SQLite turns into a temporary B-tree per call), and in the page's order without a sort.
  const loadRows = (times: readonly bigint[]): TransactionRow[] => {
    const rows: TransactionRow[] = [];
    for (const time of times) {
      const raw = getRow.get(time) as RawRow | undefined;
      if (raw !== undefined) rows.push(toRow(raw));
    }
    return rows;
  };

  /** `AND consensus_ns NOT IN (…)` for the excluded times, with its one JSON parameter (value-list.ts). */
  const exclusion = (time: TimeBounds): [string, string[]] => {
    if (time.excluded.length === 0) return ["", []];
    const [sql, param] = notInList("consensus_ns", time.excluded);
    return [` AND ${sql}`, [param]];
  };

  const direction = (order: Order) => (order === "asc" ? "ASC" : "DESC");

  /** Transactions of one global kind (type * 2 + failed), optionally only those with a credit / debit. */
  const kindFetch = (kind: number, query: TransactionListQuery, time: TimeBounds): Fetch => {
    const [notIn, excluded] = exclusion(time);
    const flag = creditDebitFlag(query.creditDebit);
    const sql = `SELECT consensus_ns FROM "transaction" WHERE kind = ? AND consensus_ns >= ? AND consensus_ns <= ?${notIn}${
      flag === 0 ? "" : " AND flags & ? != 0"
    } ORDER BY consensus_ns ${direction(query.order)} LIMIT +?`;
    return (lower, upper, limit) =>
      statement(sql)
        .pluck()
        .all(kind, lower, upper, ...excluded, ...(flag === 0 ? [] : [flag]), limit) as bigint[];
  };

  /** Every transaction in consensus order (no type or result filter): `columns` of the rows in range. */
  const walkStatement = (columns: string, query: TransactionListQuery, time: TimeBounds) => {
    const [notIn, excluded] = exclusion(time);
    const flag = creditDebitFlag(query.creditDebit);
    const sql = `SELECT ${columns} FROM "transaction" WHERE consensus_ns >= ? AND consensus_ns <= ?${notIn}${
      flag === 0 ? "" : " AND flags & ? != 0"
    } ORDER BY consensus_ns ${direction(query.order)} LIMIT +?`;
    const tail: unknown[] = flag === 0 ? excluded : [...excluded, flag];
    return (lower: bigint, upper: bigint, limit: number) => statement(sql).all(lower, upper, ...tail, limit);
  };
  const walkFetch = (query: TransactionListQuery, time: TimeBounds): Fetch => {
    const walk = walkStatement("consensus_ns", query, time);
    return (lower, upper, limit) =>
      (walk(lower, upper, limit) as { consensus_ns: bigint }[]).map((r) => r.consensus_ns);
  };

  /** One account's transactions that pass the filter: one range read of `limit` entries (plus excluded times). */
  const accountFetch = (accountId: bigint, query: TransactionListQuery, time: TimeBounds): Fetch => {
    const excluded = time.excluded.length === 0 ? null : new Set(time.excluded);
    let mask = 0;
    let bits = 0;
    if (query.result !== null) {
      mask |= ACCOUNT_KIND_BITS.failed;
      if (query.result === "fail") bits |= ACCOUNT_KIND_BITS.failed;
    }
    if (query.creditDebit !== null) {
      const side = query.creditDebit === "credit" ? ACCOUNT_KIND_BITS.credit : ACCOUNT_KIND_BITS.debit;
      mask |= side;
      bits |= side;
    }
    const types = query.types.length === 0 ? null : `,${[...new Set(query.types)].join(",")},`;
    const page = query.order === "desc" ? accountPageDown : accountPageUp;
    return (lower, upper, limit) => {
      const times = page.all({
        account: accountId,
        lower,
        upper,
        mask,
        bits,
        types,
        limit: limit + (excluded?.size ?? 0),
      }) as bigint[];
      if (excluded === null) return times;
      const kept = times.filter((t) => !excluded.has(t));
      return kept.length > limit ? kept.slice(0, limit) : kept;
    };
  };

  /**
   * Seeks every key between `from` and `to` (inclusive): `first` finds the first at or after a bound, `next` the
   * next after one (`from` may be the smallest int64, which has nothing below it to start after).
   */
  function* keys(
    next: (after: bigint, to: bigint) => bigint | undefined,
    from: bigint,
    to: bigint,
    first: (from: bigint, to: bigint) => bigint | undefined = (at, upTo) => next(at - 1n, upTo),
  ) {
    let key = first(from, to);
    while (key !== undefined) {
      yield key;
      if (key >= to) return;
      key = next(key, to);
    }
  }

  /** The global-kind streams (or the walk) of a filter with no account. */
  function* globalFetches(query: TransactionListQuery, time: TimeBounds): Generator<Fetch> {
    if (query.types.length === 0 && query.result === null) {
      yield walkFetch(query, time);
      return;
    }
    const wantFailed = (failed: boolean) => query.result === null || (query.result === "fail") === failed;
    if (query.types.length > 0) {
      for (const type of new Set(query.types)) {
        for (const failed of [false, true]) {
          if (wantFailed(failed)) yield kindFetch(type * 2 + (failed ? 1 : 0), query, time);
        }
      }
      return;
    }
    const next = (after: bigint, to: bigint) => nextGlobalKind.get(after, to) as bigint | undefined;
    for (const kind of keys(next, BigInt(-2 * TYPE_LIMIT), BigInt(2 * TYPE_LIMIT))) {
      const failed = (Number(kind) & 1) !== 0;
      if (wantFailed(failed)) yield kindFetch(Number(kind), query, time);
    }
  }

  /** Merges streams into the first `limit` distinct times in `order`, tightening each later stream's bounds. */
  const merge = (fetches: Iterable<Fetch>, query: TransactionListQuery, time: TimeBounds): bigint[] => {
    let page: bigint[] = [];
    let lower = time.lower;
    let upper = time.upper;
    const asc = query.order === "asc";
    for (const fetch of fetches) {
      if (lower > upper) break;
      const rows = fetch(lower, upper, query.limit);
      if (rows.length === 0) continue;
      page = mergeSorted(page, rows, asc).slice(0, query.limit);
      if (page.length === query.limit) {
        // Only times before the page's last (in order) can still make the page.
        const last = page[page.length - 1]!;
        if (asc) upper = last - 1n;
        else lower = last + 1n;
      }
    }
    return page;
  };

  /**
   * A wide account range: candidates in consensus order (the type and result filters applied by the index),
   * kept when an account in range is involved as asked; at most MAX_RANGE_CANDIDATES examined, then the page
   * ends at the last one examined (`resumeNs`) unless it is full.
   */
  const scanRange = (
    scope: Extract<AccountScope, { kind: "range" }>,
    query: TransactionListQuery,
    time: TimeBounds,
  ): TimesPage => {
    const batchSize = Math.max(query.limit * 4, 100);
    const times: bigint[] = [];
    let lower = time.lower;
    let upper = time.upper;
    let examined = 0;
    const asc = query.order === "asc";
    while (times.length < query.limit && lower <= upper) {
      if (examined >= limits.candidates) return { times, resumeNs: asc ? lower - 1n : upper + 1n };
      const candidates = {
        ...query,
        creditDebit: null,
        limit: Math.min(batchSize, limits.candidates - examined),
      };
      const bounded = { ...time, lower, upper };
      const batch = merge(globalFetches(candidates, bounded), candidates, bounded);
      for (const consensusNs of batch) {
        examined++;
        const row = getRow.get(consensusNs) as RawRow | undefined;
        if (row !== undefined && involvesAccountInRange(toRow(row), scope, query.creditDebit)) {
          times.push(consensusNs);
          if (times.length === query.limit) break;
        }
        if (asc) lower = consensusNs + 1n;
        else upper = consensusNs - 1n;
      }
      if (batch.length < candidates.limit) break;
    }
    return { times, resumeNs: null };
  };

  const listTimes = (query: TransactionListQuery): TimesPage => {
    const time = timeBounds(query.timestamps);
    const scope = accountScope(query.accountIds);
    const whole = (times: bigint[]): TimesPage => ({ times, resumeNs: null });
    if (time === null || scope === null || query.limit <= 0) return whole([]);
    switch (scope.kind) {
      case "any":
        return whole(merge(globalFetches(query, time), query, time));
      case "list":
        return whole(
          merge(
            (function* () {
              for (const accountId of scope.ids) yield accountFetch(accountId, query, time);
            })(),
            query,
            time,
          ),
        );
      case "range": {
        const next = (after: bigint, to: bigint) => nextAccount.get(after, to) as bigint | undefined;
        const first = (from: bigint, to: bigint) => firstAccount.get(from, to) as bigint | undefined;
        const accounts: bigint[] = [];
        for (const accountId of keys(next, scope.lower, scope.upper, first)) {
          if (scope.excluded.has(accountId)) continue;
          if (accounts.length === limits.accounts) return scanRange(scope, query, time);
          accounts.push(accountId);
        }
        return whole(
          merge(
            (function* () {
              for (const accountId of accounts) yield accountFetch(accountId, query, time);
            })(),
            query,
            time,
          ),
        );
      }
    }
  };

  const listTransactionPage = (query: TransactionListQuery): TransactionPage => {
    // No account, type or result: the page is the table's rows in order, read in one statement.
    const time = timeBounds(query.timestamps);
    if (query.accountIds.length > 0 || query.types.length > 0 || query.result !== null || time === null) {
      const { times, resumeNs } = listTimes(query);
      return { rows: loadRows(times), resumeNs };
    }
    if (query.limit <= 0 || time.lower > time.upper) return { rows: [], resumeNs: null };
    const rows = walkStatement(ROW_COLUMNS, query, time)(time.lower, time.upper, query.limit) as RawRow[];
    return { rows: rows.map(toRow), resumeNs: null };
  };

  /** Upstream's rows of one id within the bounds, `nonce` and `scheduled` applied. */
  const idRows = (
    payerId: bigint,
    validStartNs: bigint,
    lower: bigint,
    upper: bigint,
    filter: TransactionLookupFilter,
  ) =>
    (rowsById.all(validStartNs, payerId, lower, upper) as RawRow[]).filter((raw) =>
      lookupMatches(raw, filter),
    );

  const getTransactionsById = (
    payerId: bigint,
    validStartNs: bigint,
    filter: TransactionLookupFilter,
  ): TransactionRow[] => {
    const lower = validStartNs - RECORD_FILE_CLOSE_NS;
    let raws = idRows(payerId, validStartNs, lower, validStartNs + TRANSACTION_RANGE_NS, filter);
    if (mayMissScheduled(filter.scheduled, raws)) {
      raws = idRows(payerId, validStartNs, lower, lower + SCHEDULED_RANGE_NS, filter);
    }
    const rows = raws.map(toRow);
    const inner = rows.flatMap((row) => row.extras.innerTransactions);
    if (inner.length > 0) rows.push(...innerRows(inner, filter));
    return rows;
  };

  /** The inner transactions of batches: every named id in one consensus window, ascending. */
  const innerRows = (
    ids: readonly { payerId: bigint; validStartNs: bigint }[],
    filter: TransactionLookupFilter,
  ): TransactionRow[] => {
    let min = ids[0]!.validStartNs;
    let max = min;
    for (const { validStartNs } of ids) {
      if (validStartNs < min) min = validStartNs;
      if (validStartNs > max) max = validStartNs;
    }
    const found = new Map<bigint, RawRow>();
    for (const { payerId, validStartNs } of ids) {
      for (const raw of rowsById.all(
        validStartNs,
        payerId,
        min - RECORD_FILE_CLOSE_NS,
        max + TRANSACTION_RANGE_NS,
      ) as RawRow[]) {
        if (lookupMatches(raw, filter)) found.set(raw.consensus_ns, raw);
      }
    }
    return [...found.values()].sort((a, b) => compare(a.consensus_ns, b.consensus_ns)).map(toRow);
  };

  /** `listTimes`, with the plain walk (no account, type or result) reading times only. */
  const listTransactionTimesPage = (query: TransactionListQuery): TimesPage => {
    const time = timeBounds(query.timestamps);
    if (query.accountIds.length > 0 || query.types.length > 0 || query.result !== null || time === null)
      return listTimes(query);
    if (query.limit <= 0 || time.lower > time.upper) return { times: [], resumeNs: null };
    return { times: walkFetch(query, time)(time.lower, time.upper, query.limit), resumeNs: null };
  };

  return {
    listTransactionTimestamps: (query) => listTimes(query).times,
    listTransactionTimesPage,
    loadTransactions: loadRows,
    listTransactions: (query) => listTransactionPage(query).rows,
    listTransactionPage,
    getTransactionsById,
    getTransactionsByHash(hash, filter) {
      const matches = (
        candidatesByHash.all(Buffer.from(hash.subarray(0, 4))) as {
          consensus_ns: bigint;
          payer_id: bigint;
          hash: Buffer;
        }[]
      ).filter((c) => Buffer.compare(c.hash, hash) === 0);
      const payer = matches[0]?.payer_id;
      return matches
        .filter((c) => c.payer_id === payer)
        .map((c) => getRow.get(c.consensus_ns) as RawRow)
        .filter((raw) => lookupMatches(raw, filter))
        .map(toRow);
    },
  };
}

function creditDebitFlag(creditDebit: TransactionListQuery["creditDebit"]): number {
  return creditDebit === "credit"
    ? TRANSACTION_FLAGS.credit
    : creditDebit === "debit"
      ? TRANSACTION_FLAGS.debit
      : 0;
}

/** Types whose payer counts even as a child without a parent (upstream's `precedingTransactionTypes`). */
const PRECEDING_TYPES = new Set([11, 15]);

/** Whether a transaction involves an account of the range the way account_transaction would have it. */
function involvesAccountInRange(
  row: TransactionRow,
  scope: Extract<AccountScope, { kind: "range" }>,
  creditDebit: TransactionListQuery["creditDebit"],
): boolean {
  const inRange = (id: bigint) => id >= scope.lower && id <= scope.upper && !scope.excluded.has(id);
  const amountMatches = (amount: bigint) =>
    creditDebit === null || (creditDebit === "credit" ? amount > 0n : amount < 0n);
  for (const t of row.transfers) if (inRange(t.accountId) && amountMatches(t.amount)) return true;
  for (const t of row.tokenTransfers) if (inRange(t.accountId) && amountMatches(t.amount)) return true;
  if (creditDebit !== null || !inRange(row.payerId)) return false;
  return row.nonce === 0 || row.parentNs !== null || PRECEDING_TYPES.has(row.type);
}

function lookupMatches(raw: RawRow, filter: TransactionLookupFilter): boolean {
  if (filter.nonce !== undefined && Number(raw.nonce) !== filter.nonce) return false;
  if (filter.scheduled !== undefined) {
    const scheduled = (Number(raw.flags) & TRANSACTION_FLAGS.scheduled) !== 0;
    if (scheduled !== filter.scheduled) return false;
  }
  return true;
}

/** Upstream's `mayMissLongTermScheduledTransaction` for a lookup by id. */
function mayMissScheduled(scheduled: boolean | undefined, raws: readonly RawRow[]): boolean {
  if (scheduled === false) return false;
  if (scheduled === true) return raws.length === 0;
  let scheduleExists = false;
  for (const raw of raws) {
    if (Number(raw.type) === SCHEDULE_CREATE && SUCCESS_RESULTS.has(Number(raw.result)))
      scheduleExists = true;
    else if ((Number(raw.flags) & TRANSACTION_FLAGS.scheduled) !== 0) return false;
  }
  return scheduleExists;
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Merges two sorted, de-duplicated lists (ascending or descending), dropping duplicates. */
function mergeSorted(a: readonly bigint[], b: readonly bigint[], asc: boolean): bigint[] {
  const out: bigint[] = [];
  let i = 0;
  let j = 0;
  const before = (x: bigint, y: bigint) => (asc ? x < y : x > y);
  while (i < a.length || j < b.length) {
    let next: bigint;
    if (j >= b.length || (i < a.length && before(a[i]!, b[j]!))) next = a[i++]!;
    else if (i >= a.length || before(b[j]!, a[i]!)) next = b[j++]!;
    else {
      next = a[i++]!;
      j++;
    }
    if (out.length === 0 || out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

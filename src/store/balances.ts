import { MAX_INT64 } from "../int64.ts";
import {
  bounds,
  type Condition,
  createStatementCache,
  direction,
  matchesNothing,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";
import { applyTokenScope, type TokenScope } from "./token-scope.ts";

/** What `GET /api/v1/tokens/{tokenId}/balances` (and its cross-token form) asks for. */
export type BalancesQuery = {
  scope: TokenScope;
  /** Conditions on the account; a null value (an EVM address naming no account) matches nothing. */
  accountIds: readonly Condition<bigint | null>[];
  /** Conditions on the balance, applied to the balance at the chosen instant. */
  balances: readonly Condition<bigint>[];
  /** Only accounts whose current key is this single public key (lower-case hex). */
  publicKey: string | null;
  order: Order;
  limit: number;
  /** Null for current balances; otherwise the consensus instant (inclusive) the balances are taken at. */
  atNs: bigint | null;
};

export type BalanceRow = {
  token_id: bigint;
  account_id: bigint;
  balance: bigint;
  /** Consensus time of the last balance change (current balances only). */
  balance_ns: bigint | null;
  /** The token's decimals; null when the token itself is unknown. */
  decimals: bigint | null;
};

export type BalanceQueries = {
  /**
   * The balances of associated accounts, ordered by token then account. With `atNs`, each account that was
   * associated at that instant shows its newest balance at or before it (balances recorded before the
   * association started do not count), so the answer is exact at any consensus instant.
   */
  listBalances(query: BalancesQuery): BalanceRow[];
  /** Consensus end of the newest indexed record file: the latest instant whose state is fully known. */
  latestConsensusNs(): bigint | null;
  /** Consensus start of the oldest indexed record file. */
  earliestConsensusNs(): bigint | null;
};

export function createBalanceQueries(
  db: Db,
  statement: StatementCache = createStatementCache(db),
): BalanceQueries {
  // Seeks on the newest and oldest block number (an ordered walk would read as a scan of the table).
  const latest = db
    .prepare("SELECT consensus_end FROM record_file WHERE number = (SELECT max(number) FROM record_file)")
    .pluck();
  const earliest = db
    .prepare("SELECT consensus_start FROM record_file WHERE number = (SELECT min(number) FROM record_file)")
    .pluck();

  return {
    listBalances(query) {
      if (matchesNothing(query.accountIds)) return [];
      const joinParams: unknown[] = [];
      let join = "LEFT JOIN token t ON t.id = ta.token_id AND t.valid_to IS NULL";
      if (query.publicKey !== null) {
        join += `
          JOIN entity e ON e.id = ta.account_id AND e.valid_to IS NULL AND e.type = 'ACCOUNT' AND e.public_key = ?`;
        joinParams.push(query.publicKey);
      }
      const where = new WhereBuilder();
      const dir = direction(query.order);
      const orderBy = (prefix: string) =>
        query.scope.kind === "one"
          ? `${prefix}account_id ${dir}`
          : `${prefix}token_id ${dir}, ${prefix}account_id ${dir}`;

      let sql: string;
      let params: unknown[];
      // Across tokens with nothing to start from (a token bound, an account, a key), the page is a walk from
      // the first token.
      const walk =
        query.scope.kind === "all" &&
        query.scope.tokenIds.length === 0 &&
        !bounds(query.scope.tokenConditions) &&
        query.scope.lower === null &&
        query.scope.upper === null &&
        !query.accountIds.some((c) => c.op === "eq") &&
        query.publicKey === null;
      if (query.atNs === null) {
        where.add("ta.valid_to IS NULL").add("ta.associated = 1");
        applyTokenScope(where, query.scope, "ta.token_id", "ta.account_id");
        where.compare("ta.account_id", query.accountIds).compare("ta.balance", query.balances);
        if (walk) where.startOf("ta.token_id", query.order);
        sql = `SELECT ta.token_id, ta.account_id, ta.balance, ta.balance_ns, t.decimals
          FROM token_account ta ${join} ${where.sql()}
          ORDER BY ${orderBy("ta.")} LIMIT +?`;
        params = [...joinParams, ...where.params, query.limit];
      } else {
        const at = query.atNs;
        // The newest balance since the association began; none yet means the association's opening 0.
        const balanceAt = `COALESCE((SELECT b.balance FROM token_balance b
            WHERE b.token_id = ta.token_id AND b.account_id = ta.account_id
              AND b.valid_from <= ? AND b.valid_from >= ta.created_ns
            ORDER BY b.valid_from DESC LIMIT 1), 0)`;
        // The relationships valid at `at`: with one token, its versions by primary key; across tokens (for one
        // account: the route asks for it), the account's current relationships that began by then and its closed
        // ones that were open then, each on an index of its own (current ones never enter the other).
        const versions: { validity: string; params: unknown[] }[] =
          query.scope.kind === "one" || !query.accountIds.some((c) => c.op === "eq")
            ? [
                {
                  validity: "ta.valid_from <= ? AND (ta.valid_to IS NULL OR ta.valid_to > ?)",
                  params: [at, at],
                },
              ]
            : [
                { validity: "ta.valid_to IS NULL AND ta.valid_from <= ?", params: [at] },
                {
                  validity: "ta.valid_to IS NOT NULL AND ta.valid_from <= ? AND ta.valid_to > ?",
                  params: [at, at],
                },
              ];
        const selects: string[] = [];
        params = [];
        for (const { validity, params: validityParams } of versions) {
          const part = new WhereBuilder().add(validity, ...validityParams).add("ta.associated = 1");
          applyTokenScope(part, query.scope, "ta.token_id", "ta.account_id");
          part.compare("ta.account_id", query.accountIds);
          if (walk) part.startOf("ta.token_id", query.order);
          selects.push(`SELECT ta.token_id, ta.account_id, ${balanceAt} AS balance, NULL AS balance_ns, t.decimals
            FROM token_account ta ${join} ${part.sql()}`);
          params.push(at, ...joinParams, ...part.params);
        }
        const outer = new WhereBuilder().compare("balance", query.balances);
        sql = `SELECT * FROM (${selects.join(" UNION ALL ")}) ${outer.sql()} ORDER BY ${orderBy("")} LIMIT +?`;
        params.push(...outer.params, query.limit);
      }
      return statement(sql).all(...params) as BalanceRow[];
    },
    latestConsensusNs: () => (latest.get() as bigint | undefined) ?? null,
    earliestConsensusNs: () => (earliest.get() as bigint | undefined) ?? null,
  };
}

/**
 * The instant a historical balances request is answered at, or null when there is none. The conditions are
 * read as the mirror node reads them (`eq` as `lte`; `gt`/`lt` exclusive; `ne` excludes one instant); the
 * answer is the latest admitted instant at or before `latestNs` (the newest indexed consensus time, beyond
 * which the state is not known yet). Balances are exact at every instant, so unlike the mirror node's
 * 15-minute snapshots no snapshot has to exist there.
 */
export function balanceInstant(
  conditions: readonly Condition<bigint>[],
  latestNs: bigint | null,
): bigint | null {
  if (latestNs === null) return null;
  let lower = 0n;
  let upper = MAX_INT64;
  const excluded = new Set<bigint>();
  for (const { op, value } of conditions) {
    if (op === "gt" && value + 1n > lower) lower = value + 1n;
    else if (op === "gte" && value > lower) lower = value;
    else if (op === "lt" && value - 1n < upper) upper = value - 1n;
    else if ((op === "lte" || op === "eq") && value < upper) upper = value;
    else if (op === "ne") excluded.add(value);
  }
  let at = upper < latestNs ? upper : latestNs;
  while (excluded.has(at)) at -= 1n;
  return at < lower ? null : at;
}

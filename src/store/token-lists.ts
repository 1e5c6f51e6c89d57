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
import { compileContainsPattern, type LikePattern, literalRuns, matchesLike } from "./like-pattern.ts";

/** What `GET /api/v1/tokens` asks for; every condition is ANDed. */
export type TokensQuery = {
  /** `token.id` equalities: one IN list (empty: no such condition). */
  tokenIds: readonly bigint[];
  tokenConditions: readonly Condition<bigint>[];
  /** Only tokens this account is associated with; null (an EVM address naming no account) matches nothing. */
  accountId: bigint | null | undefined;
  /** Compared with the token entity's `public_key`. */
  publicKeys: readonly Condition<string>[];
  types: readonly Condition<string>[];
  /** Each must match the name as PostgreSQL's `name ILIKE '%v%'` does (see like-pattern.ts). */
  names: readonly string[];
  order: Order;
  limit: number;
};

export type TokenListRow = {
  id: bigint;
  name: string;
  symbol: string;
  type: string;
  decimals: bigint;
  metadata: Buffer | null;
  /** The token entity's admin key bytes. */
  key: Buffer | null;
};

export type TokenListQueries = {
  /** Current tokens (deleted ones included), ordered by token ID. */
  listTokens(query: TokensQuery): TokenListRow[];
};

/** Every token type the index holds. */
const TOKEN_TYPES = ["FUNGIBLE_COMMON", "NON_FUNGIBLE_UNIQUE"] as const;

/**
 * The token types that satisfy every `type` condition, compared as SQLite compares text (byte order). The
 * domain has two values, so any mix of operators comes down to none, one (a seek) or both (no condition).
 */
function tokenTypesAdmitted(conditions: readonly Condition<string>[]): string[] {
  const holds = (type: string, { op, value }: Condition<string>) => {
    const order = type < value ? -1 : type > value ? 1 : 0;
    switch (op) {
      case "eq":
        return order === 0;
      case "ne":
        return order !== 0;
      case "lt":
        return order < 0;
      case "lte":
        return order <= 0;
      case "gt":
        return order > 0;
      case "gte":
        return order >= 0;
    }
  };
  return TOKEN_TYPES.filter((type) => conditions.every((condition) => holds(type, condition)));
}

/** `name_matches(name, patternsJson)`: 1 when the name matches every `ILIKE '%v%'` pattern in the JSON array. */
const NAME_MATCH_FUNCTION = "mirrorlite_name_matches_all";

export function createTokenListQueries(
  db: Db,
  statement: StatementCache = createStatementCache(db),
): TokenListQueries {
  // Compiled name filters by their JSON text. Filters come from requests: the memo is cleared rather than
  // allowed to grow, and compiling again is cheap.
  const compiled = new Map<string, LikePattern[]>();
  db.function(NAME_MATCH_FUNCTION, { deterministic: true }, (name: unknown, patternsJson: unknown) => {
    if (typeof name !== "string" || typeof patternsJson !== "string") return 0;
    let patterns = compiled.get(patternsJson);
    if (patterns === undefined) {
      patterns = (JSON.parse(patternsJson) as string[]).map(compileContainsPattern);
      if (compiled.size >= 256) compiled.clear();
      compiled.set(patternsJson, patterns);
    }
    return patterns.every((pattern) => matchesLike(name, pattern)) ? 1 : 0;
  });

  return {
    listTokens(query) {
      if (query.accountId === null) return [];
      const joinParams: unknown[] = [];
      // A name search starts from the trigram index (token_name, migration 0081) with every literal run of three
      // or more characters, in token order; the exact match decides. Patterns without such a run (`a_b`, `%%%`)
      // can only walk the tokens.
      // FTS5 ends a phrase at a NUL character ("unterminated string"): runs are split there (the exact match
      // below still decides, so splitting only widens what the index hands it).
      const terms = query.names
        .flatMap(literalRuns)
        .flatMap((run) => run.split("\0"))
        .filter((run) => [...run].length >= 3);
      const byName = terms.length > 0;
      const from = byName ? "token_name n JOIN token t ON t.id = n.rowid" : "token t";
      // Each run as an FTS5 phrase (quotes doubled), all of them required.
      const nameTerms = terms.map((run) => `"${run.replaceAll('"', '""')}"`).join(" AND ");
      let join = "JOIN entity e ON e.id = t.id AND e.valid_to IS NULL";
      if (query.accountId !== undefined) {
        // The account's current relationships in token order: the page needs no sort (the index of every
        // version, which the planner would otherwise pick, would need one).
        join += `
          JOIN token_account ta INDEXED BY token_account_current_by_account
            ON ta.token_id = t.id AND ta.account_id = ? AND ta.valid_to IS NULL
            AND ta.associated = 1`;
        joinParams.push(query.accountId);
      }
      // The same order; with an account, named by the column its index walks in (no sort needed).
      const orderColumn = byName ? "n.rowid" : query.accountId === undefined ? "t.id" : "ta.token_id";
      const types = tokenTypesAdmitted(query.types);
      if (types.length === 0) return [];
      const where = new WhereBuilder();
      if (byName) where.add("token_name MATCH ?", nameTerms);
      where.add("t.valid_to IS NULL");
      where.in("t.id", query.tokenIds).compare("t.id", query.tokenConditions);
      // One type is a seek on (type, id); both are no condition at all.
      if (types.length === 1) where.add("t.type = ?", types[0]);
      where.compare("e.public_key", query.publicKeys);
      // Without a bound on the id, nor an account or a key to start from, the page is a walk from the first id.
      const driven = byName || query.accountId !== undefined || query.publicKeys.some((c) => c.op === "eq");
      if (query.tokenIds.length === 0 && !bounds(query.tokenConditions) && !driven)
        where.startOf("t.id", query.order);
      // Every name in one argument: the SQL text is the same however many names a request gives.
      if (query.names.length > 0)
        where.add(`${NAME_MATCH_FUNCTION}(t.name, ?) != 0`, JSON.stringify(query.names));
      const sql = `SELECT t.id, t.name, t.symbol, t.type, t.decimals, t.metadata, e.key
        FROM ${from} ${join} ${where.sql()} ORDER BY ${orderColumn} ${direction(query.order)} LIMIT +?`;
      return statement(sql).all(...joinParams, ...where.params, query.limit) as TokenListRow[];
    },
  };
}

import {
  type Condition,
  createStatementCache,
  direction,
  type Order,
  type StatementCache,
  WhereBuilder,
} from "./conditions.ts";
import type { Db } from "./db.ts";
import { compileContainsPattern, type LikePattern, matchesLike } from "./like-pattern.ts";

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
      let join = "JOIN entity e ON e.id = t.id AND e.valid_to IS NULL";
      if (query.accountId !== undefined) {
        join += `
          JOIN token_account ta ON ta.token_id = t.id AND ta.account_id = ? AND ta.valid_to IS NULL
            AND ta.associated = 1`;
        joinParams.push(query.accountId);
      }
      const where = new WhereBuilder().add("t.valid_to IS NULL");
      where.in("t.id", query.tokenIds).compare("t.id", query.tokenConditions);
      where.compare("e.public_key", query.publicKeys).compare("t.type", query.types);
      // Every name in one argument: the SQL text is the same however many names a request gives.
      if (query.names.length > 0)
        where.add(`${NAME_MATCH_FUNCTION}(t.name, ?) != 0`, JSON.stringify(query.names));
      const sql = `SELECT t.id, t.name, t.symbol, t.type, t.decimals, t.metadata, e.key
        FROM token t ${join} ${where.sql()} ORDER BY t.id ${direction(query.order)} LIMIT ?`;
      return statement(sql).all(...joinParams, ...where.params, query.limit) as TokenListRow[];
    },
  };
}

import { type Condition, createStatementCache, direction, type Order, WhereBuilder } from "./conditions.ts";
import type { Db } from "./db.ts";

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
  /** Case-insensitive substrings of the name, where `%` and `_` are wildcards (PostgreSQL `ILIKE '%v%'`). */
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

const NAME_MATCH_FUNCTION = "mirrorlite_name_contains";

export function createTokenListQueries(db: Db): TokenListQueries {
  const statement = createStatementCache(db);
  const patterns = new Map<string, RegExp>();
  db.function(NAME_MATCH_FUNCTION, { deterministic: true }, (name: unknown, pattern: unknown) => {
    if (typeof name !== "string" || typeof pattern !== "string") return 0;
    let regex = patterns.get(pattern);
    if (regex === undefined) {
      regex = likePatternToRegExp(pattern);
      // Patterns come from requests: keep the memo small rather than let it grow without bound.
      if (patterns.size >= 256) patterns.clear();
      patterns.set(pattern, regex);
    }
    return regex.test(name) ? 1 : 0;
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
      for (const name of query.names) where.add(`${NAME_MATCH_FUNCTION}(t.name, ?) != 0`, name);
      const sql = `SELECT t.id, t.name, t.symbol, t.type, t.decimals, t.metadata, e.key
        FROM token t ${join} ${where.sql()} ORDER BY t.id ${direction(query.order)} LIMIT ?`;
      return statement(sql).all(...joinParams, ...where.params, query.limit) as TokenListRow[];
    },
  };
}

/**
 * `ILIKE '%<value>%'` as a regular expression: `%` is any run of characters, `_` any one character, a
 * backslash makes the next character literal, and letters match regardless of case (Unicode case folding).
 */
export function likePatternToRegExp(value: string): RegExp {
  let source = "";
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "\\" && i + 1 < chars.length) source += escapeRegExp(chars[++i]!);
    else if (c === "%") source += "[\\s\\S]*";
    else if (c === "_") source += "[\\s\\S]";
    else source += escapeRegExp(c);
  }
  return new RegExp(source, "iu");
}

function escapeRegExp(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

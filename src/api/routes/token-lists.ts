import { formatEntityId } from "../../ids.ts";
import { type BalanceRow, balanceInstant } from "../../store/balances.ts";
import type { ReadStore } from "../../store/read-store.ts";
import type { TokenScope } from "../../store/token-scope.ts";
import { formatTimestamp } from "../../time.ts";
import {
  type Comparison,
  nextLink,
  type Order,
  type PagingContext,
  parseTokenBalancesRequest,
  parseTokensRequest,
  type RequestParts,
  tokenBalancesSpec,
  validateFilters,
} from "../params/index.ts";
import { tokenIdSpec } from "../params/param-specs.ts";
import { tokenBalanceView, tokenListItemView } from "../views/token-lists.ts";
import { defineRoute, jsonAnswer, type RouteAnswer, type RouteDef } from "./route-table.ts";
import {
  crossTokenNextLink,
  crossTokenScope,
  onShortPath,
  orFail,
  readShortPathRequest,
  TOKEN_ID,
  withoutTokenId,
} from "./token-id-query.ts";

/** The public mirror node's `max-age` for `/tokens` and for the balance lists. */
const TOKENS_MAX_AGE = 10;
const BALANCES_MAX_AGE = 1;

/**
 * How a balances page links onward: upstream's rule on one token (`account.id` anchor), or the (token, account)
 * pair of a list across tokens (see token-id-query.ts). Data, not a function: it travels to the read worker.
 */
type BalancesPaging =
  | { readonly kind: "one"; readonly paging: PagingContext }
  | { readonly kind: "all"; readonly request: RequestParts };

/** What a balances page needs once the token scope is known (`parse`'s value of the balance routes). */
type BalancesRequest = {
  scope: TokenScope;
  accountIds: readonly Comparison<bigint | null>[];
  balances: readonly Comparison<bigint>[];
  publicKey: string | null;
  timestamps: readonly Comparison<bigint>[];
  order: Order;
  limit: number;
  paging: BalancesPaging;
};

/**
 * `GET /api/v1/tokens`, `GET /api/v1/tokens/balances` and `GET /api/v1/tokens/{tokenId}/balances`, cached as
 * lists. Listed before the token-info route, which would otherwise take `balances` for a token.
 */
export function tokenListRoutes(): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/tokens",
      caching: "stale-ok",
      maxAge: TOKENS_MAX_AGE,
      parse: ({ url }) => orFail(parseTokensRequest(url)),
      answer: (store, request) => {
        const rows = store.tokenLists.listTokens({
          tokenIds: request.tokenIds,
          tokenConditions: request.tokenIdRanges,
          accountId: request.accountId,
          publicKeys: request.publicKeys,
          types: request.types,
          names: request.names,
          order: request.order,
          limit: request.limit,
        });
        const tokens = rows.map(tokenListItemView);
        const last = rows.at(-1);
        const next = nextLink(request.paging, rows.length, last && (formatEntityId(last.id) ?? undefined));
        return jsonAnswer({ tokens, links: { next } });
      },
    }),
    defineRoute({
      template: "/api/v1/tokens/balances",
      caching: "stale-ok",
      maxAge: BALANCES_MAX_AGE,
      parse: ({ url }) => shortBalancesRequest(url),
      answer: balancesPage,
    }),
    defineRoute({
      template: "/api/v1/tokens/{tokenId}/balances",
      caching: "stale-ok",
      maxAge: BALANCES_MAX_AGE,
      parse: ({ url, params }): BalancesRequest => {
        const { tokenId, paging, ...request } = orFail(
          parseTokenBalancesRequest({ tokenId: params.tokenId! }, url),
        );
        return { ...request, scope: { kind: "one", tokenId }, paging: { kind: "one", paging } };
      },
      answer: balancesPage,
    }),
  ];
}

/**
 * A balances page. Without `timestamp`, current balances, and `timestamp` is the newest balance change on the
 * page. With `timestamp`, the balances at the latest instant the conditions admit that this mirror has
 * indexed (see `balanceInstant`), and `timestamp` is that instant. An empty page has `timestamp: null`.
 */
function balancesPage(store: ReadStore, request: BalancesRequest): RouteAnswer {
  let atNs: bigint | null = null;
  if (request.timestamps.length > 0) {
    atNs = balanceInstant(request.timestamps, store.balances.latestConsensusNs());
    if (atNs === null) return emptyBalances();
  }
  const rows = store.balances.listBalances({ ...request, atNs });
  if (rows.length === 0) return emptyBalances();
  let timestampNs = atNs;
  if (timestampNs === null) {
    for (const row of rows) {
      if (row.balance_ns !== null && (timestampNs === null || row.balance_ns > timestampNs)) {
        timestampNs = row.balance_ns;
      }
    }
  }
  return jsonAnswer({
    timestamp: timestampNs === null ? null : formatTimestamp(timestampNs),
    balances: rows.map(tokenBalanceView),
    links: { next: balancesNext(request, rows) },
  });
}

function emptyBalances(): RouteAnswer {
  return jsonAnswer({ timestamp: null, balances: [], links: { next: null } });
}

function balancesNext(request: BalancesRequest, rows: readonly BalanceRow[]): string | null {
  const last = rows.at(-1);
  if (request.paging.kind === "one") {
    return nextLink(
      request.paging.paging,
      rows.length,
      last && (formatEntityId(last.account_id) ?? undefined),
    );
  }
  return crossTokenNextLink({
    request: request.paging.request,
    keyName: "account.id",
    order: request.order,
    limit: request.limit,
    count: rows.length,
    last: last && { tokenId: last.token_id, key: formatEntityId(last.account_id) ?? "" },
  });
}

/** `/api/v1/tokens/balances`: one token when `token.id` names one, otherwise every token. */
function shortBalancesRequest(url: string): BalancesRequest {
  const { request, tokenId } = readShortPathRequest(url);
  if (tokenId.kind === "one") {
    const parsed = parseTokenBalancesRequest({ tokenId: tokenId.value }, withoutTokenId(url));
    if (!parsed.ok && parsed.messages[0] === "Invalid parameter: tokenid") {
      orFail({ ok: false, messages: [`Invalid parameter: ${TOKEN_ID}`] });
    }
    const { tokenId: one, paging, ...rest } = orFail(parsed);
    return {
      ...rest,
      scope: { kind: "one", tokenId: one },
      paging: { kind: "one", paging: onShortPath(paging, request) },
    };
  }

  const spec = { ...tokenBalancesSpec(request.options), [TOKEN_ID]: tokenIdSpec(request.options) };
  const filters = orFail(validateFilters(request.query, spec, request.options.maxRepeatedQueryParameters));
  const tokenConditions: Comparison<bigint>[] = [];
  const accountIds: Comparison<bigint | null>[] = [];
  const balances: Comparison<bigint>[] = [];
  const timestamps: Comparison<bigint>[] = [];
  let publicKey: string | null = null;
  let limit = request.options.defaultLimit;
  let order: Order = "desc";
  for (const { key, op, value } of filters) {
    if (key === TOKEN_ID) tokenConditions.push({ op, value: value as bigint });
    else if (key === "account.id") accountIds.push({ op, value: value as bigint | null });
    else if (key === "account.balance") balances.push({ op, value: value as bigint });
    else if (key === "timestamp") timestamps.push({ op, value: value as bigint });
    else if (key === "account.publickey") publicKey = value as string;
    else if (key === "limit") limit = value as number;
    else if (key === "order") order = value as Order;
  }
  const { scope, keyConditions, empty } = orFail(crossTokenScope("account.id", tokenConditions, accountIds));
  // Balances at an instant, or filtered by amount, are read per relationship: across tokens that walk is bounded
  // only by one account's relationships (an index seek), never by every relationship of the ledger.
  if (!keyConditions.some((c) => c.op === "eq")) {
    const messages: string[] = [];
    if (balances.length > 0) messages.push("account.balance across tokens needs an account.id");
    if (timestamps.length > 0) messages.push("timestamp across tokens needs an account.id");
    if (messages.length > 0) orFail({ ok: false, messages });
  }
  return {
    scope,
    // A pair bound on an EVM address that names no account: nothing can follow it.
    accountIds: empty ? [{ op: "eq", value: null }] : keyConditions,
    balances,
    publicKey,
    timestamps,
    order,
    limit,
    paging: { kind: "all", request },
  };
}

import { type Request, Router } from "express";
import { formatEntityId } from "../../ids.ts";
import { type BalanceRow, balanceInstant } from "../../store/balances.ts";
import type { ReadStore } from "../../store/read-store.ts";
import type { TokenScope } from "../../store/token-scope.ts";
import { formatTimestamp } from "../../time.ts";
import type { ListCache, ListPage } from "../cache.ts";
import {
  type Comparison,
  nextLink,
  type Order,
  type PagingContext,
  parseTokenBalancesRequest,
  parseTokensRequest,
  tokenBalancesSpec,
  validateFilters,
} from "../params/index.ts";
import { tokenIdSpec } from "../params/param-specs.ts";
import { tokenBalanceView, tokenListItemView } from "../views/token-lists.ts";
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

/** What a balances page needs once the token scope is known. */
type BalancesRequest = {
  scope: TokenScope;
  accountIds: readonly Comparison<bigint | null>[];
  balances: readonly Comparison<bigint>[];
  publicKey: string | null;
  timestamps: readonly Comparison<bigint>[];
  order: Order;
  limit: number;
  /** Builds the next link from the page's rows. */
  next: (rows: readonly BalanceRow[]) => string | null;
};

/**
 * `GET /api/v1/tokens`, `GET /api/v1/tokens/{tokenId}/balances` and `GET /api/v1/tokens/balances`, served
 * through the list cache. Mount before the token-info route, which would otherwise take `balances` for a token.
 */
export function tokenListRoutes(store: ReadStore, cache: ListCache): Router {
  const router = Router();

  router.get("/api/v1/tokens", (req, res) => {
    cache.send(req, res, TOKENS_MAX_AGE, () => {
      const request = orFail(parseTokensRequest(req.originalUrl));
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
      return { status: 200, body: { tokens, links: { next } } };
    });
  });

  router.get("/api/v1/tokens/balances", (req, res) => {
    cache.send(req, res, BALANCES_MAX_AGE, () => balancesPage(store, shortBalancesRequest(req)));
  });

  router.get("/api/v1/tokens/:tokenId/balances", (req, res) => {
    cache.send(req, res, BALANCES_MAX_AGE, () => {
      const request = orFail(parseTokenBalancesRequest({ tokenId: req.params.tokenId }, req.originalUrl));
      return balancesPage(store, {
        ...request,
        scope: { kind: "one", tokenId: request.tokenId },
        next: singleTokenNext(request.paging),
      });
    });
  });

  return router;
}

/**
 * A balances page. Without `timestamp`, current balances, and `timestamp` is the newest balance change on the
 * page. With `timestamp`, the balances at the latest instant the conditions admit that this mirror has
 * indexed (see `balanceInstant`), and `timestamp` is that instant. An empty page has `timestamp: null`.
 */
function balancesPage(store: ReadStore, request: BalancesRequest): ListPage {
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
  return {
    status: 200,
    body: {
      timestamp: timestampNs === null ? null : formatTimestamp(timestampNs),
      balances: rows.map(tokenBalanceView),
      links: { next: request.next(rows) },
    },
  };
}

function emptyBalances(): ListPage {
  return { status: 200, body: { timestamp: null, balances: [], links: { next: null } } };
}

function singleTokenNext(paging: PagingContext): (rows: readonly BalanceRow[]) => string | null {
  return (rows) => {
    const last = rows.at(-1);
    return nextLink(paging, rows.length, last && (formatEntityId(last.account_id) ?? undefined));
  };
}

/** `/api/v1/tokens/balances`: one token when `token.id` names one, otherwise every token. */
function shortBalancesRequest(req: Request): BalancesRequest {
  const { request, tokenId } = readShortPathRequest(req.originalUrl);
  if (tokenId.kind === "one") {
    const parsed = parseTokenBalancesRequest({ tokenId: tokenId.value }, withoutTokenId(req.originalUrl));
    if (!parsed.ok && parsed.messages[0] === "Invalid parameter: tokenid") {
      orFail({ ok: false, messages: [`Invalid parameter: ${TOKEN_ID}`] });
    }
    const one = orFail(parsed);
    return {
      ...one,
      scope: { kind: "one", tokenId: one.tokenId },
      next: singleTokenNext(onShortPath(one.paging, request)),
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
  return {
    scope,
    // A pair bound on an EVM address that names no account: nothing can follow it.
    accountIds: empty ? [{ op: "eq", value: null }] : keyConditions,
    balances,
    publicKey,
    timestamps,
    order,
    limit,
    next: (rows) => {
      const last = rows.at(-1);
      return crossTokenNextLink({
        request,
        keyName: "account.id",
        order,
        limit,
        count: rows.length,
        last: last && { tokenId: last.token_id, key: formatEntityId(last.account_id) ?? "" },
      });
    },
  };
}

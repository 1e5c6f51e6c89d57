/**
 * The account sub-resources of the Node service: `/api/v1/accounts/{idOrAliasOrEvmAddress}/tokens`, `/nfts`,
 * `/rewards`, `/allowances/crypto`, `/allowances/tokens` (accounts.md §1.1, §5; upstream `TokenController`,
 * `AccountController`, `CryptoAllowanceController`, `TokenAllowanceController`). Each reads the query string and
 * the path on the front's thread; where the index is read it resolves the account (an address or alias that
 * names nobody: 404), checks the account exists where upstream does (`/tokens`, `/rewards`: 404 `Not found`),
 * and only then answers a bad query with its 400, in upstream's order.
 */
import { formatEntityId } from "../../ids.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { formatTimestamp } from "../../time.ts";
import { resolveAccountRef } from "../account-ref.ts";
import { notFound } from "../http-errors.ts";
import type { AccountSubRequest } from "../params/account-relations.ts";
import { parseAccountNftsRequest, parseAccountTokensRequest } from "../params/account-tokens.ts";
import { parseCryptoAllowancesRequest, parseTokenAllowancesRequest } from "../params/allowances.ts";
import { type ParamResult, unwrapParams } from "../params/errors.ts";
import { buildPairedNextLink, nextLink, type PagingContext } from "../params/links.ts";
import { type KeyBound, type PairedParts, pairedNextKeys } from "../params/paired-bounds.ts";
import { parseStakingRewardsRequest } from "../params/staking-rewards.ts";
import {
  fungibleAllowanceView,
  stakingRewardView,
  tokenRelationshipView,
} from "../views/account-relations.ts";
import { nftView } from "../views/nfts.ts";
import { defineRoute, jsonAnswer, type RouteDef } from "./route-table.ts";

const ACCOUNT = "/api/v1/accounts/{idOrAliasOrEvmAddress}";
/** Upstream's `Cache-Control` max-age: the default, and `/rewards`'. */
const DEFAULT_MAX_AGE = 1;
const REWARDS_MAX_AGE = 60;

/** The account the path names (404s for an address or alias naming nobody), then the query (its 400). */
function accountAndQuery<Q>(
  store: ReadStore,
  request: AccountSubRequest<Q>,
  mustExist: boolean,
): { accountId: bigint; query: Q } {
  const accountId = resolveAccountRef(store, request.account);
  if (mustExist && !store.entityExists(accountId)) throw notFound();
  return { accountId, query: unwrapParams(request.query) };
}

/** The next link of a full page of a list paged on two keys, from its last item's two values. */
function pairedLink(
  paging: PagingContext,
  bounds: readonly [KeyBound<unknown>, KeyBound<unknown>],
  count: number,
  last: { primary: string; secondary: string } | undefined,
): string | null {
  if (last === undefined || count < paging.limit) return null;
  const keys = pairedNextKeys(bounds[0], bounds[1], last);
  return keys === null ? null : buildPairedNextLink({ ...paging, keys });
}

/** Paired parts as the store takes them (key 0 primary, 1 secondary). */
const partsOf = <V>(parts: PairedParts<V>) => [parts.lower, parts.inner, parts.upper];

type Parse<Q> = (idText: string, url: string) => ParamResult<AccountSubRequest<Q>>;

function accountRoute<Q>(
  suffix: string,
  maxAge: number,
  parse: Parse<Q>,
  answer: RouteDef<AccountSubRequest<Q>>["answer"],
): RouteDef {
  return defineRoute<AccountSubRequest<Q>>({
    template: `${ACCOUNT}/${suffix}`,
    caching: "stale-ok",
    maxAge,
    parse: ({ url, params }) => unwrapParams(parse(params.idOrAliasOrEvmAddress ?? "", url)),
    answer,
  });
}

/** The five Node-style account sub-resource routes. */
export function accountRelationRoutes(): RouteDef[] {
  return [
    accountRoute("tokens", DEFAULT_MAX_AGE, parseAccountTokensRequest, (store, request) => {
      const { accountId, query } = accountAndQuery(store, request, true);
      const rows = store.accountTokens.listTokenRelationships({ accountId, ...query });
      const next = nextLink(query.paging, rows.length, formatEntityId(rows.at(-1)?.token_id) ?? undefined);
      return jsonAnswer({ tokens: rows.map(tokenRelationshipView), links: { next } });
    }),

    accountRoute("nfts", DEFAULT_MAX_AGE, parseAccountNftsRequest, (store, request) => {
      const { accountId, query } = accountAndQuery(store, request, false);
      const rows = store.accountTokens.listAccountNfts({ accountId, ...query, parts: partsOf(query.parts) });
      const last = rows.at(-1);
      const next = pairedLink(
        query.paging,
        [query.tokens, query.serials],
        rows.length,
        last && { primary: formatEntityId(last.token_id) ?? "0.0.0", secondary: last.serial.toString() },
      );
      return jsonAnswer({ nfts: rows.map(nftView), links: { next } });
    }),

    accountRoute("rewards", REWARDS_MAX_AGE, parseStakingRewardsRequest, (store, request) => {
      const { accountId, query } = accountAndQuery(store, request, true);
      const rows = store.stakingRewards.listRewards({ accountId, ...query });
      const last = rows.at(-1);
      const next = nextLink(query.paging, rows.length, last && formatTimestamp(last.consensus_ns));
      return jsonAnswer({ rewards: rows.map(stakingRewardView), links: { next } });
    }),

    accountRoute("allowances/crypto", DEFAULT_MAX_AGE, parseCryptoAllowancesRequest, (store, request) => {
      const { accountId, query } = accountAndQuery(store, request, false);
      const rows = store.allowances.listCryptoAllowances({ owner: accountId, ...query });
      const next = nextLink(query.paging, rows.length, formatEntityId(rows.at(-1)?.spender) ?? undefined);
      return jsonAnswer({ allowances: rows.map(fungibleAllowanceView), links: { next } });
    }),

    accountRoute("allowances/tokens", DEFAULT_MAX_AGE, parseTokenAllowancesRequest, (store, request) => {
      const { accountId, query } = accountAndQuery(store, request, false);
      const rows = store.allowances.listTokenAllowances({
        owner: accountId,
        parts: partsOf(query.parts),
        order: query.order,
        limit: query.limit,
      });
      const last = rows.at(-1);
      const next = pairedLink(
        query.paging,
        [query.spenders, query.tokens],
        rows.length,
        last && {
          primary: formatEntityId(last.spender) ?? "0.0.0",
          secondary: formatEntityId(last.token_id) ?? "0.0.0",
        },
      );
      return jsonAnswer({ allowances: rows.map(fungibleAllowanceView), links: { next } });
    }),
  ];
}

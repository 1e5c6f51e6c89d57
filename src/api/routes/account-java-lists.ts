/**
 * The account lists the Java service answers: `/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/nfts`
 * (upstream `AllowancesController`, `NftAllowanceServiceImpl`) and `/airdrops/outstanding` and `/pending`
 * (`TokenAirdropsController`), with the Java conventions (`src/api/java/`): `Cache-Control: public, max-age=1`,
 * Java error bodies, unknown parameters ignored, links from the sort keys.
 *
 * Order of answers, as upstream: conversions (400 `Failed to convert '<name>'`, the path first), the method's
 * constraints, the primary key's range, NFT allowances' parameter rules; then, where the index is read, the
 * account of an address or alias (404 `No account found for the given ID`). An entity ID is never looked up.
 */
import { formatEntityId } from "../../ids.ts";
import type { AccountRef } from "../../store/account-lookup.ts";
import type { RangeBound, RangeOp } from "../../store/range-bounds.ts";
import {
  adjustedLower,
  adjustedUpper,
  type CountedBound,
  checkConstraints,
  isEmptyBound,
  makeBound,
  parseJavaAccountId,
  readJavaBoolean,
  readJavaLimit,
  readJavaOrder,
  readRangeParams,
} from "../java/account-lists.ts";
import { lookupJavaAccount, pathOfUrl } from "../java/entity-lookup.ts";
import { javaBadRequest } from "../java/errors.ts";
import { javaSortedNextLink } from "../java/links.ts";
import type { Order } from "../java/params.ts";
import { type JavaQuery, parseJavaQuery } from "../java/query.ts";
import { toJson } from "../json.ts";
import { nftAllowanceView, tokenAirdropView } from "../views/account-relations.ts";
import { defineRoute, javaAnswer, type RouteDef } from "./route-table.ts";

const ACCOUNT = "/api/v1/accounts/{idOrAliasOrEvmAddress}";
const JAVA_MAX_AGE = 1;

type NftAllowancesRequest = {
  account: AccountRef;
  owner: boolean;
  bounds: RangeBound[];
  order: Order;
  limit: number;
  path: string;
  query: JavaQuery;
};

/** Upstream `checkOwnerSpenderParamValidity`, after `Bound`'s own checks. */
function checkNftAllowanceBounds(accounts: CountedBound, tokens: CountedBound): void {
  if (isEmptyBound(accounts) && !isEmptyBound(tokens)) {
    throw javaBadRequest("token.id parameter must have account.id present");
  }
  for (const bound of [accounts, tokens]) {
    const count = (...ops: RangeOp[]) => ops.reduce((sum, op) => sum + bound.counts[op], 0);
    if (count("ne") > 0) throw javaBadRequest(`Unsupported range operator ne for ${bound.name}`);
    for (const group of [["eq"], ["gt", "gte"], ["lt", "lte"]] as RangeOp[][]) {
      if (count(...group) > 1) {
        throw javaBadRequest(
          `Only one range operator from [${group.join(", ")}] is allowed for the given parameter for ${bound.name}`,
        );
      }
    }
    if (count("eq") === 1 && (count("gt", "gte") !== 0 || count("lt", "lte") !== 0)) {
      throw javaBadRequest(`Can't support both range and equal for ${bound.name}`);
    }
  }
  const accountsBounded = accounts.lower !== null && accounts.upper !== null;
  if (!accountsBounded && adjustedLower(tokens) > adjustedUpper(tokens)) {
    throw javaBadRequest("Invalid range provided for token.id");
  }
  const has = (bound: CountedBound, ...ops: RangeOp[]) => ops.some((op) => bound.counts[op] > 0);
  if (has(tokens, "lt", "lte") && !has(accounts, "eq", "lte")) {
    throw javaBadRequest("Requires the presence of an lte or eq account.id parameter");
  }
  if (has(tokens, "gt", "gte") && !has(accounts, "eq", "gte")) {
    throw javaBadRequest("Requires the presence of an gte or eq account.id parameter");
  }
}

type AirdropsRequest = {
  account: AccountRef;
  outstanding: boolean;
  bounds: RangeBound[];
  order: Order;
  limit: number;
  path: string;
  query: JavaQuery;
};

/**
 * Upstream `TokenAirdropRequest.getBounds`: the other account's bound first (the token's when that is empty),
 * then the token's (the serial's when empty), then the serial's; the same bound may appear twice.
 */
function airdropBounds(entity: RangeBound, tokens: RangeBound, serials: RangeBound): RangeBound[] {
  const primary = isEmptyBound(entity) ? tokens : entity;
  if (isEmptyBound(primary)) return [serials];
  const secondary = isEmptyBound(tokens) ? serials : tokens;
  if (isEmptyBound(secondary)) return [primary];
  return [primary, secondary, serials];
}

function airdropRoute(outstanding: boolean): RouteDef {
  const other = outstanding ? "receiver.id" : "sender.id";
  const otherColumn = outstanding ? "receiver" : "sender";
  return defineRoute<AirdropsRequest>({
    template: `${ACCOUNT}/airdrops/${outstanding ? "outstanding" : "pending"}`,
    caching: "stale-ok",
    maxAge: JAVA_MAX_AGE,
    style: "java",
    parse: ({ url, params }) => {
      const query = parseJavaQuery(url);
      // Spring converts the arguments in the method's order: id, limit, order, the other account, serial, token.
      const account = parseJavaAccountId(params.idOrAliasOrEvmAddress ?? "");
      const limit = readJavaLimit(query);
      const order = readJavaOrder(query);
      const entityParams = readRangeParams(query, other, "entity");
      const serialParams = readRangeParams(query, "serialnumber", "number");
      const tokenParams = readRangeParams(query, "token.id", "entity");
      checkConstraints([
        ["limit", limit],
        ["size", other, entityParams],
        ["size", "serialnumber", serialParams],
        ["size", "token.id", tokenParams],
      ]);
      const entity = makeBound(entityParams, true, other, otherColumn);
      const serials = makeBound(serialParams, false, "serialnumber", "serial");
      const tokens = makeBound(tokenParams, false, "token.id", "token_id");
      const bounds = airdropBounds(entity, tokens, serials);
      return { account, outstanding, bounds, order, limit, path: pathOfUrl(url), query };
    },
    answer: (store, request) => {
      const accountId = lookupJavaAccount(store, request.account);
      const rows = store.airdrops.listAirdrops({ ...request, accountId });
      const last = rows.at(-1);
      let next: string | null = null;
      if (last !== undefined && rows.length >= request.limit) {
        // Without a serial the link pages on the token (upstream `getSort`).
        const sort = last.serial === 0n ? [other, "token.id"] : [other, "token.id", "serialnumber"];
        next = javaSortedNextLink(request.path, request.query, request.order, sort, {
          "receiver.id": formatEntityId(last.receiver) ?? "0.0.0",
          "sender.id": formatEntityId(last.sender) ?? "0.0.0",
          serialnumber: last.serial === 0n ? "0L" : last.serial.toString(),
          "token.id": formatEntityId(last.token_id) ?? "0.0.0",
        });
      }
      return javaAnswer(toJson({ airdrops: rows.map(tokenAirdropView), links: { next } }), next);
    },
  });
}

/** NFT allowances, and the airdrops an account sent (outstanding) or may claim (pending). */
export function accountJavaListRoutes(): RouteDef[] {
  return [
    defineRoute<NftAllowancesRequest>({
      template: `${ACCOUNT}/allowances/nfts`,
      caching: "stale-ok",
      maxAge: JAVA_MAX_AGE,
      style: "java",
      parse: ({ url, params }) => {
        const query = parseJavaQuery(url);
        // Spring's argument order: id, account.id, limit, order, owner, token.id.
        const account = parseJavaAccountId(params.idOrAliasOrEvmAddress ?? "");
        const accountParams = readRangeParams(query, "account.id", "entity");
        const limit = readJavaLimit(query);
        const order = readJavaOrder(query);
        const owner = readJavaBoolean(query, "owner", true);
        const tokenParams = readRangeParams(query, "token.id", "entity");
        checkConstraints([
          ["size", "account.id", accountParams],
          ["limit", limit],
          ["size", "token.id", tokenParams],
        ]);
        const accounts = makeBound(accountParams, true, "account.id", owner ? "spender" : "owner");
        const tokens = makeBound(tokenParams, false, "token.id", "token_id");
        checkNftAllowanceBounds(accounts, tokens);
        const bounds = isEmptyBound(accounts) ? [] : [accounts, tokens];
        return { account, owner, bounds, order, limit, path: pathOfUrl(url), query };
      },
      answer: (store, request) => {
        const accountId = lookupJavaAccount(store, request.account);
        const rows = store.allowances.listNftAllowances({ ...request, accountId, byOwner: request.owner });
        const last = rows.at(-1);
        let next: string | null = null;
        if (last !== undefined && rows.length >= request.limit) {
          next = javaSortedNextLink(request.path, request.query, request.order, ["account.id", "token.id"], {
            "account.id": formatEntityId(request.owner ? last.spender : last.owner) ?? "0.0.0",
            "token.id": formatEntityId(last.token_id) ?? "0.0.0",
          });
        }
        return javaAnswer(toJson({ allowances: rows.map(nftAllowanceView), links: { next } }), next);
      },
    }),
    airdropRoute(true),
    airdropRoute(false),
  ];
}

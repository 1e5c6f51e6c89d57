import { formatEntityId } from "../../ids.ts";
import type { NftHistoryQuery, NftRow } from "../../store/nfts.ts";
import type { ReadStore } from "../../store/read-store.ts";
import type { TokenScope } from "../../store/token-scope.ts";
import { HttpError, notFound } from "../http-errors.ts";
import {
  type Comparison,
  nextLink,
  type Order,
  type PagingContext,
  parseNftTransactionsRequest,
  parseSerialNumberPathParam,
  parseTokenIdPathParam,
  parseTokenNftRequest,
  parseTokenNftsRequest,
  tokenNftsSpec,
  unknownParameter,
  validateFilters,
} from "../params/index.ts";
import { tokenIdSpec } from "../params/param-specs.ts";
import { formatTimestamp } from "../params/timestamp.ts";
import { nftEventView, nftView } from "../views/nfts.ts";
import { type HandlerRouteDef, jsonAnswer, type RouteAnswer } from "./route-table.ts";
import {
  crossTokenNextLink,
  crossTokenScope,
  onShortPath,
  orFail,
  readShortPathRequest,
  TOKEN_ID,
  withoutTokenId,
} from "./token-id-query.ts";

/** The public mirror node's `max-age` for every NFT route. */
const NFTS_MAX_AGE = 1;

type NftsRequest = {
  scope: TokenScope;
  accountIds: readonly Comparison<bigint | null>[];
  serials: readonly Comparison<bigint>[];
  order: Order;
  limit: number;
  next: (rows: readonly NftRow[]) => string | null;
};

/**
 * The NFT routes, with the token in the path or (short paths) as `token.id`. Lists are cached as lists; a
 * single NFT is always read fresh. The short paths are listed first: `/api/v1/tokens/nfts/…` must not be read
 * as a token called `nfts`.
 */
export function nftRoutes(store: ReadStore): HandlerRouteDef[] {
  const route = (
    template: string,
    caching: HandlerRouteDef["caching"],
    handle: HandlerRouteDef["handle"],
  ): HandlerRouteDef => ({
    template,
    caching,
    maxAge: NFTS_MAX_AGE,
    handle,
  });
  return [
    route("/api/v1/tokens/nfts", "stale-ok", ({ url }) => nftsPage(store, shortNftsRequest(url))),

    route("/api/v1/tokens/nfts/{serialNumber}", "none", ({ url, params }) => {
      const { request, tokenId } = readShortPathRequest(url);
      const unknown = [...request.query.keys()].filter((name) => name !== TOKEN_ID).map(unknownParameter);
      if (unknown.length > 0) throw new HttpError(400, unknown);
      const token = requiredTokenId(tokenId);
      const serial = orFail(parseSerialNumberPathParam(params.serialNumber ?? ""));
      return nftAnswer(store.nfts.getNft(token, serial));
    }),

    route("/api/v1/tokens/nfts/{serialNumber}/transactions", "stale-ok", ({ url, params }) => {
      const { request, tokenId } = readShortPathRequest(url);
      const token = requiredTokenId(tokenId);
      const parsed = orFail(
        parseNftTransactionsRequest(
          { tokenId: formatTokenParam(token), serialNumber: params.serialNumber ?? "" },
          withoutTokenId(url),
        ),
      );
      return historyPage(
        store,
        { ...parsed, serial: parsed.serialNumber },
        onShortPath(parsed.paging, request),
      );
    }),

    route("/api/v1/tokens/{tokenId}/nfts", "stale-ok", ({ url, params }) => {
      const request = orFail(parseTokenNftsRequest({ tokenId: params.tokenId ?? "" }, url));
      return nftsPage(store, {
        ...request,
        scope: { kind: "one", tokenId: request.tokenId },
        serials: request.serialNumbers,
        next: singleTokenNext(request.paging),
      });
    }),

    route("/api/v1/tokens/{tokenId}/nfts/{serialNumber}", "none", ({ url, params }) => {
      const { tokenId, serialNumber } = orFail(
        parseTokenNftRequest({ tokenId: params.tokenId ?? "", serialNumber: params.serialNumber ?? "" }, url),
      );
      return nftAnswer(store.nfts.getNft(tokenId, serialNumber));
    }),

    route("/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions", "stale-ok", ({ url, params }) => {
      const request = orFail(
        parseNftTransactionsRequest(
          { tokenId: params.tokenId ?? "", serialNumber: params.serialNumber ?? "" },
          url,
        ),
      );
      return historyPage(store, { ...request, serial: request.serialNumber }, request.paging);
    }),
  ];
}

function nftAnswer(row: NftRow | undefined): RouteAnswer {
  if (row === undefined) throw notFound();
  return jsonAnswer(nftView(row));
}

function nftsPage(store: ReadStore, request: NftsRequest): RouteAnswer {
  const rows = store.nfts.listNfts(request);
  return jsonAnswer({ nfts: rows.map(nftView), links: { next: request.next(rows) } });
}

/** The NFT's history; 206 when it is not empty but this mirror never saw the mint. */
function historyPage(store: ReadStore, query: NftHistoryQuery, paging: PagingContext): RouteAnswer {
  const { events, partial } = store.nfts.listNftHistory(query);
  const last = events.at(-1);
  const next = nextLink(paging, events.length, last && formatTimestamp(last.consensus_ns));
  return jsonAnswer({ transactions: events.map(nftEventView), links: { next } }, partial ? 206 : 200);
}

function singleTokenNext(paging: PagingContext): (rows: readonly NftRow[]) => string | null {
  return (rows) => nextLink(paging, rows.length, rows.at(-1)?.serial.toString());
}

/** The token a single-NFT short path names; 400 naming `token.id` when it names none. */
function requiredTokenId(tokenId: ReturnType<typeof readShortPathRequest>["tokenId"]): bigint {
  if (tokenId.kind === "absent") throw new HttpError(400, [`Missing required parameter: ${TOKEN_ID}`]);
  const parsed = tokenId.kind === "one" ? parseTokenIdPathParam(tokenId.value) : null;
  if (parsed === null || !parsed.ok) throw new HttpError(400, [`Invalid parameter: ${TOKEN_ID}`]);
  return parsed.value;
}

/** A packed token ID as `{tokenId}` text (`0.0.0` included, which `formatEntityId` prints as null). */
function formatTokenParam(tokenId: bigint): string {
  return formatEntityId(tokenId) ?? "0.0.0";
}

/** `/api/v1/tokens/nfts`: one token when `token.id` names one, otherwise every token. */
function shortNftsRequest(url: string): NftsRequest {
  const { request, tokenId } = readShortPathRequest(url);
  if (tokenId.kind === "one") {
    const parsed = parseTokenNftsRequest({ tokenId: tokenId.value }, withoutTokenId(url));
    if (!parsed.ok && parsed.messages[0] === "Invalid parameter: tokenid") {
      throw new HttpError(400, [`Invalid parameter: ${TOKEN_ID}`]);
    }
    const one = orFail(parsed);
    return {
      ...one,
      scope: { kind: "one", tokenId: one.tokenId },
      serials: one.serialNumbers,
      next: singleTokenNext(onShortPath(one.paging, request)),
    };
  }

  const spec = { ...tokenNftsSpec(request.options), [TOKEN_ID]: tokenIdSpec(request.options) };
  const filters = orFail(validateFilters(request.query, spec, request.options.maxRepeatedQueryParameters));
  const tokenConditions: Comparison<bigint>[] = [];
  const accountIds: Comparison<bigint | null>[] = [];
  const serials: Comparison<bigint>[] = [];
  let limit = request.options.defaultLimit;
  let order: Order = "desc";
  for (const { key, op, value } of filters) {
    if (key === TOKEN_ID) tokenConditions.push({ op, value: value as bigint });
    else if (key === "account.id") accountIds.push({ op, value: value as bigint | null });
    else if (key === "serialnumber") serials.push({ op, value: value as bigint });
    else if (key === "limit") limit = value as number;
    else if (key === "order") order = value as Order;
  }
  const { scope, keyConditions } = orFail(crossTokenScope("serialnumber", tokenConditions, serials));
  return {
    scope,
    accountIds,
    serials: keyConditions,
    order,
    limit,
    next: (rows) => {
      const last = rows.at(-1);
      return crossTokenNextLink({
        request,
        keyName: "serialnumber",
        order,
        limit,
        count: rows.length,
        last: last && { tokenId: last.token_id, key: last.serial.toString() },
      });
    },
  };
}

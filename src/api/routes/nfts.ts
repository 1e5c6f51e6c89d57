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
  type RequestParts,
  tokenNftsSpec,
  unknownParameter,
  validateFilters,
} from "../params/index.ts";
import { tokenIdSpec } from "../params/param-specs.ts";
import { formatTimestamp } from "../params/timestamp.ts";
import { nftEventView, nftView } from "../views/nfts.ts";
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

/** The public mirror node's `max-age` for every NFT route. */
const NFTS_MAX_AGE = 1;

/** How an NFT page links onward: on one token (`serialnumber` anchor) or across tokens (token, serial). */
type NftsPaging =
  | { readonly kind: "one"; readonly paging: PagingContext }
  | { readonly kind: "all"; readonly request: RequestParts };

/** `parse`'s value of the NFT lists. */
type NftsRequest = {
  scope: TokenScope;
  accountIds: readonly Comparison<bigint | null>[];
  serials: readonly Comparison<bigint>[];
  order: Order;
  limit: number;
  paging: NftsPaging;
};

/** `parse`'s value of an NFT's history. */
type HistoryRequest = { query: NftHistoryQuery; paging: PagingContext };

/**
 * The NFT routes, with the token in the path or (short paths) as `token.id`. Lists are cached as lists; a
 * single NFT is always read fresh. The short paths are listed first: `/api/v1/tokens/nfts/…` must not be read
 * as a token called `nfts`.
 */
export function nftRoutes(): RouteDef[] {
  const single = (
    template: string,
    parse: (request: { url: string; params: Record<string, string> }) => NftKey,
  ) =>
    defineRoute<NftKey>({
      template,
      caching: "none",
      maxAge: NFTS_MAX_AGE,
      parse,
      answer: (store, { tokenId, serial }) => nftAnswer(store.nfts.getNft(tokenId, serial)),
    });
  const list = (
    template: string,
    parse: (request: { url: string; params: Record<string, string> }) => NftsRequest,
  ) =>
    defineRoute<NftsRequest>({
      template,
      caching: "stale-ok",
      maxAge: NFTS_MAX_AGE,
      parse,
      answer: nftsPage,
    });
  const history = (
    template: string,
    parse: (request: { url: string; params: Record<string, string> }) => HistoryRequest,
  ) =>
    defineRoute<HistoryRequest>({
      template,
      caching: "stale-ok",
      maxAge: NFTS_MAX_AGE,
      parse,
      answer: historyPage,
    });

  return [
    list("/api/v1/tokens/nfts", ({ url }) => shortNftsRequest(url)),

    single("/api/v1/tokens/nfts/{serialNumber}", ({ url, params }) => {
      const { request, tokenId } = readShortPathRequest(url);
      const unknown = [...request.query.keys()].filter((name) => name !== TOKEN_ID).map(unknownParameter);
      if (unknown.length > 0) throw new HttpError(400, unknown);
      const token = requiredTokenId(tokenId);
      return { tokenId: token, serial: orFail(parseSerialNumberPathParam(params.serialNumber ?? "")) };
    }),

    history("/api/v1/tokens/nfts/{serialNumber}/transactions", ({ url, params }) => {
      const { request, tokenId } = readShortPathRequest(url);
      const token = requiredTokenId(tokenId);
      const parsed = orFail(
        parseNftTransactionsRequest(
          { tokenId: formatTokenParam(token), serialNumber: params.serialNumber ?? "" },
          withoutTokenId(url),
        ),
      );
      return { query: historyQuery(parsed), paging: onShortPath(parsed.paging, request) };
    }),

    list("/api/v1/tokens/{tokenId}/nfts", ({ url, params }) => {
      const { tokenId, serialNumbers, paging, ...request } = orFail(
        parseTokenNftsRequest({ tokenId: params.tokenId ?? "" }, url),
      );
      return {
        ...request,
        scope: { kind: "one", tokenId },
        serials: serialNumbers,
        paging: { kind: "one", paging },
      };
    }),

    single("/api/v1/tokens/{tokenId}/nfts/{serialNumber}", ({ url, params }) => {
      const { tokenId, serialNumber } = orFail(
        parseTokenNftRequest({ tokenId: params.tokenId ?? "", serialNumber: params.serialNumber ?? "" }, url),
      );
      return { tokenId, serial: serialNumber };
    }),

    history("/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions", ({ url, params }) => {
      const parsed = orFail(
        parseNftTransactionsRequest(
          { tokenId: params.tokenId ?? "", serialNumber: params.serialNumber ?? "" },
          url,
        ),
      );
      return { query: historyQuery(parsed), paging: parsed.paging };
    }),
  ];
}

/** One NFT: `parse`'s value of the single-NFT routes. */
type NftKey = { tokenId: bigint; serial: bigint };

function historyQuery(parsed: {
  tokenId: bigint;
  serialNumber: bigint;
  timestamps: NftHistoryQuery["timestamps"];
  order: Order;
  limit: number;
}): NftHistoryQuery {
  const { tokenId, serialNumber, timestamps, order, limit } = parsed;
  return { tokenId, serial: serialNumber, timestamps, order, limit };
}

function nftAnswer(row: NftRow | undefined): RouteAnswer {
  if (row === undefined) throw notFound();
  return jsonAnswer(nftView(row));
}

function nftsPage(store: ReadStore, request: NftsRequest): RouteAnswer {
  const rows = store.nfts.listNfts(request);
  return jsonAnswer({ nfts: rows.map(nftView), links: { next: nftsNext(request, rows) } });
}

function nftsNext(request: NftsRequest, rows: readonly NftRow[]): string | null {
  const last = rows.at(-1);
  if (request.paging.kind === "one")
    return nextLink(request.paging.paging, rows.length, last?.serial.toString());
  return crossTokenNextLink({
    request: request.paging.request,
    keyName: "serialnumber",
    order: request.order,
    limit: request.limit,
    count: rows.length,
    last: last && { tokenId: last.token_id, key: last.serial.toString() },
  });
}

/** The NFT's history; 206 when it is not empty but this mirror never saw the mint. */
function historyPage(store: ReadStore, { query, paging }: HistoryRequest): RouteAnswer {
  const { events, partial } = store.nfts.listNftHistory(query);
  const last = events.at(-1);
  const next = nextLink(paging, events.length, last && formatTimestamp(last.consensus_ns));
  return jsonAnswer({ transactions: events.map(nftEventView), links: { next } }, partial ? 206 : 200);
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
    const { tokenId: one, serialNumbers, paging, ...rest } = orFail(parsed);
    return {
      ...rest,
      scope: { kind: "one", tokenId: one },
      serials: serialNumbers,
      paging: { kind: "one", paging: onShortPath(paging, request) },
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
  // Across tokens the walk goes by token then serial, or by owner (an index seek): a serial number or an owner
  // range would make it skip any number of NFTs, so they need a token.
  const messages: string[] = [];
  if (accountIds.some((c) => c.op !== "eq")) messages.push("account.id across tokens takes only eq");
  if (keyConditions.some((c) => c.op === "eq"))
    messages.push("serialnumber=eq across tokens needs a token.id");
  if (messages.length > 0) throw new HttpError(400, messages);
  return {
    scope,
    accountIds,
    serials: keyConditions,
    order,
    limit,
    paging: { kind: "all", request },
  };
}

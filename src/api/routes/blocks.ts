/**
 * The blocks group: `GET /api/v1/blocks` and `GET /api/v1/blocks/{hashOrNumber}`.
 *
 * Blocks never change once written and rows are only ever appended, so each block's JSON is rendered once and
 * kept by number (a list page is then assembled from kept blocks); whole answers are kept by the front's
 * response cache like every other route's.
 */
import { LRUCache } from "lru-cache";
import type { BlockRow } from "../../store/blocks.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { notFound } from "../http-errors.ts";
import {
  nextLink,
  type ParamOptions,
  parseBlockRequest,
  parseBlocksRequest,
  parseHashOrNumberPathParam,
  unwrapParams,
} from "../params/index.ts";
import { blockJson } from "../views/block.ts";
import type { HandlerRouteDef, RouteAnswer } from "./route-table.ts";

/** Cache lifetimes of the public mirror node's block routes. */
const LIST_MAX_AGE = 1;
const BLOCK_MAX_AGE = 600;
const FULL_HASH_DIGITS = 96;

export type BlockRouteOptions = Partial<ParamOptions> & {
  /** Rendered blocks kept, about 0.5 KB each (1.1 KB with a logs bloom). */
  cachedBlocks?: number;
};

export type BlockResponder = {
  /** `GET /api/v1/blocks`; `url` is the request's path and query. Throws `ParameterError` for a bad request. */
  list(url: string): RouteAnswer;
  /** `GET /api/v1/blocks/{hashOrNumber}`; throws `ParameterError` (400) or `HttpError` (404). */
  block(hashOrNumber: string, url: string): RouteAnswer;
};

/** Answers block requests from the store, keeping each rendered block (whole answers are the front's to keep). */
export function createBlockResponder(store: ReadStore, options: BlockRouteOptions = {}): BlockResponder {
  // Rendered blocks (JSON text) by number and by full hash (one text, two keys): a repeated lookup costs no
  // query, and a list page costs one query for its numbers.
  const byNumber = new LRUCache<bigint, string>({ max: options.cachedBlocks ?? 10_000 });
  const byHash = new LRUCache<string, string>({ max: options.cachedBlocks ?? 10_000 });

  const render = (row: BlockRow): string => {
    let json = byNumber.get(row.number);
    if (json === undefined) {
      json = blockJson(row);
      byNumber.set(row.number, json);
    }
    byHash.set(row.hash, json);
    return json;
  };

  /** A block that does not exist (yet) is not remembered. */
  const blockByNumber = (number: bigint): string | undefined => {
    const answer = byNumber.get(number);
    if (answer !== undefined) return answer;
    const row = store.blocks.getBlockByNumber(number);
    return row === undefined ? undefined : render(row);
  };

  const blockByHashPrefix = (prefix: string): string | undefined => {
    // Only a full hash names one block for good; a 32-byte prefix could later match a second block.
    const answer = prefix.length === FULL_HASH_DIGITS ? byHash.get(prefix) : undefined;
    if (answer !== undefined) return answer;
    const row = store.blocks.getBlockByHashPrefix(prefix);
    return row === undefined ? undefined : render(row);
  };

  const renderPage = (url: string): RouteAnswer => {
    const request = unwrapParams(parseBlocksRequest(url, options));
    const numbers = store.blocks.listBlockNumbers({
      // `timestamp` filters apply to the block's consensus end.
      blockNumbers: request.blockNumbers,
      consensusEnds: request.timestamps,
      orderBy: request.orderBy === "number" ? "number" : "consensus_end",
      order: request.order,
      limit: request.limit,
    });
    const items: string[] = [];
    for (const number of numbers) {
      // Rows are never deleted, so every listed number renders.
      const block = blockByNumber(number);
      if (block !== undefined) items.push(block);
    }
    const next = nextLink(request.paging, numbers.length, numbers.at(-1)?.toString());
    const json = `{"blocks":[${items.join(",")}],"links":{"next":${next === null ? "null" : JSON.stringify(next)}}}`;
    return { status: 200, json, next };
  };

  return {
    list: renderPage,

    block(hashOrNumber, url) {
      // Without a query string there is no unknown parameter to report first: only the path is checked.
      const locator = unwrapParams(
        url.includes("?")
          ? parseBlockRequest({ hashOrNumber }, url, options)
          : parseHashOrNumberPathParam(hashOrNumber),
      );
      const json =
        "number" in locator ? blockByNumber(locator.number) : blockByHashPrefix(locator.hashPrefix);
      if (json === undefined) throw notFound();
      return { status: 200, json, next: null };
    },
  };
}

/** The blocks group's routes: the list is cached as a list, a block lookup while no newer block arrived. */
export function blockRoutes(store: ReadStore, options: BlockRouteOptions = {}): HandlerRouteDef[] {
  const responder = createBlockResponder(store, options);
  return [
    {
      template: "/api/v1/blocks",
      caching: "exact",
      maxAge: LIST_MAX_AGE,
      handle: ({ url }) => responder.list(url),
    },
    {
      template: "/api/v1/blocks/{hashOrNumber}",
      caching: "exact",
      maxAge: BLOCK_MAX_AGE,
      handle: ({ url, params }) => responder.block(params.hashOrNumber ?? "", url),
    },
  ];
}

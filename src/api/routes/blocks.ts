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
  type BlockLocator,
  type BlocksRequest,
  nextLink,
  type ParamOptions,
  parseBlockRequest,
  parseBlocksRequest,
  parseHashOrNumberPathParam,
  unwrapParams,
} from "../params/index.ts";
import { blockJson } from "../views/block.ts";
import { defineRoute, type RouteAnswer, type RouteDef } from "./route-table.ts";

/** Cache lifetimes of the public mirror node's block routes. */
const LIST_MAX_AGE = 1;
const BLOCK_MAX_AGE = 600;
const FULL_HASH_DIGITS = 96;

export type BlockRouteOptions = Partial<ParamOptions> & {
  /** Rendered blocks kept, about 0.5 KB each (1.1 KB with a logs bloom). */
  cachedBlocks?: number;
};

/**
 * The blocks group's routes: the list is cached as a list, a block lookup while no newer block arrived. Each
 * table keeps the JSON of the blocks it rendered (by number and by full hash): a block never changes once
 * written, so a repeated lookup costs no query and a list page costs one query for its numbers. The memo is
 * the table's own (each read worker builds one), never shared between threads.
 */
export function blockRoutes(options: BlockRouteOptions = {}): RouteDef[] {
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
  const blockByNumber = (store: ReadStore, number: bigint): string | undefined => {
    const answer = byNumber.get(number);
    if (answer !== undefined) return answer;
    const row = store.blocks.getBlockByNumber(number);
    return row === undefined ? undefined : render(row);
  };

  const blockByHashPrefix = (store: ReadStore, prefix: string): string | undefined => {
    // Only a full hash names one block for good; a 32-byte prefix could later match a second block.
    const answer = prefix.length === FULL_HASH_DIGITS ? byHash.get(prefix) : undefined;
    if (answer !== undefined) return answer;
    const row = store.blocks.getBlockByHashPrefix(prefix);
    return row === undefined ? undefined : render(row);
  };

  return [
    defineRoute<BlocksRequest>({
      template: "/api/v1/blocks",
      caching: "exact",
      maxAge: LIST_MAX_AGE,
      parse: ({ url }) => unwrapParams(parseBlocksRequest(url, options)),
      answer: (store, request): RouteAnswer => {
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
          const block = blockByNumber(store, number);
          if (block !== undefined) items.push(block);
        }
        const next = nextLink(request.paging, numbers.length, numbers.at(-1)?.toString());
        const json = `{"blocks":[${items.join(",")}],"links":{"next":${next === null ? "null" : JSON.stringify(next)}}}`;
        return { status: 200, json, next };
      },
    }),
    defineRoute<BlockLocator>({
      template: "/api/v1/blocks/{hashOrNumber}",
      caching: "exact",
      maxAge: BLOCK_MAX_AGE,
      // Without a query string there is no unknown parameter to report first: only the path is checked.
      parse: ({ url, params }) =>
        unwrapParams(
          url.includes("?")
            ? parseBlockRequest({ hashOrNumber: params.hashOrNumber ?? "" }, url, options)
            : parseHashOrNumberPathParam(params.hashOrNumber ?? ""),
        ),
      answer: (store, locator) => {
        const json =
          "number" in locator
            ? blockByNumber(store, locator.number)
            : blockByHashPrefix(store, locator.hashPrefix);
        if (json === undefined) throw notFound();
        return { status: 200, json, next: null };
      },
    }),
  ];
}

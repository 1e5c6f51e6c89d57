import { Router } from "express";
import type { BlockCondition, BlockRow } from "../../store/blocks.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { HttpError, notFound } from "../http-errors.ts";
import {
  type BlocksRequest,
  nextLink,
  type ParamOptions,
  type ParamResult,
  parseBlockRequest,
  parseBlocksRequest,
} from "../params/index.ts";
import { sendJson } from "../respond.ts";
import { blockView } from "../views/block.ts";

/** Cache lifetimes of the public mirror node's block routes. */
const LIST_CACHE_CONTROL = "public, max-age=1";
const BLOCK_CACHE_CONTROL = "public, max-age=600";

/** The blocks group: `GET /api/v1/blocks` and `GET /api/v1/blocks/{hashOrNumber}`. */
export function blockRoutes(store: ReadStore, options: Partial<ParamOptions> = {}): Router {
  const router = Router();

  router.get("/api/v1/blocks", (req, res) => {
    const request = parsed(parseBlocksRequest(req.originalUrl, options));
    const rows = store.blocks.listBlocks({
      conditions: conditionsOf(request),
      orderBy: request.orderBy === "number" ? "number" : "consensus_end",
      order: request.order,
      limit: request.limit,
    });
    const next = nextLink(request.paging, rows.length, rows.at(-1)?.number.toString());
    sendJson(res, { blocks: rows.map(blockView), links: { next } }, LIST_CACHE_CONTROL);
  });

  router.get("/api/v1/blocks/:hashOrNumber", (req, res) => {
    const locator = parsed(
      parseBlockRequest({ hashOrNumber: req.params.hashOrNumber }, req.originalUrl, options),
    );
    const row: BlockRow | undefined =
      "number" in locator
        ? store.blocks.getBlockByNumber(locator.number)
        : store.blocks.getBlockByHashPrefix(locator.hashPrefix);
    if (row === undefined) throw notFound();
    sendJson(res, blockView(row), BLOCK_CACHE_CONTROL);
  });

  return router;
}

/** `block.number` conditions apply to the block number, `timestamp` ones to the block's consensus end. */
function conditionsOf(request: BlocksRequest): BlockCondition[] {
  return [
    ...request.blockNumbers.map(({ op, value }) => ({ column: "number" as const, op, value })),
    ...request.timestamps.map(({ op, value }) => ({ column: "consensus_end" as const, op, value })),
  ];
}

/** The parsed request, or a 400 carrying every message the parameter grammar reported. */
function parsed<T>(result: ParamResult<T>): T {
  if (!result.ok) throw new HttpError(400, [...result.messages]);
  return result.value;
}

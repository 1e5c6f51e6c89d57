import { Router } from "express";
import { CURRENT } from "../../store/history.ts";
import type { ReadStore } from "../../store/read-store.ts";
import type { ListCache } from "../cache.ts";
import { notFound } from "../http-errors.ts";
import { parseTokenInfoRequest, unwrapParams } from "../params/index.ts";
import { tokenInfoView } from "../views/token-info.ts";

/** `GET /api/v1/tokens/{tokenId}`, answered from `cache` while nothing new has been indexed since. */
export function tokenRoutes(store: ReadStore, cache: ListCache): Router {
  const router = Router();
  router.get("/api/v1/tokens/:tokenId", (req, res) => {
    const { tokenId, timestamp } = unwrapParams(
      parseTokenInfoRequest({ tokenId: req.params.tokenId }, req.originalUrl),
    );
    const asOf = timestamp === null ? CURRENT : { atNs: timestamp.value, inclusive: timestamp.op === "lte" };
    cache.send(req, res, 5, () => {
      const info = store.tokens.getTokenInfo(tokenId, asOf);
      if (info === undefined) throw notFound();
      return { status: 200, body: tokenInfoView(info) };
    });
  });
  return router;
}

import { Router } from "express";
import { CURRENT } from "../../store/history.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { notFound } from "../http-errors.ts";
import { parseTokenInfoRequest, unwrapParams } from "../params/index.ts";
import { sendJson } from "../respond.ts";
import { tokenInfoView } from "../views/token-info.ts";

/** `GET /api/v1/tokens/{tokenId}`: never cached in memory, so a lookup always reads the latest committed file. */
export function tokenRoutes(store: ReadStore): Router {
  const router = Router();
  router.get("/api/v1/tokens/:tokenId", (req, res) => {
    const { tokenId, timestamp } = unwrapParams(
      parseTokenInfoRequest({ tokenId: req.params.tokenId }, req.originalUrl),
    );
    const asOf = timestamp === null ? CURRENT : { atNs: timestamp.value, inclusive: timestamp.op === "lte" };
    const info = store.tokens.getTokenInfo(tokenId, asOf);
    if (info === undefined) throw notFound();
    sendJson(res, tokenInfoView(info), "public, max-age=5");
  });
  return router;
}

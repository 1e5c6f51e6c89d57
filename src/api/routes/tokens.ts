import { Router } from "express";
import type { ReadStore } from "../../store/read-store.ts";
import { notFound } from "../http-errors.ts";
import { parseTokenInfo } from "../requests.ts";
import { sendJson } from "../respond.ts";
import { tokenInfoView } from "../views/token-info.ts";

/** The tokens group. Cache lifetimes are the public mirror node's, per route. */
export function tokenRoutes(store: ReadStore): Router {
  const router = Router();
  router.get("/api/v1/tokens/:tokenId", (req, res) => {
    const { tokenId, asOf } = parseTokenInfo(req);
    const info = store.tokens.getTokenInfo(tokenId, asOf);
    if (info === undefined) throw notFound();
    sendJson(res, tokenInfoView(info), "public, max-age=5");
  });
  return router;
}

import { CURRENT } from "../../store/history.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { notFound } from "../http-errors.ts";
import { parseTokenInfoRequest, unwrapParams } from "../params/index.ts";
import { tokenInfoView } from "../views/token-info.ts";
import { type HandlerRouteDef, jsonAnswer } from "./route-table.ts";

/** `GET /api/v1/tokens/{tokenId}`, kept while nothing new has been indexed since (never stale). */
export function tokenRoutes(store: ReadStore): HandlerRouteDef[] {
  return [
    {
      template: "/api/v1/tokens/{tokenId}",
      caching: "exact",
      maxAge: 5,
      handle: ({ url, params }) => {
        const { tokenId, timestamp } = unwrapParams(parseTokenInfoRequest({ tokenId: params.tokenId! }, url));
        const asOf =
          timestamp === null ? CURRENT : { atNs: timestamp.value, inclusive: timestamp.op === "lte" };
        const info = store.tokens.getTokenInfo(tokenId, asOf);
        if (info === undefined) throw notFound();
        return jsonAnswer(tokenInfoView(info));
      },
    },
  ];
}

import { CURRENT } from "../../store/history.ts";
import { notFound } from "../http-errors.ts";
import { parseTokenInfoRequest, unwrapParams } from "../params/index.ts";
import { tokenInfoView } from "../views/token-info.ts";
import { defineRoute, jsonAnswer, type RouteDef } from "./route-table.ts";

/** `GET /api/v1/tokens/{tokenId}`, kept while nothing new has been indexed since (never stale). */
export function tokenRoutes(): RouteDef[] {
  return [
    defineRoute({
      template: "/api/v1/tokens/{tokenId}",
      caching: "exact",
      maxAge: 5,
      parse: ({ url, params }) => {
        const { tokenId, timestamp } = unwrapParams(parseTokenInfoRequest({ tokenId: params.tokenId! }, url));
        return {
          tokenId,
          asOf: timestamp === null ? CURRENT : { atNs: timestamp.value, inclusive: timestamp.op === "lte" },
        };
      },
      answer: (store, { tokenId, asOf }) => {
        const info = store.tokens.getTokenInfo(tokenId, asOf);
        if (info === undefined) throw notFound();
        return jsonAnswer(tokenInfoView(info));
      },
    }),
  ];
}

import { Router } from "express";
import type { Logger } from "../../log.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { TOTAL_SUPPLY_TINYBARS } from "../../store/unreleased-supply.ts";
import { formatTimestamp } from "../../time.ts";
import {
  getOnly,
  javaErrorHandler,
  javaNotFound,
  MAX_INT64,
  parseJavaQuery,
  readChoiceParam,
  readTimestampBounds,
  sendJavaJson,
  sendJavaText,
} from "../java/index.ts";

const PATH = "/api/v1/network/supply";
const TINYBARS_PER_HBAR = 100_000_000n;

/**
 * `GET /api/v1/network/supply` (api.md §3.2), Java conventions. The unreleased supply comes from the exact hbar
 * balance history, so with `timestamp` the answer is the state AT the upper bound (the balances of the
 * unreleased supply accounts as of that instant, and the latest change among them as `timestamp`), not
 * upstream's newest 15-minute snapshot inside the range. The lower bound only has to not exceed the upper one.
 * Each answer is one index seek, so nothing is cached.
 */
export function networkSupplyRoutes(store: ReadStore, log: Logger): Router {
  const router = Router();
  getOnly(router, PATH, (req, res) => {
    const query = parseJavaQuery(req.originalUrl);
    const bounds = readTimestampBounds(query, { rejectInvertedRange: true });
    const q = readChoiceParam(query, "q", ["totalcoins", "circulating"] as const);
    const atNs = bounds.hasUpper ? bounds.upperNs : MAX_INT64;
    const supply = store.hbar.unreleasedAt(atNs);
    if (supply === null) throw javaNotFound("Network supply not found");
    const released = TOTAL_SUPPLY_TINYBARS - supply.unreleasedTinybars;
    if (q !== undefined) {
      const amount = q === "totalcoins" ? TOTAL_SUPPLY_TINYBARS : released;
      sendJavaText(res, formatHbar(amount), { contentType: "text/plain;charset=UTF-8" });
      return;
    }
    sendJavaJson(res, {
      released_supply: released.toString(),
      timestamp: formatTimestamp(supply.consensusNs),
      total_supply: TOTAL_SUPPLY_TINYBARS.toString(),
    });
  });
  // Scoped to the path: errors of other routes keep their own (Node) error bodies.
  router.use(PATH, javaErrorHandler(log));
  return router;
}

/** Tinybars as hbar with exactly eight decimals (`50000000000.00000000`), as upstream prints `q` answers. */
export function formatHbar(tinybars: bigint): string {
  const sign = tinybars < 0n ? "-" : "";
  const magnitude = tinybars < 0n ? -tinybars : tinybars;
  const fraction = (magnitude % TINYBARS_PER_HBAR).toString().padStart(8, "0");
  return `${sign}${magnitude / TINYBARS_PER_HBAR}.${fraction}`;
}

import type { IncomingMessage, ServerResponse } from "node:http";
import { type Express, Router } from "express";
import type { Logger } from "../../log.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { TOTAL_SUPPLY_TINYBARS } from "../../store/unreleased-supply.ts";
import { formatTimestamp } from "../../time.ts";
import {
  getOnly,
  JAVA_JSON_TYPE,
  JavaHttpError,
  javaErrorHandler,
  javaEtag,
  javaNotFound,
  MAX_INT64,
  NETWORK_CACHE_CONTROL,
  parseJavaQuery,
  readChoiceParam,
  readTimestampBounds,
} from "../java/index.ts";
import { toJson } from "../json.ts";

const PATH = "/api/v1/network/supply";
const TEXT_TYPE = "text/plain;charset=UTF-8";
const TINYBARS_PER_HBAR = 100_000_000n;

type SupplyAnswer = { body: string; contentType: string; etag: string };

/**
 * `GET /api/v1/network/supply` (api.md §3.2) with the Java service's conventions. The unreleased supply comes
 * from the exact hbar balance history, so with `timestamp` the answer is the state AT the upper bound (the
 * balances of the unreleased supply accounts as of that instant, and the latest change among them as
 * `timestamp`), not upstream's newest 15-minute snapshot inside the range; the lower bound only has to not
 * exceed the upper one. Throws `JavaHttpError` for a bad request or no known balance.
 */
export function answerSupply(store: ReadStore, url: string): SupplyAnswer {
  const query = parseJavaQuery(url);
  const bounds = readTimestampBounds(query, { rejectInvertedRange: true });
  const q = readChoiceParam(query, "q", ["totalcoins", "circulating"] as const);
  const supply = store.hbar.unreleasedAt(bounds.hasUpper ? bounds.upperNs : MAX_INT64);
  if (supply === null) throw javaNotFound("Network supply not found");
  const released = TOTAL_SUPPLY_TINYBARS - supply.unreleasedTinybars;
  const answer = (body: string, contentType: string) => ({ body, contentType, etag: javaEtag(body) });
  if (q !== undefined)
    return answer(formatHbar(q === "totalcoins" ? TOTAL_SUPPLY_TINYBARS : released), TEXT_TYPE);
  const body = {
    released_supply: released.toString(),
    timestamp: formatTimestamp(supply.consensusNs),
    total_supply: TOTAL_SUPPLY_TINYBARS.toString(),
  };
  return answer(toJson(body), JAVA_JSON_TYPE);
}

/**
 * Mounts the supply route, and answers plain successful GETs of it before Express routes anything (as the
 * blocks group does): each answer is one index seek, so Express's request setup would be most of its cost.
 * Nothing is cached, so no answer is older than the last committed file. Errors, other methods and unusual
 * spellings of the path take the Express route.
 */
export function mountNetworkSupplyRoutes(app: Express, store: ReadStore, log: Logger): void {
  const router = Router();
  getOnly(router, PATH, (req, res) => {
    let answer: SupplyAnswer;
    try {
      answer = answerSupply(store, req.originalUrl);
    } catch (error) {
      // Upstream sets the path's headers before it reads the parameters, and its 4xx answers keep them.
      if (error instanceof JavaHttpError && error.status < 500) {
        throw new JavaHttpError(error.status, error.messages, {
          ...error.headers,
          "Cache-Control": NETWORK_CACHE_CONTROL,
        });
      }
      throw error;
    }
    writeAnswer(req, res, answer);
  });
  // Scoped to the path: errors of other routes keep their own (Node) error bodies.
  router.use(PATH, javaErrorHandler(log));
  app.use(router);
  const routed = app as unknown as {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  };
  const handleWithExpress = routed.handle.bind(app);
  routed.handle = (req, res, next) => {
    const url = req.url ?? "";
    if ((req.method === "GET" || req.method === "HEAD") && url.startsWith(PATH)) {
      const rest = url.slice(PATH.length);
      if (rest === "" || rest.startsWith("?")) {
        let answer: SupplyAnswer | null = null;
        try {
          answer = answerSupply(store, url);
        } catch {
          // the Express route answers errors
        }
        if (answer !== null) return writeAnswer(req, res, answer);
      }
    }
    handleWithExpress(req, res, next);
  };
}

/** One writer for both paths, so both send upstream's exact headers (and 304 for a matching If-None-Match). */
function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: SupplyAnswer): void {
  const common = {
    "Access-Control-Allow-Origin": "*",
    "Cache-Control": NETWORK_CACHE_CONTROL,
    ETag: answer.etag,
  };
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch?.split(",").some((tag) => tag.trim() === answer.etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  res.writeHead(200, {
    ...common,
    "Content-Type": answer.contentType,
    "Content-Length": Buffer.byteLength(answer.body),
  });
  res.end(req.method === "HEAD" ? undefined : answer.body);
}

/** Tinybars as hbar with exactly eight decimals (`50000000000.00000000`), as upstream prints `q` answers. */
export function formatHbar(tinybars: bigint): string {
  const sign = tinybars < 0n ? "-" : "";
  const magnitude = tinybars < 0n ? -tinybars : tinybars;
  const fraction = (magnitude % TINYBARS_PER_HBAR).toString().padStart(8, "0");
  return `${sign}${magnitude / TINYBARS_PER_HBAR}.${fraction}`;
}

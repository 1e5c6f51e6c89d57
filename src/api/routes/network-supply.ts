import { MAX_INT64 } from "../../int64.ts";
import { TOTAL_SUPPLY_TINYBARS } from "../../store/unreleased-supply.ts";
import { formatTimestamp } from "../../time.ts";
import {
  javaNotFound,
  parseJavaQuery,
  readChoiceParam,
  readTimestampBounds,
  type TimestampBounds,
} from "../java/index.ts";
import { toJson } from "../json.ts";
import { NETWORK_MAX_AGE } from "./network.ts";
import { defineRoute, javaAnswer, type RouteDef } from "./route-table.ts";

const PATH = "/api/v1/network/supply";
const TEXT_TYPE = "text/plain;charset=UTF-8";
const TINYBARS_PER_HBAR = 100_000_000n;

/** `parse`'s value: the timestamp bounds and the `q` choice, if any. */
type SupplyQuery = { bounds: TimestampBounds; q: "totalcoins" | "circulating" | undefined };

/**
 * `GET /api/v1/network/supply` (api.md §3.2) with the Java service's conventions. The unreleased supply comes
 * from the exact hbar balance history, so with `timestamp` the answer is the state AT the upper bound (the
 * balances of the unreleased supply accounts as of that instant, and the latest change among them as
 * `timestamp`), not upstream's newest 15-minute snapshot inside the range; the lower bound only has to not
 * exceed the upper one. Its answer changes only when a record file (or a balance snapshot, before the first
 * file) is applied, so keeping it by URL and generation keeps it exact at `timestamp`.
 */
export function networkSupplyRoutes(): RouteDef[] {
  return [
    defineRoute<SupplyQuery>({
      template: PATH,
      caching: "exact",
      maxAge: NETWORK_MAX_AGE,
      style: "java",
      parse: ({ url }) => {
        const query = parseJavaQuery(url);
        const bounds = readTimestampBounds(query, { rejectInvertedRange: true });
        return { bounds, q: readChoiceParam(query, "q", ["totalcoins", "circulating"] as const) };
      },
      answer: (store, { bounds, q }) => {
        const supply = store.hbar.unreleasedAt(bounds.hasUpper ? bounds.upperNs : MAX_INT64);
        if (supply === null) throw javaNotFound("Network supply not found");
        const released = TOTAL_SUPPLY_TINYBARS - supply.unreleasedTinybars;
        if (q !== undefined)
          return javaAnswer(
            formatHbar(q === "totalcoins" ? TOTAL_SUPPLY_TINYBARS : released),
            null,
            TEXT_TYPE,
          );
        const body = {
          released_supply: released.toString(),
          timestamp: formatTimestamp(supply.consensusNs),
          total_supply: TOTAL_SUPPLY_TINYBARS.toString(),
        };
        return javaAnswer(toJson(body));
      },
    }),
  ];
}

/** Tinybars as hbar with exactly eight decimals (`50000000000.00000000`), as upstream prints `q` answers. */
export function formatHbar(tinybars: bigint): string {
  const sign = tinybars < 0n ? "-" : "";
  const magnitude = tinybars < 0n ? -tinybars : tinybars;
  const fraction = (magnitude % TINYBARS_PER_HBAR).toString().padStart(8, "0");
  return `${sign}${magnitude / TINYBARS_PER_HBAR}.${fraction}`;
}

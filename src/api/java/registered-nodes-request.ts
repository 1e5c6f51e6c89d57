/**
 * The query of `GET /api/v1/network/registered-nodes`, read as upstream binds its `RegisteredNodesRequest`
 * (hooks-and-registered-nodes.md §5):
 *
 * 1. a repeated single-valued field (`limit`, `order`, `type`) fails at once with `Only a single instance is
 *    supported for <name>`, the first in field order (blank first value: the default applies);
 * 2. every field that does not bind or breaks a constraint is reported together as `Invalid parameter: <name>`
 *    (binding failures first, in field order);
 * 3. `registerednode.id`: an `eq` must stand alone, and the range must not be inverted.
 */
import { MAX_INT64 } from "../../int64.ts";
import { javaBadRequest, javaBindingErrors } from "./errors.ts";
import { type Order, parseJavaInt, parseOrder, readSingle } from "./params.ts";
import type { JavaQuery } from "./query.ts";

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
const NAME = "registerednode.id";

/** Kinds the `type` filter names, by the bit the store's type mask uses (see the registered-node handler). */
const TYPE_BITS: Readonly<Record<string, number>> = {
  UNKNOWN: 0,
  BLOCKNODE: 1,
  GENERALSERVICE: 2,
  MIRRORNODE: 3,
  RPCRELAY: 4,
};

export type RegisteredNodesRequest = {
  lower: bigint;
  upper: bigint;
  typeMask: bigint | null;
  limit: number;
  order: Order;
};

type IdParam = { op: "eq" | "ne" | "gt" | "gte" | "lt" | "lte"; value: bigint };

/** `NumberRangeParameter`: `n` or `op:n`, n a long ≥ 0; null when it does not bind. */
function idParam(text: string): IdParam | null {
  const parts = text.split(":");
  if (parts.length > 2) return null;
  const op = (parts.length === 2 ? parts[0]! : "eq").toLowerCase();
  if (!["eq", "ne", "gt", "gte", "lt", "lte"].includes(op)) return null;
  const digits = parts.at(-1)!;
  if (!/^\d{1,19}$/.test(digits)) return null;
  const value = BigInt(digits);
  return value > MAX_INT64 ? null : { op: op as IdParam["op"], value };
}

/** Reads the request or throws the `JavaHttpError` upstream would answer. */
export function readRegisteredNodesRequest(query: JavaQuery): RegisteredNodesRequest {
  const limitText = readSingle(query, "limit");
  const orderText = readSingle(query, "order");
  const typeText = readSingle(query, "type");
  const idTexts = (query.get(NAME) ?? []).filter((text) => text.trim() !== "");

  const unbound: string[] = [];
  const broken: string[] = [];
  const limit = limitText === undefined ? DEFAULT_LIMIT : parseJavaInt(limitText);
  if (limit === null) unbound.push("limit");
  else if (limit < 1 || limit > MAX_LIMIT) broken.push("limit");
  const order = orderText === undefined ? "asc" : parseOrder(orderText);
  if (order === null) unbound.push("order");
  const ids = idTexts.map(idParam);
  if (ids.some((id) => id === null)) unbound.push(NAME);
  else if (ids.length > 2) broken.push(NAME);
  // Case and every character that is not a letter or digit are ignored (`block-node` is BLOCK_NODE).
  const typeBit =
    typeText === undefined ? undefined : TYPE_BITS[typeText.replace(/[^A-Za-z0-9]/g, "").toUpperCase()];
  if (typeText !== undefined && typeBit === undefined) unbound.push("type");
  if (unbound.length + broken.length > 0) throw javaBindingErrors([...unbound, ...broken]);

  let lower = 0n;
  let upper = MAX_INT64;
  const params = ids as IdParam[];
  const eq = params.find((p) => p.op === "eq");
  if (eq !== undefined) {
    if (params.length > 1) throw javaBadRequest("The 'eq' operator cannot be combined with other operators");
    lower = eq.value;
    upper = eq.value;
  }
  for (const { op, value } of params) {
    if (op === "gt" || op === "gte") {
      const bound = op === "gt" ? value + 1n : value;
      if (bound > lower) lower = bound;
    } else if (op === "lt" || op === "lte") {
      const bound = op === "lt" ? value - 1n : value;
      if (bound < upper) upper = bound;
    }
  }
  if (lower > upper) throw javaBadRequest("Invalid range: lower bound exceeds upper bound");
  return {
    lower,
    upper,
    typeMask: typeBit === undefined ? null : 1n << BigInt(typeBit),
    limit: limit ?? DEFAULT_LIMIT,
    order: order ?? "asc",
  };
}

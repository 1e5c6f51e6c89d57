/**
 * The query of `GET /api/v1/network/nodes`, read as upstream binds its `NetworkNodeRequest` (api.md §3.6):
 *
 * 1. a repeated single-valued field (`file.id`, `limit`, `order`) fails at once with
 *    `Only a single instance is supported for <name>` (blank first value: the default applies);
 * 2. every field that does not convert is reported together, in field order, as `Invalid parameter: <name>`;
 * 3. `file.id` with another operator than `eq` gives `Only equality operator is supported for file.id`;
 * 4. `node.id`: `eq` values form a set, `gt`/`gte` raise the lower bound, `lt`/`lte` lower the upper bound,
 *    `ne` is ignored; lower above upper gives `Invalid range provided for node.id`.
 * `limit` defaults to 10 and is capped at 25; `order` is `asc` (default) or `desc` in any case.
 */
import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from "../../ids.ts";
import { MAX_INT64 } from "../../int64.ts";
import { javaBadRequest, javaBindingErrors } from "./errors.ts";
import { type Order, parseJavaInt, parseOrder, readSingle } from "./params.ts";
import type { JavaQuery } from "./query.ts";

export const DEFAULT_NODES_LIMIT = 10;
export const MAX_NODES_LIMIT = 25;
const DEFAULT_ADDRESS_BOOK = 102n;

type Operator = "eq" | "ne" | "gt" | "gte" | "lt" | "lte";

export type NetworkNodesRequest = {
  /** Encoded id of the address book file. */
  fileId: bigint;
  lowerNodeId: bigint;
  upperNodeId: bigint;
  /** The `eq` node ids that fall in the range, or null when none were asked for. */
  nodeIds: bigint[] | null;
  /** True when `eq` ids were asked for but none is in the range: the answer is empty. */
  nothing: boolean;
  /** Effective (capped) page size. */
  limit: number;
  order: Order;
};

const LONG = /^[+-]?\d{1,19}$/;

/** Java `Long.valueOf` (no blanks allowed); null when it is not a long. */
function javaLong(text: string): bigint | null {
  if (!LONG.test(text)) return null;
  const value = BigInt(text);
  return value <= MAX_INT64 && value >= -MAX_INT64 - 1n ? value : null;
}

/**
 * Upstream `EntityIdRangeParameter.valueOf`: `[op:]id` where id is `num`, `realm.num` or `shard.realm.num`
 * (non-negative parts within the entity-id limits; shard and realm default to 0). Null when it does not
 * convert; `blank` for a blank value (bound as nothing).
 */
export function parseEntityIdRange(value: string): { operator: Operator; id: bigint } | "blank" | null {
  if (value.trim() === "") return "blank";
  // Java's String.split drops trailing empty strings: `gt:` is one part.
  const parts = value.split(":");
  while (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length > 2) return null;
  const operatorText = parts.length === 2 ? (parts[0] ?? "").toLowerCase() : "eq";
  if (!["eq", "ne", "gt", "gte", "lt", "lte"].includes(operatorText)) return null;
  const pieces = (parts.at(-1) ?? "").split(".").map(javaLong);
  if (pieces.length > 3 || pieces.some((p) => p === null || p < 0n)) return null;
  const [num = 0n, realm = 0n, shard = 0n] = (pieces as bigint[]).reverse();
  if (num > MAX_NUM || realm > MAX_REALM || shard > MAX_SHARD) return null;
  return { operator: operatorText as Operator, id: encodeEntityId(shard, realm, num) };
}

/** Reads the request or throws the `JavaHttpError` upstream would answer. */
export function readNetworkNodesRequest(query: JavaQuery): NetworkNodesRequest {
  const fileText = readSingle(query, "file.id");
  const nodeTexts = query.get("node.id") ?? [];
  const limitText = readSingle(query, "limit");
  const orderText = readSingle(query, "order");

  const invalid: string[] = [];
  const file = fileText === undefined ? undefined : parseEntityIdRange(fileText);
  if (file === null) invalid.push("file.id");
  const nodes = nodeTexts.map(parseEntityIdRange);
  if (nodes.some((n) => n === null)) invalid.push("node.id");
  const limit = limitText === undefined ? DEFAULT_NODES_LIMIT : parseJavaInt(limitText);
  if (limit === null || limit < 1) invalid.push("limit");
  const order = orderText === undefined ? "asc" : parseOrder(orderText);
  if (order === null) invalid.push("order");
  if (invalid.length > 0) throw javaBindingErrors(invalid);

  let fileId = DEFAULT_ADDRESS_BOOK;
  if (file !== undefined && file !== null && file !== "blank") {
    if (file.operator !== "eq") throw javaBadRequest("Only equality operator is supported for file.id");
    fileId = file.id;
  }

  const ids = new Set<bigint>();
  let lower = 0n;
  let upper = MAX_INT64;
  for (const node of nodes) {
    if (node === null || node === "blank") continue;
    switch (node.operator) {
      case "eq":
        ids.add(node.id);
        break;
      case "gt":
      case "gte": {
        const inclusive = node.operator === "gt" ? node.id + 1n : node.id;
        if (inclusive > lower) lower = inclusive;
        break;
      }
      case "lt":
      case "lte": {
        const inclusive = node.operator === "lt" ? node.id - 1n : node.id;
        if (inclusive < upper) upper = inclusive;
        break;
      }
      case "ne":
        break;
    }
  }
  if (lower > upper) throw javaBadRequest("Invalid range provided for node.id");
  const inRange = ids.size === 0 ? null : [...ids].filter((id) => id >= lower && id <= upper);
  return {
    fileId,
    lowerNodeId: lower,
    upperNodeId: upper,
    nodeIds: inRange,
    nothing: inRange !== null && inRange.length === 0,
    limit: Math.min(limit ?? DEFAULT_NODES_LIMIT, MAX_NODES_LIMIT),
    order: order ?? "asc",
  };
}

import { type Condition, direction, type Order, WhereBuilder } from "./conditions.ts";

/** A condition on the primary (`key: 0`) or secondary (`key: 1`) ordering column; a null value matches nothing. */
export type PairPart = ReadonlyArray<{
  readonly key: 0 | 1;
  readonly op: Condition<unknown>["op"];
  readonly value: unknown;
}>;

/**
 * The SQL of a list ordered by two columns whose filters come as up to three parts, each an AND of conditions,
 * that together are an OR (upstream's "multi-union" queries, `BaseController.getLowerFilters` …): each part is
 * its own ordered, limited query, so each is one index range; several are merged by `UNION ALL` and ordered and
 * limited again. No part at all: one query without pair conditions.
 *
 * `select` is `SELECT <columns> FROM <tables>` with the ordering columns output as `orderNames` (for the outer
 * ORDER BY); `base` adds the conditions every part shares.
 */
export function pairedUnion(args: {
  select: string;
  columns: readonly [string, string];
  orderNames: readonly [string, string];
  base: (where: WhereBuilder) => void;
  parts: readonly PairPart[];
  order: Order;
  limit: number;
}): { sql: string; params: unknown[] } {
  const dir = direction(args.order);
  const innerOrder = `ORDER BY ${args.columns[0]} ${dir}, ${args.columns[1]} ${dir}`;
  const parts = args.parts.filter((part) => part.length > 0);
  const subquery = (part: PairPart) => {
    const where = new WhereBuilder();
    args.base(where);
    for (const { key, op, value } of part) where.compare(args.columns[key], [{ op, value }]);
    return {
      sql: `${args.select} ${where.sql()} ${innerOrder} LIMIT +?`,
      params: [...where.params, args.limit],
    };
  };
  if (parts.length <= 1) return subquery(parts[0] ?? []);
  const queries = parts.map(subquery);
  return {
    sql: `${queries.map((q) => `SELECT * FROM (${q.sql})`).join(" UNION ALL ")}
      ORDER BY ${args.orderNames[0]} ${dir}, ${args.orderNames[1]} ${dir} LIMIT +?`,
    params: [...queries.flatMap((q) => q.params), args.limit],
  };
}

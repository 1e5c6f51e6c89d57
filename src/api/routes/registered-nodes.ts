/**
 * Registered nodes (HIP-1137): `GET /api/v1/network/registered-nodes` (upstream
 * `NetworkController.getRegisteredNodes`), current nodes not deleted, by id, with the Java service's
 * conventions; `Cache-Control: public, max-age=60` as every `/network` path.
 */

import { javaNextLink } from "../java/links.ts";
import { type JavaQuery, parseJavaQuery } from "../java/query.ts";
import { type RegisteredNodesRequest, readRegisteredNodesRequest } from "../java/registered-nodes-request.ts";
import { toJson } from "../json.ts";
import { registeredNodeView } from "../views/hooks.ts";
import { defineRoute, javaAnswer, type RouteDef } from "./route-table.ts";

const TEMPLATE = "/api/v1/network/registered-nodes";

export function registeredNodeRoutes(): RouteDef[] {
  return [
    defineRoute<{ request: RegisteredNodesRequest; query: JavaQuery; path: string }>({
      template: TEMPLATE,
      caching: "exact",
      maxAge: 60,
      style: "java",
      parse: ({ url }) => {
        const query = parseJavaQuery(url);
        return { request: readRegisteredNodesRequest(query), query, path: url.split("?", 1)[0] ?? TEMPLATE };
      },
      answer: (store, { request, query, path }) => {
        const { lower, upper, typeMask, order, limit } = request;
        const rows = store.hooks.listRegisteredNodes(lower, upper, typeMask, order, limit);
        const last = rows.at(-1);
        const next =
          last !== undefined && rows.length >= limit
            ? javaNextLink(path, query, "registerednode.id", order, last.registered_node_id.toString())
            : null;
        return javaAnswer(toJson({ registered_nodes: rows.map(registeredNodeView), links: { next } }), next);
      },
    }),
  ];
}

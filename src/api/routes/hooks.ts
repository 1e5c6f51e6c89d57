/**
 * Hooks (HIP-1195): `GET /api/v1/accounts/{idOrAliasOrEvmAddress}/hooks` and `…/hooks/{hookId}/storage`, with the
 * Java service's conventions (upstream `HooksController`; hooks-and-registered-nodes.md §2–§4):
 * `Cache-Control: public, max-age=1`, Java error bodies, links from the sort key.
 *
 * Parameters are checked where the request arrives (`java/hooks-request.ts`); the owner of an EVM address or
 * alias is looked up where the index is read (404 `No account found for the given ID`). A numeric owner is never
 * looked up: an unknown one simply has no hooks.
 */
import { formatEntityId } from "../../ids.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { lookupJavaAccount, pathOfUrl } from "../java/entity-lookup.ts";
import {
  type HookStorageRequest,
  type HooksRequest,
  readHookStorageRequest,
  readHooksRequest,
} from "../java/hooks-request.ts";
import { javaNextLink } from "../java/links.ts";
import { type JavaQuery, parseJavaQuery } from "../java/query.ts";
import { toJson } from "../json.ts";
import { hookStorageView, hookView, slotHex } from "../views/hooks.ts";
import { defineRoute, javaAnswer, type RouteDef } from "./route-table.ts";

const HOOKS = "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks";
const HOOKS_MAX_AGE = 1;

type Paged<R> = R & { path: string; query: JavaQuery };

export function hookRoutes(): RouteDef[] {
  const common = { caching: "stale-ok", maxAge: HOOKS_MAX_AGE, style: "java" } as const;
  return [
    defineRoute<Paged<HooksRequest>>({
      ...common,
      template: HOOKS,
      parse: ({ url, params }) => {
        const query = parseJavaQuery(url);
        return {
          ...readHooksRequest(params.idOrAliasOrEvmAddress ?? "", query),
          path: pathOfUrl(url),
          query,
        };
      },
      answer: (store, request) => {
        const ownerId = lookupJavaAccount(store, request.owner);
        const rows = request.nothing
          ? []
          : store.hooks.listHooks(ownerId, request.ids, request.order, request.limit);
        const last = rows.at(-1);
        const next =
          last !== undefined && rows.length >= request.limit
            ? javaNextLink(request.path, request.query, "hook.id", request.order, last.hook_id.toString())
            : null;
        const body = { hooks: rows.map((row) => hookView(row, ownerId)), links: { next } };
        return javaAnswer(toJson(body), next);
      },
    }),
    defineRoute<Paged<HookStorageRequest>>({
      ...common,
      template: `${HOOKS}/{hookId}/storage`,
      parse: ({ url, params }) => {
        const query = parseJavaQuery(url);
        const request = readHookStorageRequest(
          params.idOrAliasOrEvmAddress ?? "",
          params.hookId ?? "",
          query,
        );
        return { ...request, path: pathOfUrl(url), query };
      },
      answer: (store, request) => {
        const ownerId = lookupJavaAccount(store, request.owner);
        const { hookId, order, limit, timestamps } = request;
        let rows: ReturnType<ReadStore["hooks"]["currentStorage"]> = [];
        if (!request.nothing && timestamps === null) {
          rows = store.hooks.currentStorage(ownerId, hookId, request.keys, order, limit);
        } else if (!request.nothing && timestamps !== null) {
          const keys = { ...request.keys, values: request.allValues };
          rows = store.hooks.storageAsOf(
            ownerId,
            hookId,
            keys,
            timestamps.lowerNs,
            timestamps.upperNs,
            order,
            limit,
          );
        }
        const last = rows.at(-1);
        const next =
          last !== undefined && rows.length >= limit
            ? javaNextLink(request.path, request.query, "key", order, slotHex(last.key))
            : null;
        const body = {
          hook_id: hookId,
          links: { next },
          owner_id: formatEntityId(ownerId),
          storage: rows.map(hookStorageView),
        };
        return javaAnswer(toJson(body), next);
      },
    }),
  ];
}

/**
 * The schedules group: `GET /api/v1/schedules` and `GET /api/v1/schedules/{scheduleId}` (upstream
 * `rest/schedules.js`; shared/reference/schedules.md). The list is cached as lists are (`max-age=10`
 * upstream); a schedule until the next commit, with upstream's `max-age`: 3600 once nothing can change it any
 * more (executed, deleted, or expired by the clock), else the default 1.
 */

import { formatEntityId } from "../../ids.ts";
import type { ScheduleRow } from "../../store/schedules.ts";
import { notFound } from "../http-errors.ts";
import { nextLink, type ParamOptions, unwrapParams } from "../params/index.ts";
import { parseScheduleRequest, parseSchedulesRequest, type SchedulesRequest } from "../params/schedules.ts";
import { scheduleView } from "../views/schedules.ts";
import { defineRoute, jsonAnswer, type RouteDef } from "./route-table.ts";

const LIST_MAX_AGE = 10;
const PENDING_MAX_AGE = 1;
const SETTLED_MAX_AGE = 3600;
/** The network's default lifetime of a schedule without an expiration time (30 minutes), plus a minute. */
const IMPLICIT_EXPIRY_NS = 31n * 60n * 1_000_000_000n;
/** How long after an explicit expiration time a schedule counts as expired (a minute). */
const EXPLICIT_EXPIRY_GRACE_NS = 60n * 1_000_000_000n;

/** The schedules routes; `options` are the shard, realm and limits of the parameter grammar. */
export function scheduleRoutes(options: Partial<ParamOptions> = {}): RouteDef[] {
  return [
    defineRoute<SchedulesRequest>({
      template: "/api/v1/schedules",
      caching: "stale-ok",
      maxAge: LIST_MAX_AGE,
      parse: ({ url }) => unwrapParams(parseSchedulesRequest(url, options)),
      answer: (store, request) => {
        const rows = store.schedules.listSchedules(request);
        const last = rows.at(-1);
        const next = nextLink(request.paging, rows.length, last && (formatEntityId(last.id) ?? undefined));
        return jsonAnswer({ schedules: rows.map(scheduleView), links: { next } });
      },
    }),
    defineRoute<bigint>({
      template: "/api/v1/schedules/{scheduleId}",
      caching: "exact",
      maxAge: PENDING_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseScheduleRequest({ scheduleId: params.scheduleId ?? "" }, url, options)),
      answer: (store, scheduleId) => {
        const row = store.schedules.getSchedule(scheduleId);
        if (row === undefined) throw notFound();
        const answer = jsonAnswer(scheduleView(row));
        const nowNs = BigInt(Date.now()) * 1_000_000n;
        return isSettled(row, nowNs) ? { ...answer, maxAge: SETTLED_MAX_AGE } : answer;
      },
    }),
  ];
}

/**
 * Upstream's `getScheduleCacheControlHeader`: a schedule nothing can change any more (executed, deleted, or past
 * its expiry as of `nowNs`) may be cached for an hour.
 */
export function isSettled(row: ScheduleRow, nowNs: bigint): boolean {
  if (row.executedNs !== null || row.deleted) return true;
  if (row.expirationNs === null) return nowNs >= row.createdNs + IMPLICIT_EXPIRY_NS;
  return nowNs >= row.expirationNs + EXPLICIT_EXPIRY_GRACE_NS;
}

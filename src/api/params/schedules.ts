/**
 * Request parsing for `GET /api/v1/schedules` and `GET /api/v1/schedules/{scheduleId}` (upstream
 * `rest/schedules.js`; shared/reference/schedules.md §4, §5):
 * - the list takes `account.id` (the creator) and `schedule.id`, each an entity ID or an EVM address with any
 *   operator, every value one ANDed condition (no IN list); `limit`; `order` (default asc). Pages link on
 *   `schedule.id`.
 * - `{scheduleId}`: query parameters are refused first (every one named), then the path must be `num`,
 *   `realm.num` or `shard.realm.num` within the bit limits (`Invalid parameter: scheduleid`).
 * A query string the parser rejects is reported before anything else.
 */
import { parseEntityIdString } from "./entity-id.ts";
import { fail, invalidParameter, type ParamResult, succeed } from "./errors.ts";
import {
  type Comparison,
  limitAndOrder,
  type Order,
  rejectAllParameters,
  validateFilters,
} from "./filters.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { accountIdSpec, limitSpec, orderSpec } from "./param-specs.ts";
import { pagingFor, readRequest } from "./request.ts";

const SCHEDULE_ID_PATH = "scheduleid";
/** A completed `shard.realm.num` (upstream's entity ID pattern once the configured parts are added). */
const COMPLETED_ENTITY_ID = /^\d{1,4}\.\d{1,5}\.\d{1,12}$/;

/** Accepted query parameters of `GET /api/v1/schedules`. */
export function schedulesSpec(options: ParamOptions) {
  return {
    "account.id": accountIdSpec(options),
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    "schedule.id": accountIdSpec(options),
  };
}

/** `GET /api/v1/schedules`. Every condition is ANDed; a null value names no entity and matches nothing. */
export type SchedulesRequest = {
  scheduleIds: Comparison<bigint | null>[];
  /** Conditions on the creator. */
  creatorIds: Comparison<bigint | null>[];
  limit: number;
  order: Order;
  paging: PagingContext;
};

/** Parses `GET /api/v1/schedules`; `url` is the request's path and query. */
export function parseSchedulesRequest(
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<SchedulesRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  const validated = validateFilters(
    request.value.query,
    schedulesSpec(opts),
    opts.maxRepeatedQueryParameters,
  );
  if (!validated.ok) return validated;
  const scheduleIds: Comparison<bigint | null>[] = [];
  const creatorIds: Comparison<bigint | null>[] = [];
  for (const filter of validated.value) {
    if (filter.key === "schedule.id") scheduleIds.push({ op: filter.op, value: filter.value });
    else if (filter.key === "account.id") creatorIds.push({ op: filter.op, value: filter.value });
  }
  const { limit, order } = limitAndOrder(validated.value, opts.defaultLimit, "asc");
  return succeed({
    scheduleIds,
    creatorIds,
    limit,
    order,
    paging: pagingFor(request.value, "schedule.id", order, limit),
  });
}

/** Parses `GET /api/v1/schedules/{scheduleId}` into the packed schedule ID. */
export function parseScheduleRequest(
  params: { readonly scheduleId: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<bigint> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const unknown = rejectAllParameters(request.value.query);
  if (unknown.length > 0) return fail(unknown);
  const id = scheduleIdOf(params.scheduleId, request.value.options);
  return id === null ? fail([invalidParameter(SCHEDULE_ID_PATH)]) : succeed(id);
}

/**
 * Upstream reads the path with `EntityId.parseString` without EVM addresses: a leading `0x` is dropped, the
 * configured shard and realm complete a short ID, and the result must be a `shard.realm.num` within the limits.
 */
function scheduleIdOf(text: string, options: ParamOptions): bigint | null {
  const pieces = (text.startsWith("0x") ? text.slice(2) : text).split(".");
  if (pieces.length > 3) return null;
  const parts = [options.shard.toString(), options.realm.toString()].slice(0, 3 - pieces.length);
  const completed = [...parts, ...pieces].join(".");
  if (!COMPLETED_ENTITY_ID.test(completed)) return null;
  const parsed = parseEntityIdString(completed, "any", options);
  return parsed.ok && parsed.id.kind === "id" ? parsed.id.encoded : null;
}

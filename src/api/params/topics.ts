/**
 * Request parsing for the Node-implemented topic message routes, reproducing `rest/topicmessage.js`:
 * - `{topicId}`: `shard.realm.num`, `realm.num` or a bare (packed, possibly negative) number of up to 19 digits;
 *   no EVM address. A bad spelling is `Invalid parameter: topic.id`; a spelling that passes but names no ID (a
 *   part over its bit limit, a number outside int64) is `Invalid entity ID "<id>"`, found only after the query
 *   validated (upstream parses the ID last).
 * - `GET /topics/{topicId}/messages`: the topic is checked before the query; `encoding` (`base64`, `utf-8`,
 *   `utf8`, any case), `sequencenumber` (1..2^63-1) and `timestamp` with any operator, ANDed; `limit`, `order`
 *   (default asc). Pages link on `timestamp`.
 * - `GET /topics/{topicId}/messages/{sequenceNumber}` and `GET /topics/messages/{consensusTimestamp}`: no query
 *   parameters (each reported first), then the path parameters (`topic.id` and `sequencenumber` together,
 *   `consensus_timestamp`).
 * A query string the parser rejects is reported before anything else.
 */
import { isValidEntityId, parsePackedOrDottedEntityId } from "./entity-id.ts";
import { fail, invalidParameter, type ParamResult, succeed } from "./errors.ts";
import {
  type Comparison,
  limitAndOrder,
  type Order,
  type ParamSpec,
  rejectAllParameters,
  validateFilters,
} from "./filters.ts";
import { isPositiveLong } from "./integers.ts";
import type { PagingContext } from "./links.ts";
import type { ParamOptions } from "./options.ts";
import { limitSpec, orderSpec, timestampSpec } from "./param-specs.ts";
import { valueText } from "./query.ts";
import { pagingFor, readRequest } from "./request.ts";
import { isValidTimestamp, parseTimestamp } from "./timestamp.ts";

const TOPIC_ID = "topic.id";
const SEQUENCE_NUMBER = "sequencenumber";
const CONSENSUS_TIMESTAMP = "consensus_timestamp";
const UTF8 = /^utf-?8$/i;

/** `encoding`: `base64`, `utf-8` or `utf8` in any case (upstream `isValidEncoding`). */
const encodingSpec: ParamSpec<string> = {
  isValid: (_op, value) => value.toLowerCase() === "base64" || UTF8.test(value),
  convert: (value) => ({ ok: true, value }),
};

/** `sequencenumber`: 1..2^63-1. */
const sequenceNumberSpec: ParamSpec<bigint> = {
  isValid: (_op, value) => isPositiveLong(value),
  convert: (value) => ({ ok: true, value: BigInt(value) }),
};

/** Accepted query parameters of `GET /api/v1/topics/{topicId}/messages`. */
export function topicMessagesSpec(options: ParamOptions) {
  return {
    encoding: encodingSpec,
    limit: limitSpec(options.maxLimit),
    order: orderSpec,
    sequencenumber: sequenceNumberSpec,
    timestamp: timestampSpec,
  };
}

/** `GET /api/v1/topics/{topicId}/messages`. Conditions are ANDed. */
export type TopicMessagesRequest = {
  topicId: bigint;
  timestamps: Comparison<bigint>[];
  sequenceNumbers: Comparison<bigint>[];
  /** Messages as UTF-8 text (invalid bytes become U+FFFD) rather than base64. */
  utf8: boolean;
  limit: number;
  order: Order;
  paging: PagingContext;
};

/** `GET /api/v1/topics/{topicId}/messages/{sequenceNumber}`. */
export type TopicMessageRequest = { topicId: bigint; sequenceNumber: bigint };

function packedTopicId(topicId: string, options: ParamOptions): ParamResult<bigint> {
  const packed = parsePackedOrDottedEntityId(topicId, options);
  return packed === null ? fail([`Invalid entity ID "${topicId}"`]) : succeed(packed);
}

/** Parses `GET /api/v1/topics/{topicId}/messages`; `url` is the request's path and query. */
export function parseTopicMessagesRequest(
  params: { readonly topicId: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TopicMessagesRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const opts = request.value.options;
  if (!isValidEntityId(params.topicId, false)) return fail([invalidParameter(TOPIC_ID)]);
  const validated = validateFilters(
    request.value.query,
    topicMessagesSpec(opts),
    opts.maxRepeatedQueryParameters,
  );
  if (!validated.ok) return validated;
  const topicId = packedTopicId(params.topicId, opts);
  if (!topicId.ok) return topicId;

  const timestamps: Comparison<bigint>[] = [];
  const sequenceNumbers: Comparison<bigint>[] = [];
  for (const filter of validated.value) {
    if (filter.key === "timestamp") timestamps.push({ op: filter.op, value: filter.value });
    else if (filter.key === "sequencenumber") sequenceNumbers.push({ op: filter.op, value: filter.value });
  }
  const { limit, order } = limitAndOrder(validated.value, opts.defaultLimit, "asc");
  // Upstream reads the raw value, operator and all (`eq:utf-8` validates but shows base64); where repeated, the
  // last value decides here (upstream fails with a 500 once it renders a message).
  const encodings = request.value.query.get("encoding")?.values ?? [];
  const encoding = encodings.length === 0 ? "" : valueText(encodings[encodings.length - 1]!);
  return succeed({
    topicId: topicId.value,
    timestamps,
    sequenceNumbers,
    utf8: UTF8.test(encoding),
    limit,
    order,
    paging: pagingFor(request.value, "timestamp", order, limit),
  });
}

/** Parses `GET /api/v1/topics/{topicId}/messages/{sequenceNumber}`. */
export function parseTopicMessageRequest(
  params: { readonly topicId: string; readonly sequenceNumber: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<TopicMessageRequest> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const unknown = rejectAllParameters(request.value.query);
  if (unknown.length > 0) return fail(unknown);
  const messages: string[] = [];
  if (!isValidEntityId(params.topicId, false)) messages.push(invalidParameter(TOPIC_ID));
  if (!isPositiveLong(params.sequenceNumber)) messages.push(invalidParameter(SEQUENCE_NUMBER));
  if (messages.length > 0) return fail(messages);
  const topicId = packedTopicId(params.topicId, request.value.options);
  if (!topicId.ok) return topicId;
  return succeed({ topicId: topicId.value, sequenceNumber: BigInt(params.sequenceNumber) });
}

/** Parses `GET /api/v1/topics/messages/{consensusTimestamp}` into nanoseconds. */
export function parseTopicMessageByTimestampRequest(
  params: { readonly consensusTimestamp: string },
  url: string,
  options: Partial<ParamOptions> = {},
): ParamResult<bigint> {
  const request = readRequest(url, options);
  if (!request.ok) return request;
  const unknown = rejectAllParameters(request.value.query);
  if (unknown.length > 0) return fail(unknown);
  if (!isValidTimestamp(params.consensusTimestamp)) return fail([invalidParameter(CONSENSUS_TIMESTAMP)]);
  return succeed(parseTimestamp(params.consensusTimestamp) ?? 0n);
}

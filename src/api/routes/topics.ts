/**
 * The topics group: `GET /api/v1/topics/{topicId}` (the Java service's, api.md §3.1) and the Node service's
 * message routes, `/api/v1/topics/{topicId}/messages`, `/api/v1/topics/{topicId}/messages/{sequenceNumber}` and
 * `/api/v1/topics/messages/{consensusTimestamp}` (transactions.md §5, §6).
 *
 * Table order follows upstream's Express registration: `/topics/messages/messages` is the message list of a
 * topic spelled `messages` (an invalid topic ID), and `/topics/messages/{ts}` is never a topic ID because the
 * topic route takes only the numeric spellings the public ingress sends to the Java service.
 */
import { MAX_INT64 } from "../../int64.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { formatTimestamp } from "../../time.ts";
import { notFound } from "../http-errors.ts";
import { isJavaTopicPath, parseJavaEntityIdNum } from "../java/entity-id-param.ts";
import { failedToConvert, javaNotFound } from "../java/errors.ts";
import { toJson } from "../json.ts";
import { nextLink, type ParamOptions, unwrapParams } from "../params/index.ts";
import {
  parseTopicMessageByTimestampRequest,
  parseTopicMessageRequest,
  parseTopicMessagesRequest,
} from "../params/topics.ts";
import { topicMessageJson, topicMessagesJson, topicView } from "../views/topics.ts";
import { defineRoute, javaAnswer, type RouteDef } from "./route-table.ts";

/** Cache lifetimes of the public mirror node's topic routes (Java `application.yml`, Node `application.yml`). */
const TOPIC_MAX_AGE = 5;
const MESSAGES_MAX_AGE = 1;
const MESSAGE_MAX_AGE = 600;

/** The topics group's routes; `options` are the shard, realm and limits of the parameter grammar. */
export function topicRoutes(options: Partial<ParamOptions> = {}): RouteDef[] {
  const shardRealm = { shard: options.shard ?? 0n, realm: options.realm ?? 0n };
  return [
    defineRoute({
      template: "/api/v1/topics/{topicId}/messages",
      caching: "stale-ok",
      maxAge: MESSAGES_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(parseTopicMessagesRequest({ topicId: params.topicId ?? "" }, url, options)),
      answer: (store: ReadStore, request) => {
        const records = store.topics.listMessages(request);
        const last = records.at(-1);
        const next = nextLink(
          request.paging,
          records.length,
          last === undefined ? undefined : formatTimestamp(last.consensusNs),
        );
        return { status: 200, json: topicMessagesJson(records, request.utf8, next), next };
      },
    }),
    defineRoute({
      template: "/api/v1/topics/{topicId}/messages/{sequenceNumber}",
      caching: "exact",
      maxAge: MESSAGE_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(
          parseTopicMessageRequest(
            { topicId: params.topicId ?? "", sequenceNumber: params.sequenceNumber ?? "" },
            url,
            options,
          ),
        ),
      answer: (store: ReadStore, { topicId, sequenceNumber }) => {
        const record = store.topics.getMessageBySequence(topicId, sequenceNumber);
        if (record === undefined) throw notFound();
        return { status: 200, json: topicMessageJson(record), next: null };
      },
    }),
    defineRoute({
      template: "/api/v1/topics/messages/{consensusTimestamp}",
      caching: "exact",
      maxAge: MESSAGE_MAX_AGE,
      parse: ({ url, params }) =>
        unwrapParams(
          parseTopicMessageByTimestampRequest(
            { consensusTimestamp: params.consensusTimestamp ?? "" },
            url,
            options,
          ),
        ),
      answer: (store: ReadStore, consensusNs) => {
        // Ten digits of seconds reach past int64 nanoseconds, where no message is.
        const record = consensusNs > MAX_INT64 ? undefined : store.topics.getMessageAt(consensusNs);
        if (record === undefined) throw notFound();
        return { status: 200, json: topicMessageJson(record), next: null };
      },
    }),
    defineRoute({
      template: "/api/v1/topics/{topicId}",
      caching: "exact",
      maxAge: TOPIC_MAX_AGE,
      style: "java",
      accepts: (params) => isJavaTopicPath(params.topicId ?? ""),
      parse: ({ params }) => {
        const topicId = parseJavaEntityIdNum(params.topicId ?? "", shardRealm);
        if (topicId === null) throw failedToConvert("id");
        return topicId;
      },
      answer: (store: ReadStore, topicId) => {
        const topic = store.topics.getTopic(topicId);
        if (topic === undefined) throw javaNotFound("Topic not found");
        return javaAnswer(toJson(topicView(topic)));
      },
    }),
  ];
}

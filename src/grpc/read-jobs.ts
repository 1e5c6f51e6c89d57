/**
 * The reads of the gRPC API, run by the read workers like the REST routes' answers (the event loop never runs a
 * query): a page of a topic's messages and the nodes of an address book, each returned as encoded protobuf
 * messages (`RouteAnswer.binary`). They are entries of the workers' route table under templates no HTTP path
 * matches; the HTTP front never holds them.
 */
import { defineRoute, type RouteAnswer, type RouteDef } from "../api/routes/route-table.ts";
import { MAX_INT64 } from "../int64.ts";
import type { ReadStore } from "../store/read-store.ts";
import { encodeCommonRow, encodeNodeAddress, encodeTopicResponse, isCommonRow } from "./encode.ts";
import { PageWriter } from "./page-frame.ts";
import { ProtoWriter } from "./wire.ts";

export const TOPIC_PAGE_JOB = "grpc:topic-messages";
export const NODES_JOB = "grpc:address-book-nodes";

/** Status of a topic page whose topic the index does not know at all (gRPC NOT_FOUND). */
export const TOPIC_UNKNOWN = 404;
/** Status of a topic page whose id is an entity but not a topic (gRPC INVALID_ARGUMENT `Not a valid topic`). */
export const NOT_A_TOPIC = 400;
/** Status of a nodes job for a file with no stored address book (gRPC NOT_FOUND). */
export const NO_ADDRESS_BOOK = 404;

/** The most messages one page reads (upstream's `retriever.maxPageSize`). */
export const TOPIC_PAGE_SIZE = 1000;

export type TopicPageQuery = {
  topicId: bigint;
  /** Messages strictly after this consensus time. */
  afterNs: bigint;
  /** Messages strictly before this consensus time (null: no end). */
  beforeNs: bigint | null;
  /** At most this many (1 … TOPIC_PAGE_SIZE). */
  limit: number;
  /** First page of a subscription: check that the id is a topic first (grpc.md §3.2 step 3). */
  check: boolean;
};

export type NodesQuery = {
  /** Encoded id of 0.0.101 or 0.0.102. */
  fileId: bigint;
  /** At most this many nodes (0: all). */
  limit: number;
};

/** More nodes than any address book holds: "all" for a limit of 0. */
const ALL_NODES = 100_000;

const notHttp = (): never => {
  throw new Error("a gRPC read job is not an HTTP route");
};

const binary = (bytes: Uint8Array, status = 200): RouteAnswer => ({
  status,
  json: "",
  next: null,
  binary: bytes,
});

/** Whether the index knows `topicId` as a topic: a version of it (deleted ones too), or a message of it. */
function isTopic(store: ReadStore, topicId: bigint): boolean {
  if (store.topics.getTopic(topicId) !== undefined) return true;
  const first = store.topics.listMessages({
    topicId,
    timestamps: [],
    sequenceNumbers: [],
    order: "asc",
    limit: 1,
  });
  return first.length > 0;
}

export function answerTopicPage(store: ReadStore, query: TopicPageQuery): RouteAnswer {
  if (query.check && !isTopic(store, query.topicId)) {
    return binary(new Uint8Array(), store.entityExists(query.topicId) ? NOT_A_TOPIC : TOPIC_UNKNOWN);
  }
  const rows = store.topics.streamMessages(
    query.topicId,
    query.afterNs,
    query.beforeNs === null ? MAX_INT64 : query.beforeNs - 1n,
    Math.min(Math.max(1, query.limit), TOPIC_PAGE_SIZE),
  );
  const page = new PageWriter();
  let message: ProtoWriter | undefined;
  for (const row of rows) {
    if (isCommonRow(row)) {
      encodeCommonRow(page, row);
      continue;
    }
    // A chunk, an old running hash version or an extreme value: the whole row, through the general encoder.
    const record = store.topics.getMessageAt(row[0]);
    if (record === undefined) continue;
    message ??= new ProtoWriter(512);
    page.add(record.consensusNs, record.sequenceNumber, encodeTopicResponse(message, record));
  }
  return binary(page.finish());
}

export function answerNodes(store: ReadStore, query: NodesQuery): RouteAnswer {
  if (!store.network.hasAddressBook(query.fileId)) return binary(new Uint8Array(), NO_ADDRESS_BOOK);
  const rows = store.network.networkNodes({
    fileId: query.fileId,
    lowerNodeId: -(1n << 63n),
    upperNodeId: (1n << 63n) - 1n,
    nodeIds: null,
    order: "asc",
    limit: query.limit > 0 ? Math.min(query.limit, ALL_NODES) : ALL_NODES,
  });
  const page = new PageWriter();
  const message = new ProtoWriter(1024);
  for (const row of rows) page.add(row.nodeId, 0n, encodeNodeAddress(message, row));
  return binary(page.finish());
}

/** The gRPC read jobs, as entries of a read worker's route table. */
export function grpcReadJobs(): RouteDef[] {
  return [
    defineRoute<TopicPageQuery>({
      template: TOPIC_PAGE_JOB,
      caching: "none",
      maxAge: 0,
      parse: notHttp,
      answer: answerTopicPage,
    }),
    defineRoute<NodesQuery>({
      template: NODES_JOB,
      caching: "none",
      maxAge: 0,
      parse: notHttp,
      answer: answerNodes,
    }),
  ];
}

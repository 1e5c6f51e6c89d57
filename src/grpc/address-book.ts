/** `NetworkService/getNodes` (grpc.md §4): the newest address book of 0.0.101 or 0.0.102, one node at a time. */
import type { ServerWritableStream } from "@grpc/grpc-js";
import { CallSink } from "./call-sink.ts";
import { NO_ADDRESS_BOOK } from "./read-jobs.ts";
import type { GrpcReads } from "./reads.ts";
import { type decodeAddressBookQuery, entityText, nodesFilterOf } from "./requests.ts";
import type { GrpcStats } from "./stats.ts";
import { Details, Status } from "./status.ts";

type NodesCall = ServerWritableStream<ReturnType<typeof decodeAddressBookQuery>, Buffer>;

/** Answers one `getNodes` call; never throws (every failure is a status on the call). */
export async function serveNodes(call: NodesCall, reads: GrpcReads, stats: GrpcStats): Promise<void> {
  // An address book is a few dozen nodes: the queue is bounded by the book, never by the client.
  const sink = new CallSink(call, Number.MAX_SAFE_INTEGER, { code: Status.UNKNOWN, details: "" }, (code) =>
    stats.ended(code),
  );
  const filter = nodesFilterOf(call.request);
  if ("code" in filter) {
    sink.end(filter);
    return;
  }
  const page = await reads.nodes(filter);
  if (sink.ended) return;
  if (!page.ok) {
    sink.end({ code: Status.RESOURCE_EXHAUSTED, details: Details.dataSource });
    return;
  }
  if (page.status === NO_ADDRESS_BOOK) {
    sink.end({ code: Status.NOT_FOUND, details: `${entityText(filter.fileId)} does not exist` });
    return;
  }
  const nodes = page.page;
  sink.write(nodes.frames(0, nodes.count), nodes.count);
  stats.messagesSent += nodes.count;
  sink.end("ok");
}

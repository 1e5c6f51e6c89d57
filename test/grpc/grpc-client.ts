/**
 * Test helpers for the gRPC API: an SDK client pointed at a service's gRPC port, and a raw grpc-js client that
 * shows status codes and descriptions exactly as a server sent them.
 */
import "../../src/streams/long-setup.ts";
import { credentials, Client as GrpcClient, type Metadata } from "@grpc/grpc-js";
import { com } from "@hiero-ledger/proto";
import { Client } from "@hiero-ledger/sdk";

/** An SDK client with only a mirror network (plaintext on any port but 443 and 50212), no background refresh. */
export function sdkClient(port: number): Client {
  return Client.forNetwork({}, { scheduleNetworkUpdate: false }).setMirrorNetwork([`127.0.0.1:${port}`]);
}

export type RawStreamResult = { messages: Buffer[]; code: number; details: string };

const identity = (value: Buffer) => value;

/** One server-streaming call with request bytes; resolves with what arrived and the status. */
export function rawCall(
  port: number,
  path: string,
  request: Uint8Array,
  options: { maxMessages?: number; onMessage?: (count: number) => void } = {},
): Promise<RawStreamResult> {
  const client = new GrpcClient(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((resolve) => {
    const messages: Buffer[] = [];
    const call = client.makeServerStreamRequest(path, identity, identity, Buffer.from(request));
    call.on("data", (message: Buffer) => {
      messages.push(message);
      options.onMessage?.(messages.length);
      if (options.maxMessages !== undefined && messages.length >= options.maxMessages) call.cancel();
    });
    call.on("status", (status: { code: number; details: string; metadata: Metadata }) => {
      client.close();
      resolve({ messages, code: status.code, details: status.details });
    });
    call.on("error", () => {});
  });
}

export const mirror = com.hedera.mirror.api.proto;

export const SUBSCRIBE_TOPIC = "/com.hedera.mirror.api.proto.ConsensusService/subscribeTopic";
export const GET_NODES = "/com.hedera.mirror.api.proto.NetworkService/getNodes";

/** A `ConsensusTopicQuery`'s bytes; int64 fields may be plain numbers (protobufjs takes them). */
export function topicQuery(query: object): Uint8Array {
  const create = mirror.ConsensusTopicQuery.create as (properties: object) => object;
  return mirror.ConsensusTopicQuery.encode(create(query)).finish();
}

/**
 * The standard gRPC health service, `grpc.health.v1.Health` (grpc.md §1): `Check` and `Watch` for the whole
 * server ("") and the two mirror services, SERVING while readiness is ready. Its two messages are one field each,
 * encoded here by hand.
 */
import type {
  handleServerStreamingCall,
  handleUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
} from "@grpc/grpc-js";
import protobuf from "protobufjs/minimal.js";
import { Status } from "./status.ts";

export const SERVING = 1;
export const NOT_SERVING = 2;
export const SERVICE_UNKNOWN = 3;

export const HEALTH_SERVICE_NAMES: ReadonlySet<string> = new Set([
  "",
  "com.hedera.mirror.api.proto.ConsensusService",
  "com.hedera.mirror.api.proto.NetworkService",
]);

/** `HealthCheckRequest` {1 service string}. */
export function decodeHealthRequest(bytes: Buffer): { service: string } {
  const reader = protobuf.Reader.create(bytes);
  let service = "";
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1 && (tag & 7) === 2) service = reader.string();
    else reader.skipType(tag & 7);
  }
  return { service };
}

/** `HealthCheckResponse` {1 status enum}. */
export function encodeHealthResponse(response: { status: number }): Buffer {
  return response.status === 0 ? Buffer.alloc(0) : Buffer.from([0x08, response.status]);
}

const identity = (value: Buffer) => value;

export const HEALTH_DEFINITION: ServiceDefinition = {
  Check: {
    path: "/grpc.health.v1.Health/Check",
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: decodeHealthRequest,
    responseSerialize: encodeHealthResponse,
    responseDeserialize: identity,
  },
  Watch: {
    path: "/grpc.health.v1.Health/Watch",
    requestStream: false,
    responseStream: true,
    requestSerialize: identity,
    requestDeserialize: decodeHealthRequest,
    responseSerialize: encodeHealthResponse,
    responseDeserialize: identity,
  },
};

/** How often a `Watch` looks whether the status changed. */
const WATCH_INTERVAL_MS = 1000;

/** The handlers, given whether the server serves now, and a way to end every `Watch` (shutdown). */
export function healthHandlers(serving: () => boolean) {
  const watches = new Set<ServerWritableStream<{ service: string }, { status: number }>>();
  const statusOf = (service: string) =>
    HEALTH_SERVICE_NAMES.has(service) ? (serving() ? SERVING : NOT_SERVING) : SERVICE_UNKNOWN;
  const Check: handleUnaryCall<{ service: string }, { status: number }> = (call, callback) => {
    const status = statusOf(call.request.service);
    if (status === SERVICE_UNKNOWN) callback({ code: Status.NOT_FOUND, details: "unknown service" });
    else callback(null, { status });
  };
  const Watch: handleServerStreamingCall<{ service: string }, { status: number }> = (
    call: ServerWritableStream<{ service: string }, { status: number }>,
  ) => {
    let last = statusOf(call.request.service);
    call.write({ status: last });
    const timer = setInterval(() => {
      const now = statusOf(call.request.service);
      if (now !== last) call.write({ status: now });
      last = now;
    }, WATCH_INTERVAL_MS);
    timer.unref();
    watches.add(call);
    call.on("cancelled", () => {
      clearInterval(timer);
      watches.delete(call);
    });
  };
  const endAll = (code: Status, details: string) => {
    for (const call of watches) {
      call.write({ status: NOT_SERVING });
      call.emit("error", { code, details });
    }
    watches.clear();
  };
  return { handlers: { Check, Watch }, endAll };
}

/**
 * The mirror gRPC API (grpc.md): `ConsensusService/subscribeTopic`, `NetworkService/getNodes` and the standard
 * health service, plaintext HTTP/2 on its own port, in the process that serves REST. Requests are decoded with
 * the `@hiero-ledger/proto` classes; answers are encoded by the read workers and written as they come.
 */
import {
  type handleServerStreamingCall,
  Server,
  ServerCredentials,
  type ServerWritableStream,
  type ServiceDefinition,
} from "@grpc/grpc-js";
import type { ReadAnswerer } from "../api/read-pool.ts";
import type { IngestService } from "../ingest/service.ts";
import type { Logger } from "../log.ts";
import { serveNodes } from "./address-book.ts";
import { HEALTH_DEFINITION, healthHandlers } from "./health.ts";
import { createGrpcReads } from "./reads.ts";
import { decodeAddressBookQuery, decodeTopicQuery, topicFilterOf } from "./requests.ts";
import { GrpcStats } from "./stats.ts";
import { Details, Status } from "./status.ts";
import { TopicHub } from "./topic-hub.ts";

const identity = (value: Buffer) => value;

const CONSENSUS_SERVICE: ServiceDefinition = {
  subscribeTopic: {
    path: "/com.hedera.mirror.api.proto.ConsensusService/subscribeTopic",
    requestStream: false,
    responseStream: true,
    requestSerialize: identity,
    requestDeserialize: decodeTopicQuery,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

const NETWORK_SERVICE: ServiceDefinition = {
  getNodes: {
    path: "/com.hedera.mirror.api.proto.NetworkService/getNodes",
    requestStream: false,
    responseStream: true,
    requestSerialize: identity,
    requestDeserialize: decodeAddressBookQuery,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

/** Upstream's server settings (grpc.md §1), as `@grpc/grpc-js` options. */
const SERVER_OPTIONS = {
  "grpc.max_concurrent_streams": 5,
  "grpc.keepalive_time_ms": 300_000,
  "grpc.keepalive_timeout_ms": 20_000,
  "grpc.max_connection_idle_ms": 600_000,
  "grpc.max_receive_message_length": 1024,
};

export type GrpcServerDeps = {
  host: string;
  /** 0: any free port. */
  port: number;
  reads: ReadAnswerer;
  ingest: Pick<IngestService, "status" | "onCommitted">;
  log: Logger;
};

/** The gRPC listener as readiness shows it. */
export type GrpcStatus = {
  state: "serving" | "stopping" | "stopped";
  port: number;
  subscribers: number;
};

export type GrpcServer = {
  readonly port: number;
  readonly stats: GrpcStats;
  status(): GrpcStatus;
  /**
   * Stops accepting calls, ends every open call with UNAVAILABLE `Server is shutting down` (after what its stream
   * holds), and resolves once the listener is closed (cutting connections still open after `drainMs`).
   */
  stop(drainMs?: number): Promise<void>;
};

const nowNs = () => BigInt(Date.now()) * 1_000_000n;

export async function startGrpcServer(deps: GrpcServerDeps): Promise<GrpcServer> {
  const log = deps.log.child({ component: "grpc" });
  const stats = new GrpcStats();
  const reads = createGrpcReads(deps.reads);
  const hub = new TopicHub({ reads, stats, nowNs, indexedEndNs: deps.ingest.status().lastConsensusEndNs });
  deps.ingest.onCommitted((_file, _block, info) => hub.committed(info.consensusEndNs, info.topics));
  let state: GrpcStatus["state"] = "serving";
  const health = healthHandlers(() => state === "serving" && deps.ingest.status().state === "ready");

  const subscribeTopic: handleServerStreamingCall<ReturnType<typeof decodeTopicQuery>, Buffer> = (call) => {
    if (state !== "serving") {
      call.emit("error", { code: Status.UNAVAILABLE, details: Details.shuttingDown });
      return;
    }
    const filter = topicFilterOf(call.request, nowNs());
    if ("code" in filter) {
      stats.ended(filter.code);
      call.emit("error", { code: filter.code, details: filter.details });
      return;
    }
    hub.subscribe(filter, call as ServerWritableStream<unknown, Buffer>);
  };
  const getNodes: handleServerStreamingCall<ReturnType<typeof decodeAddressBookQuery>, Buffer> = (call) => {
    serveNodes(call, reads, stats).catch((error: unknown) => {
      log.error({ err: error }, "getNodes failed");
      call.emit("error", { code: Status.UNKNOWN, details: Details.unknown });
    });
  };

  const server = new Server(SERVER_OPTIONS);
  server.addService(CONSENSUS_SERVICE, { subscribeTopic });
  server.addService(NETWORK_SERVICE, { getNodes });
  server.addService(HEALTH_DEFINITION, health.handlers);
  const address = deps.host.includes(":") ? `[${deps.host}]:${deps.port}` : `${deps.host}:${deps.port}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, bound) => {
      if (error) reject(error);
      else resolve(bound);
    });
  });
  log.info({ host: deps.host, port }, "serving the mirror gRPC API");

  let stopping: Promise<void> | undefined;
  return {
    port,
    stats,
    status: () => ({ state, port, subscribers: hub.size }),
    stop(drainMs = 5000) {
      stopping ??= new Promise<void>((resolve) => {
        state = "stopping";
        const cut = setTimeout(() => server.forceShutdown(), drainMs);
        server.tryShutdown(() => {
          clearTimeout(cut);
          state = "stopped";
          resolve();
        });
        hub.endAll({ code: Status.UNAVAILABLE, details: Details.shuttingDown });
        health.endAll(Status.UNAVAILABLE, Details.shuttingDown);
      });
      return stopping;
    },
  };
}

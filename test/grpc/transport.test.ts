import { status as GrpcStatus } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService, type TestService } from "../helpers/service.ts";
import { rawCall, SUBSCRIBE_TOPIC, topicQuery } from "./grpc-client.ts";

/**
 * What the gRPC listener answers outside the two methods' own rules (grpc.md §1, §3.9, §5): unknown methods,
 * oversized requests, and open subscriptions when the service stops.
 */
let service: TestService;
let remove: () => void;
let grpcPort: number;

beforeAll(async () => {
  const stream = copyStream(fixtureStream("topics"));
  remove = stream.remove;
  service = await startTestService({ recordsDir: stream.dir, grpcPort: 0 });
  await service.ingest.settled;
  grpcPort = service.grpcPort!;
});

afterAll(async () => {
  await service?.stop();
  remove?.();
});

describe("the gRPC listener", () => {
  it("answers UNIMPLEMENTED for a method it does not serve", async () => {
    const result = await rawCall(
      grpcPort,
      "/com.hedera.mirror.api.proto.NetworkService/getFeeEstimate",
      new Uint8Array(),
    );
    expect(result.code).toBe(GrpcStatus.UNIMPLEMENTED);
  });

  it("refuses a request over 1024 bytes with RESOURCE_EXHAUSTED", async () => {
    const result = await rawCall(grpcPort, SUBSCRIBE_TOPIC, new Uint8Array(2000).fill(0));
    expect(result.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(result.messages).toEqual([]);
  });

  it("ends an open subscription with UNAVAILABLE `Server is shutting down` when the service stops", async () => {
    let sawHistory!: () => void;
    const history = new Promise<void>((resolve) => {
      sawHistory = resolve;
    });
    const call = rawCall(
      grpcPort,
      SUBSCRIBE_TOPIC,
      topicQuery({ topicID: { topicNum: 1005 }, consensusStartTime: {} }),
      {
        onMessage: (count) => {
          if (count >= 3) sawHistory();
        },
      },
    );
    await history;
    const stopped = service.stop();
    const result = await call;
    await stopped;
    expect(result.messages.length).toBeGreaterThanOrEqual(3);
    expect({ code: result.code, details: result.details }).toEqual({
      code: GrpcStatus.UNAVAILABLE,
      details: "Server is shutting down",
    });
  });
});

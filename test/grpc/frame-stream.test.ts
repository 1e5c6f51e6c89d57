import {
  status as GrpcStatus,
  type handleServerStreamingCall,
  Server,
  ServerCredentials,
  type ServerWritableStream,
} from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallSink } from "../../src/grpc/call-sink.ts";
import { directFrames, type FrameStream, perMessageFrames } from "../../src/grpc/frame-stream.ts";
import { FramePage, PageWriter } from "../../src/grpc/page-frame.ts";
import { Status } from "../../src/grpc/status.ts";
import { rawCall } from "./grpc-client.ts";

/**
 * Runs of pre-framed messages written to a real grpc-js call: straight to its HTTP/2 stream (the path the
 * subscriptions take; this test fails when a grpc-js upgrade loses it) and, as the fallback, through grpc-js one
 * message at a time. A client must see the same messages and the status after them either way.
 */
const identity = (value: Buffer) => value;
const PATH = "/test.Frames/stream";

/** 3,000 messages of varied sizes (some empty, some larger than an HTTP/2 frame), as pages of up to 1,000. */
const MESSAGES = Array.from({ length: 3000 }, (_, i) =>
  Buffer.alloc(i % 7 === 0 ? 0 : i % 500 === 1 ? 20_000 : (i % 300) + 1, i % 251),
);

function pages(): FramePage[] {
  const result: FramePage[] = [];
  for (let start = 0; start < MESSAGES.length; start += 1000) {
    const writer = new PageWriter();
    for (let i = start; i < Math.min(start + 1000, MESSAGES.length); i++) {
      writer.add(BigInt(i), BigInt(i + 1), MESSAGES[i]!);
    }
    result.push(new FramePage(writer.finish()));
  }
  return result;
}

let server: Server;
let port: number;
const used: boolean[] = [];

/** Writes every page (as runs of up to 250 messages) through a sink, waiting for drains, then ends OK. */
async function serve(call: ServerWritableStream<unknown, Buffer>, stream: FrameStream): Promise<void> {
  used.push(stream.direct);
  const sink = new CallSink(
    call,
    Number.MAX_SAFE_INTEGER,
    { code: Status.UNKNOWN, details: "" },
    () => {},
    stream,
  );
  for (const page of pages()) {
    for (let from = 0; from < page.count; from += 250) {
      const to = Math.min(from + 250, page.count);
      sink.write(page.frames(from, to), to - from);
    }
    await sink.drained();
  }
  sink.end("ok");
}

beforeAll(async () => {
  server = new Server();
  const handler: handleServerStreamingCall<Buffer, Buffer> = (call) => {
    const writable = call as ServerWritableStream<unknown, Buffer>;
    const direct = call.request.length > 0;
    void serve(writable, direct ? directFrames(writable)! : perMessageFrames(writable));
  };
  server.addService(
    {
      stream: {
        path: PATH,
        requestStream: false,
        responseStream: true,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      },
    },
    { stream: handler },
  );
  port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
});

afterAll(() => {
  server?.forceShutdown();
});

describe("frame streams", () => {
  it("writes runs straight to the HTTP/2 stream of this grpc-js version", async () => {
    const result = await rawCall(port, PATH, Uint8Array.of(1));
    expect(used.at(-1)).toBe(true);
    expect(result.code).toBe(GrpcStatus.OK);
    expect(result.messages.length).toBe(MESSAGES.length);
    expect(result.messages.every((m, i) => m.equals(MESSAGES[i]!))).toBe(true);
  });

  it("writes the same messages one by one through grpc-js (the fallback)", async () => {
    const result = await rawCall(port, PATH, new Uint8Array());
    expect(used.at(-1)).toBe(false);
    expect(result.code).toBe(GrpcStatus.OK);
    expect(result.messages.length).toBe(MESSAGES.length);
    expect(result.messages.every((m, i) => m.equals(MESSAGES[i]!))).toBe(true);
  });
});

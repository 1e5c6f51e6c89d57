/**
 * Writing runs of pre-framed messages (page-frame.ts) to a server-streaming call.
 *
 * grpc-js writes each message on its own: an object-mode `Writable`, the call's interceptor chain, a copy into a
 * new framed buffer and one HTTP/2 stream write, per message — about as much main-thread CPU as everything else
 * a replayed message costs. The read workers already frame the messages, so a run of them can go to the call's
 * HTTP/2 stream in one write. grpc-js has no public way to do that; `directFrames` reaches the HTTP/2 stream
 * through the call's (undocumented) fields, after checking every one it uses, and returns null when they are not
 * there (another grpc-js version: `perMessageFrames` is the fallback, slower but the same on the wire).
 * `test/grpc/frame-stream.test.ts` fails when a grpc-js upgrade loses the direct path.
 *
 * What stays grpc-js's: the response headers (sent before the first write, as its own first message would),
 * the status and trailers (the call's `end`/`error` after our writes, on the same stream, so after their bytes),
 * cancellation and deadlines.
 */
import type { ServerWritableStream } from "@grpc/grpc-js";
import { FRAME_HEADER_BYTES } from "./page-frame.ts";

export type FrameStream = {
  /** Writes `frames` (`count` framed messages); false when the stream is full (wait for `onDrain`). */
  write(frames: Buffer, count: number): boolean;
  /** Calls `listener` whenever the stream takes more after a write returned false. */
  onDrain(listener: () => void): void;
  readonly direct: boolean;
};

/** The parts of grpc-js's HTTP/2 stream the direct path uses. */
type Http2StreamLike = {
  write(chunk: Buffer): boolean;
  on(event: "drain" | "error", listener: () => void): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
};

/** The parts of grpc-js's `BaseServerInterceptingCall` (the call's `call` when no interceptor is set). */
type BaseCallLike = {
  stream: Http2StreamLike;
  maybeSendMetadata(): void;
  checkCancelled(): boolean;
};

function baseCallOf(call: ServerWritableStream<unknown, Buffer>): BaseCallLike | null {
  const inner = (call as unknown as { call?: Partial<BaseCallLike> }).call;
  if (inner === undefined || inner === null) return null;
  const stream = inner.stream as Partial<Http2StreamLike> | undefined;
  if (
    typeof inner.maybeSendMetadata !== "function" ||
    typeof inner.checkCancelled !== "function" ||
    stream === undefined ||
    typeof stream.write !== "function" ||
    typeof stream.on !== "function" ||
    typeof stream.destroyed !== "boolean" ||
    typeof stream.writableEnded !== "boolean"
  ) {
    return null;
  }
  return inner as BaseCallLike;
}

/** Runs written straight to the call's HTTP/2 stream, one write per run; null when grpc-js does not allow it. */
export function directFrames(call: ServerWritableStream<unknown, Buffer>): FrameStream | null {
  const base = baseCallOf(call);
  if (base === null) return null;
  const stream = base.stream;
  // A write failing on a reset stream is reported by the stream's close (grpc-js: a cancel); grpc-js handles
  // only the first error event, so later ones must not go unheard.
  stream.on("error", () => {});
  return {
    direct: true,
    write(frames) {
      // A cancelled or finished stream takes nothing (writing after its end would raise an error event).
      if (base.checkCancelled() || stream.destroyed || stream.writableEnded) return true;
      base.maybeSendMetadata();
      return stream.write(frames);
    },
    onDrain(listener) {
      stream.on("drain", listener);
    },
  };
}

/** Runs split into messages and written through grpc-js one by one (its own framing). */
export function perMessageFrames(call: ServerWritableStream<unknown, Buffer>): FrameStream {
  return {
    direct: false,
    write(frames, count) {
      let more = true;
      let at = 0;
      for (let i = 0; i < count; i++) {
        const length = frames.readUInt32BE(at + 1);
        const start = at + FRAME_HEADER_BYTES;
        more = call.write(frames.subarray(start, start + length));
        at = start + length;
      }
      return more;
    },
    onDrain(listener) {
      call.on("drain", listener);
    },
  };
}

export function frameStreamOf(call: ServerWritableStream<unknown, Buffer>): FrameStream {
  return directFrames(call) ?? perMessageFrames(call);
}

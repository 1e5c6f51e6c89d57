import { Writable } from "node:stream";
import type { ServerWritableStream } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { CallSink } from "../../src/grpc/call-sink.ts";
import { FramePage, PageWriter } from "../../src/grpc/page-frame.ts";
import { Status } from "../../src/grpc/status.ts";

/**
 * A call whose client reads only when told: a Writable in object mode like grpc-js's server stream (a buffer of
 * `highWaterMark` messages), whose writes complete only when `release()` lets them.
 */
function slowCall(highWaterMark: number) {
  const written: Buffer[] = [];
  const held: Array<() => void> = [];
  const errors: Array<{ code: number; details: string }> = [];
  let ended = false;
  const stream = new Writable({
    objectMode: true,
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk);
      held.push(callback);
    },
  });
  // grpc-js ends the call with the status given as an "error" event.
  stream.on("error", (error: { code: number; details: string }) => errors.push(error));
  const call = Object.assign(stream, {
    end() {
      ended = true;
      return stream;
    },
  }) as unknown as ServerWritableStream<unknown, Buffer>;
  return {
    call,
    written,
    errors,
    ended: () => ended,
    /** The client reads everything written so far. */
    release: () => {
      for (const callback of held.splice(0)) callback();
    },
  };
}

/** A run of framed one-byte messages `first`, `first + 1`, … (as a read worker's page holds them). */
function run(first: number, count = 1): Buffer {
  const writer = new PageWriter();
  for (let n = first; n < first + count; n++) writer.add(BigInt(n), BigInt(n), Uint8Array.of(n));
  const page = new FramePage(writer.finish());
  return page.frames(0, page.count);
}

describe("CallSink", () => {
  it("holds messages while the stream is full and writes them, in order, once it drains", async () => {
    const slow = slowCall(2);
    const sink = new CallSink(slow.call, 100, { code: Status.DEADLINE_EXCEEDED, details: "lag" }, () => {});
    for (let n = 0; n < 10; n++) sink.write(run(n), 1);
    expect(sink.queued).toBeGreaterThan(0);
    let drained = false;
    const done = sink.drained().then(() => {
      drained = true;
    });
    while (!drained) {
      slow.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    slow.release();
    expect(slow.written.map((b) => b[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sink.queued).toBe(0);
  });

  it("ends a reader that falls further behind than the bound with the given status, dropping the queue", () => {
    const slow = slowCall(1);
    const closed: number[] = [];
    const sink = new CallSink(slow.call, 5, { code: Status.DEADLINE_EXCEEDED, details: "lag" }, (code) =>
      closed.push(code),
    );
    for (let n = 0; n < 20; n++) sink.write(run(n), 1);
    expect(sink.ended).toBe(true);
    expect(sink.queued).toBe(0);
    expect(slow.errors).toEqual([{ code: Status.DEADLINE_EXCEEDED, details: "lag" }]);
    expect(closed).toEqual([Status.DEADLINE_EXCEEDED]);
    // Nothing is taken after the end.
    const before = slow.written.length;
    sink.write(run(99), 1);
    expect(slow.written.length).toBe(before);
  });

  it("counts the messages of queued runs against the bound", async () => {
    const slow = slowCall(1);
    const closed: number[] = [];
    const sink = new CallSink(slow.call, 10, { code: Status.DEADLINE_EXCEEDED, details: "lag" }, (code) =>
      closed.push(code),
    );
    sink.write(run(0, 3), 3);
    sink.write(run(3, 4), 4);
    sink.write(run(7, 4), 4);
    expect(sink.queued).toBe(8);
    expect(sink.ended).toBe(false);
    sink.write(run(11, 3), 3);
    expect(sink.ended).toBe(true);
    expect(closed).toEqual([Status.DEADLINE_EXCEEDED]);
    // Only the first run reached the stream, one message at a time (this call has no HTTP/2 stream to take runs).
    expect(sink.sent).toBe(3);
    slow.release();
    await new Promise((resolve) => setImmediate(resolve));
    slow.release();
    expect(slow.written.map((b) => b[0])).toEqual([0, 1, 2]);
  });

  it("ends OK only after the queued messages are written", async () => {
    const slow = slowCall(1);
    const sink = new CallSink(slow.call, 100, { code: Status.DEADLINE_EXCEEDED, details: "lag" }, () => {});
    for (let n = 0; n < 4; n++) sink.write(run(n), 1);
    sink.end("ok");
    expect(slow.ended()).toBe(false);
    while (!slow.ended()) {
      slow.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(slow.written.map((b) => b[0])).toEqual([0, 1, 2, 3]);
  });
});

/**
 * One server-streaming call as the subscriptions see it: runs of framed messages written in order with
 * back-pressure, a bounded queue of runs waiting for the stream to drain, and exactly one end (OK or an error
 * status).
 *
 * Invariant: `queue` holds runs only while the call's stream is full (`waiting`); the messages in it never exceed
 * `maxQueued` (past that the call ends with `overflow`'s status and the queue is dropped).
 */
import type { ServerWritableStream } from "@grpc/grpc-js";
import { type FrameStream, frameStreamOf } from "./frame-stream.ts";
import { type Refusal, Status } from "./status.ts";

export type CallEnd = "ok" | Refusal;

type Run = { readonly frames: Buffer; readonly count: number };

export class CallSink {
  private readonly queue: Run[] = [];
  private queuedMessages = 0;
  private waiting = false;
  private ending: CallEnd | null = null;
  private drainWaiters: Array<() => void> = [];
  private readonly stream: FrameStream;
  /** True once the call has ended (by us, or cancelled by the client). */
  closed = false;
  /** Messages handed to the stream. */
  sent = 0;

  constructor(
    private readonly call: ServerWritableStream<unknown, Buffer>,
    private readonly maxQueued: number,
    private readonly overflow: Refusal,
    /** Called once when the call ends, however it ends (status code; CANCELLED when the client went away). */
    private readonly onClosed: (code: Status) => void,
    stream: FrameStream = frameStreamOf(call),
  ) {
    this.stream = stream;
    call.on("cancelled", () => this.close(Status.CANCELLED));
    stream.onDrain(() => this.flush());
  }

  /** True once the call has ended or is ending (nothing more may be written). */
  get ended(): boolean {
    return this.closed || this.ending !== null;
  }

  /** Messages waiting in our queue. */
  get queued(): number {
    return this.queuedMessages;
  }

  /** Writes `count` framed messages (one contiguous run), or queues them while the stream is full. */
  write(frames: Buffer, count: number): void {
    if (this.closed || this.ending !== null || count === 0) return;
    if (this.waiting) {
      this.queue.push({ frames, count });
      this.queuedMessages += count;
      if (this.queuedMessages > this.maxQueued) this.end(this.overflow, true);
      return;
    }
    this.sent += count;
    if (!this.stream.write(frames, count)) this.waiting = true;
  }

  private flush(): void {
    this.waiting = false;
    while (this.queue.length > 0 && !this.waiting && !this.closed) {
      const run = this.queue.shift()!;
      this.queuedMessages -= run.count;
      this.sent += run.count;
      if (!this.stream.write(run.frames, run.count)) this.waiting = true;
    }
    if (this.waiting || this.closed) return;
    if (this.ending !== null) {
      this.finish(this.ending);
      return;
    }
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Resolves once our queue is empty and the stream takes more (at once when it already does). */
  drained(): Promise<void> {
    if (!this.waiting && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /**
   * Ends the call with `how` once the queued messages are written (OK), or at once dropping them (`dropQueued`,
   * for a status that is not OK when the queue itself is the problem). Idempotent: the first end wins.
   */
  end(how: CallEnd, dropQueued = false): void {
    if (this.closed || this.ending !== null) return;
    this.ending = how;
    if (dropQueued) this.dropQueue();
    if (this.queue.length === 0) this.finish(how);
  }

  private dropQueue(): void {
    this.queue.length = 0;
    this.queuedMessages = 0;
  }

  private finish(how: CallEnd): void {
    if (this.closed) return;
    this.close(how === "ok" ? Status.OK : how.code);
    if (how === "ok") this.call.end();
    // grpc-js sends this status after the messages its stream still holds.
    else this.call.emit("error", { code: how.code, details: how.details });
  }

  private close(code: Status): void {
    if (this.closed) return;
    this.closed = true;
    this.dropQueue();
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
    this.onClosed(code);
  }
}

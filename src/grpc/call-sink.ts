/**
 * One server-streaming call as the subscriptions see it: messages written in order with back-pressure, a bounded
 * queue of messages waiting for the stream to drain, and exactly one end (OK or an error status).
 *
 * Invariant: `queue` holds messages only while the call's stream is full (`waiting`); it never exceeds
 * `maxQueued` (past that the call ends with `onOverflow`'s status and the queue is dropped).
 */
import type { ServerWritableStream } from "@grpc/grpc-js";
import { type Refusal, Status } from "./status.ts";

export type CallEnd = "ok" | Refusal;

export class CallSink {
  private readonly queue: Buffer[] = [];
  private waiting = false;
  private ending: CallEnd | null = null;
  private drainWaiters: Array<() => void> = [];
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
  ) {
    call.on("cancelled", () => this.close(Status.CANCELLED));
    call.on("drain", () => this.flush());
  }

  /** True once the call has ended or is ending (nothing more may be written). */
  get ended(): boolean {
    return this.closed || this.ending !== null;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Whether no message waits in our queue (the stream's own buffer may still hold some). */
  get idle(): boolean {
    return this.queue.length === 0;
  }

  write(message: Buffer): void {
    if (this.closed || this.ending !== null) return;
    if (this.waiting) {
      this.queue.push(message);
      if (this.queue.length > this.maxQueued) this.end(this.overflow, true);
      return;
    }
    this.sent += 1;
    if (!this.call.write(message)) this.waiting = true;
  }

  private flush(): void {
    this.waiting = false;
    while (this.queue.length > 0 && !this.waiting && !this.closed) {
      const message = this.queue.shift()!;
      this.sent += 1;
      if (!this.call.write(message)) this.waiting = true;
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
    if (dropQueued) this.queue.length = 0;
    if (this.queue.length === 0) this.finish(how);
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
    this.queue.length = 0;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
    this.onClosed(code);
  }
}

import { Status } from "./status.ts";

/** How many of the latest live fan-out times the quantiles cover. */
const FANOUT_SAMPLES = 1024;

/** What the gRPC API counts for `/metrics` and readiness; the server owns one and its parts update it. */
export class GrpcStats {
  /** Open `subscribeTopic` calls. */
  subscribers = 0;
  /** Of those, the ones past their historical phase, waiting for new messages. */
  liveSubscribers = 0;
  /** Reads of a live topic after a commit named it (one serves every live subscription of the topic). */
  liveReads = 0;
  /** Messages handed to calls (topic messages and address book nodes). */
  messagesSent = 0;
  /** Calls ended, by status name (CANCELLED: the client went away). */
  readonly callsEnded = new Map<string, number>();
  /** The latest live fan-out times (ms), a ring of at most `FANOUT_SAMPLES`. */
  private readonly fanouts: number[] = [];
  private nextFanout = 0;

  /**
   * One live fan-out: from a commit notice naming a topic to its first new message handed to the stream of every
   * live subscription of the topic (the server's share of a live message's latency; the network and the client
   * come after).
   */
  fanout(ms: number): void {
    if (this.fanouts.length < FANOUT_SAMPLES) this.fanouts.push(ms);
    else this.fanouts[this.nextFanout] = ms;
    this.nextFanout = (this.nextFanout + 1) % FANOUT_SAMPLES;
  }

  /** The `q` quantile (0–1) of the latest live fan-out times, in ms (NaN before any). */
  fanoutQuantile(q: number): number {
    if (this.fanouts.length === 0) return Number.NaN;
    const sorted = [...this.fanouts].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  }

  ended(code: Status): void {
    const name = Status[code] ?? String(code);
    this.callsEnded.set(name, (this.callsEnded.get(name) ?? 0) + 1);
  }

  /** Calls that ended with an error status (neither OK nor the client's own cancel). */
  get streamErrors(): number {
    let errors = 0;
    for (const [name, count] of this.callsEnded) if (name !== "OK" && name !== "CANCELLED") errors += count;
    return errors;
  }
}

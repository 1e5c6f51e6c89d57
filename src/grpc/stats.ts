import { Status } from "./status.ts";

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

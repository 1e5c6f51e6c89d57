/**
 * ED25519 signing on a second thread, for bulk streams: signing a few hundred thousand bodies is the
 * largest single cost, and it does not depend on the ledger. The caller submits one file's bodies, goes
 * on building the next file, and collects the signatures synchronously (`Atomics.wait` on a shared
 * counter), so the generator keeps a plain synchronous API.
 *
 * The worker is inline JavaScript (no TypeScript loader needed) that only calls `node:crypto`. ED25519
 * signatures are deterministic, so the bytes are the same as signing on the main thread.
 */
import type { KeyObject } from "node:crypto";
import { Worker } from "node:worker_threads";

const SIGNATURE_LENGTH = 64;
/** Control slots: 0 = last batch signed, 1 = set to 1 when the worker failed. */
const DONE = 0;
const FAILED = 1;
const WAIT_LIMIT_MS = 120_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { sign } = require("node:crypto");
const control = new Int32Array(workerData.control);
const keys = new Map();
parentPort.on("message", (message) => {
  try {
    if (message.type === "key") {
      keys.set(message.id, message.key);
      return;
    }
    const out = new Uint8Array(message.result);
    for (let i = 0; i < message.bodies.length; i++) {
      out.set(sign(null, message.bodies[i], keys.get(message.keyIds[i])), i * ${SIGNATURE_LENGTH});
    }
    Atomics.store(control, ${DONE}, message.batch);
  } catch (error) {
    Atomics.store(control, ${FAILED}, 1);
    parentPort.postMessage(String(error && error.stack || error));
  }
  Atomics.notify(control, ${DONE});
});
`;

export class ParallelSigner {
  private readonly worker: Worker;
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private readonly registered = new Set<number>();
  private readonly results = new Map<number, { buffer: SharedArrayBuffer; count: number }>();
  private nextBatch = 1;

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { control: this.control.buffer } });
    // The worker must never keep the process alive.
    this.worker.unref();
  }

  /** Sends a private key to the worker once, under `id`. */
  register(id: number, key: KeyObject): void {
    if (this.registered.has(id)) return;
    this.registered.add(id);
    this.worker.postMessage({ type: "key", id, key });
  }

  /** Queues bodies to sign with registered keys; returns a batch number for `collect`. */
  submit(keyIds: number[], bodies: Uint8Array[]): number {
    const batch = this.nextBatch++;
    const buffer = new SharedArrayBuffer(SIGNATURE_LENGTH * Math.max(1, bodies.length));
    this.results.set(batch, { buffer, count: bodies.length });
    this.worker.postMessage({ type: "sign", batch, keyIds, bodies, result: buffer });
    return batch;
  }

  /** Waits for a batch (batches finish in order) and returns its signatures. */
  collect(batch: number): Uint8Array[] {
    const started = Date.now();
    for (;;) {
      if (Atomics.load(this.control, FAILED) !== 0) throw new Error("the signing worker failed");
      const done = Atomics.load(this.control, DONE);
      if (done >= batch) break;
      if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`signing batch ${batch} timed out`);
      Atomics.wait(this.control, DONE, done, 1000);
    }
    const result = this.results.get(batch);
    if (result === undefined) throw new Error(`unknown signing batch ${batch}`);
    this.results.delete(batch);
    return Array.from(
      { length: result.count },
      (_, i) => new Uint8Array(result.buffer, i * SIGNATURE_LENGTH, SIGNATURE_LENGTH),
    );
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

import type { IncomingMessage } from "node:http";

/** The request body exceeds the limit; nothing beyond the limit was read. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

/** Bodies being read or held across all connections would pass the front's total: the request is refused. */
export class BodyBudgetError extends Error {
  override readonly name = "BodyBudgetError";
}

/** The bytes of request bodies the front holds at once, across connections (`held` changes as they come and go). */
export type BodyBudget = { limitBytes: number; held: number };

/**
 * 16 MiB: 128 bodies of the largest accepted size (128 KiB) at once, far more than two read workers can answer
 * meanwhile; past it a POST answers 503 at once rather than the front holding ever more memory.
 */
export const FRONT_BODY_BUDGET: BodyBudget = { limitBytes: 16 * 1024 * 1024, held: 0 };

/**
 * Reads a request body of at most `limitBytes`, counted against `budget` (the front's total across connections)
 * from its first byte (its declared length, when it declares one) until the request is closed. A declared `Content-Length` over the limit fails before any byte
 * is read; a chunked body fails as soon as the running total passes it, so an oversized upload is never held
 * whole. The caller answers 413 with `Connection: close`, which drops the rest.
 */
export function readBody(
  req: IncomingMessage,
  limitBytes: number,
  budget: BodyBudget = FRONT_BODY_BUDGET,
): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(new BodyTooLargeError());
  let reserved = 0;
  /** Counts `bytes` more against the budget; false (nothing counted) when they do not fit. */
  const reserve = (bytes: number): boolean => {
    if (bytes <= 0) return true;
    if (budget.held + bytes > budget.limitBytes) return false;
    budget.held += bytes;
    reserved += bytes;
    return true;
  };
  const release = () => {
    budget.held -= reserved;
    reserved = 0;
  };
  req.once("close", release);
  if (Number.isFinite(declared) && !reserve(declared)) return Promise.reject(new BodyBudgetError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes || !reserve(size - reserved)) {
        cleanup();
        req.pause();
        reject(size > limitBytes ? new BodyTooLargeError() : new BodyBudgetError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * POST bodies are bounded per request and in total across connections: past the front's budget a body is
 * refused at once (its declared length counts from the start), and what a closed request held is given back.
 */
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { type BodyBudget, BodyBudgetError, BodyTooLargeError, readBody } from "../../src/api/read-body.ts";

/** A request stream with the given headers (what readBody reads of an IncomingMessage). */
function request(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

describe("request bodies held by the front", () => {
  it("are refused past the total across connections, and given back when a request closes", async () => {
    const budget: BodyBudget = { limitBytes: 1000, held: 0 };
    const first = request({ "content-length": "600" });
    const firstBody = readBody(first, 800, budget);
    expect(budget.held).toBe(600);
    // A second declared body does not fit beside the first: refused before a byte is read.
    await expect(readBody(request({ "content-length": "600" }), 800, budget)).rejects.toBeInstanceOf(
      BodyBudgetError,
    );
    // A chunked one (no declared length) is counted as it comes, and refused once it would not fit.
    const chunked = request();
    const chunkedBody = readBody(chunked, 800, budget);
    chunked.write(Buffer.alloc(300));
    chunked.write(Buffer.alloc(300));
    await expect(chunkedBody).rejects.toBeInstanceOf(BodyBudgetError);
    chunked.destroy();
    first.end(Buffer.alloc(600));
    expect((await firstBody).length).toBe(600);
    first.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(budget.held).toBe(0);
    // Room again.
    const third = request({ "content-length": "600" });
    const thirdBody = readBody(third, 800, budget);
    third.end(Buffer.alloc(600));
    expect((await thirdBody).length).toBe(600);
  });

  it("still refuses one body over the per-request limit", async () => {
    const budget: BodyBudget = { limitBytes: 10_000, held: 0 };
    await expect(readBody(request({ "content-length": "900" }), 800, budget)).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect(budget.held).toBe(0);
  });
});

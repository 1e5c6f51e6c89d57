/**
 * The response cache is bounded by bytes, not by a count of answers: many small answers are all kept while they
 * fit, large ones evict the least recently used, and the counted bytes never pass the bound.
 */
import { describe, expect, it } from "vitest";
import { createResponseCache, keptBytes, renderResponse } from "../../src/api/cache.ts";

const answer = (bytes: number, tag: number) =>
  renderResponse(
    200,
    `{"n":${tag},"pad":"${"x".repeat(Math.max(0, bytes - 20))}"}`,
    "public, max-age=10",
    null,
  );

/** Offers an answer twice (the cache keeps a URL from its second time) and says whether it was kept. */
function keep(
  cache: ReturnType<typeof createResponseCache>,
  key: string,
  bytes: number,
  tag: number,
): boolean {
  const response = answer(bytes, tag);
  cache.offer(key, response, 1, 0, 0);
  return cache.offer(key, response, 1, 0, 0);
}

describe("response cache bounded by bytes", () => {
  it("keeps 20,000 small answers when they fit (more than the former 10,000-entry cap)", () => {
    const cache = createResponseCache({ maxBytes: 64 * 1024 * 1024 });
    for (let i = 0; i < 20_000; i++) keep(cache, `/api/v1/tokens/0.0.${i}`, 300, i);
    expect(cache.size).toBe(20_000);
    expect(cache.get("/api/v1/tokens/0.0.0", 1, 0)?.body).toContain('"n":0,');
    expect(cache.get("/api/v1/tokens/0.0.19999", 1, 0)?.body).toContain('"n":19999,');
  });

  it("never counts more bytes than its bound, evicting the least recently used", () => {
    const bound = 1024 * 1024;
    const cache = createResponseCache({ maxBytes: bound });
    const each = keptBytes("/api/v1/transactions?limit=100&n=0000", answer(20_000, 0));
    for (let i = 0; i < 200; i++) {
      // The first page is asked again and again: it stays.
      cache.get("/api/v1/transactions?limit=100&n=0000", 1, 0);
      keep(cache, `/api/v1/transactions?limit=100&n=${String(i).padStart(4, "0")}`, 20_000, i);
      expect(cache.bytes).toBeLessThanOrEqual(bound);
    }
    expect(cache.size).toBe(Math.floor(bound / each));
    expect(cache.get("/api/v1/transactions?limit=100&n=0000", 1, 0)).toBeDefined();
    expect(cache.get("/api/v1/transactions?limit=100&n=0001", 1, 0)).toBeUndefined();
    expect(cache.get("/api/v1/transactions?limit=100&n=0199", 1, 0)).toBeDefined();
  });

  it("does not keep an answer larger than the whole bound", () => {
    const cache = createResponseCache({ maxBytes: 64 * 1024 });
    expect(keep(cache, "/big", 100_000, 1)).toBe(false);
    expect(cache.get("/big", 1, 0)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});

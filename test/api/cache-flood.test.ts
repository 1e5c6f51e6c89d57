/**
 * A flood of distinct URLs must not grow the process: the response cache keeps answers within its byte bound,
 * and what it remembers of URLs asked once (to keep an answer from the second time) costs a few bytes each,
 * however long the URL. The Java-style routes ignore unknown parameters, so padded URLs all answer 200.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureStream } from "../helpers/fixtures.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

// A full collection before each heap reading, so that the figures count only what is still referenced.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const heapUsedMb = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / (1024 * 1024);
};

/** Answers the response cache gave so far (from `/metrics`). */
async function cacheHits(): Promise<number> {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const line = text
    .split("\n")
    .find((l) => l.startsWith('mirrorlite_http_cache_requests_total{result="hit"}'));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}

let service: TestService;

describe("a flood of distinct padded URLs", () => {
  beforeAll(async () => {
    service = await startTestService({ recordsDir: fixtureStream("network") });
    await service.ingest.settled;
  });
  afterAll(() => service?.stop());

  it("leaves the heap as it was, and URLs asked again are still answered from the cache", async () => {
    const pad = "p".repeat(7000);
    const url = (i: number) => `${service.baseUrl}/api/v1/network/stake?pad=${pad}${i}`;
    // Warm up the paths the flood takes (first requests compile code and fill statement caches).
    for (let i = 0; i < 200; i++) expect((await fetch(url(-i - 1))).status).toBe(200);
    const before = heapUsedMb();
    const requests = 3000;
    for (let from = 0; from < requests; from += 25) {
      await Promise.all(
        Array.from({ length: 25 }, async (_, k) => {
          const response = await fetch(url(from + k));
          expect(response.status).toBe(200);
          await response.arrayBuffer();
        }),
      );
    }
    const grown = heapUsedMb() - before;
    // 3,000 URLs of 7 KB are 21 MB of text: none of it may stay.
    expect(grown).toBeLessThan(6);

    // The cache still works: an answer is kept the second time its URL is computed, then served from there.
    const hitsBefore = await cacheHits();
    const again = url(requests + 1);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await (await fetch(again)).text());
    expect(new Set(answers).size).toBe(1);
    expect((await cacheHits()) - hitsBefore).toBe(1);
  }, 120_000);
});

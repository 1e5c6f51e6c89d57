/**
 * The read-worker pool in the running service: a query held open on purpose (test-only routes, loaded through
 * `routeModules`) never keeps liveness, readiness, metrics or cache hits waiting; past `--query-timeout-ms` the
 * client gets the mirror node's answer to a statement timeout, the metric counts it, and a new worker answers
 * the next request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { HOLD_ROUTES_URL } from "../helpers/hold-routes.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { copyStream, startTestService, type TestService } from "../helpers/service.ts";

const ledger = expectedLedger("tokens");
const tokenId = Object.values(ledger.tokens)[0]!.id;

/** Starts the service on a copy of the tokens scenario with the hold routes and the given pool settings. */
function useService(settings: { readWorkers: number; queryTimeoutMs: number }) {
  let service: TestService | undefined;
  let remove: (() => void) | undefined;
  beforeAll(async () => {
    const stream = copyStream(fixtureStream("tokens"));
    remove = stream.remove;
    service = await startTestService(
      { recordsDir: stream.dir, ...settings },
      { routeModules: [HOLD_ROUTES_URL] },
    );
    await service.ingest.settled;
  });
  afterAll(async () => {
    await service?.stop();
    remove?.();
  });
  return () => service!;
}

/** A GET asked again while it answers 503 (a replacement worker still starting), at most 20 times. */
async function answeredEventually(url: string) {
  let answer = await timed(url);
  for (let tries = 1; answer.status === 503 && tries < 20; tries++) answer = await timed(url);
  return answer;
}

/** Milliseconds a GET takes, with its status. */
async function timed(url: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await rawRequest(url, { headers, timeoutMs: 30_000 });
  return { ...response, ms: performance.now() - started };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value of a metric without labels in a Prometheus text exposition. */
function metric(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no metric ${name}`);
  return Number(line.split(" ")[1]);
}

describe("a query held open on one read worker", () => {
  const service = useService({ readWorkers: 1, queryTimeoutMs: 20_000 });

  it("keeps neither liveness, readiness, metrics nor cache hits waiting, and queues the next miss", async () => {
    const base = service().baseUrl;
    const cached = `${base}/api/v1/tokens/${tokenId}`;
    // Kept from the second time it is computed.
    expect((await timed(cached)).status).toBe(200);
    expect((await timed(cached)).status).toBe(200);

    let holding = true;
    const held = timed(`${base}/api/v1/test/hold/3000`).finally(() => {
      holding = false;
    });
    await sleep(200);
    const missed = timed(`${base}/api/v1/tokens/${tokenId}?timestamp=9999999999`);
    const probes = [
      `${base}/health/liveness`,
      `${base}/health/readiness`,
      `${base}/metrics`,
      cached,
      `${base}/health/liveness`,
      `${base}/health/liveness`,
      `${base}/health/liveness`,
    ];
    const during = [];
    for (const url of probes) {
      const answer = await timed(url);
      // Answered while the query is still held: nothing waited for it.
      expect(holding, url).toBe(true);
      during.push(answer);
    }
    // Every probe answered while the only worker was held (checked above, an event, not a duration: how fast a
    // loaded machine answers belongs to the bench).
    for (const answer of during) expect(answer.status).toBe(200);
    expect(metric(during[2]!.body, "mirrorlite_read_workers_busy")).toBe(1);
    const done = await held;
    expect(done.status).toBe(200);
    expect(JSON.parse(done.body)).toEqual({ held: 3000, spins: true });
    // The miss waited for the only worker, then got its answer.
    const answered = await missed;
    expect(answered.status).toBe(200);
    expect(answered.ms).toBeGreaterThan(done.ms - 400);
  });
});

describe("a route whose parse returns what could not travel between threads", () => {
  const service = useService({ readWorkers: 1, queryTimeoutMs: 20_000 });

  it("is answered: the read worker parses the URL itself, so no parsed query crosses threads", async () => {
    const base = service().baseUrl;
    const answer = await timed(`${base}/api/v1/test/uncloneable`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ reached: true });
    expect((await timed(`${base}/api/v1/tokens/${tokenId}`)).status).toBe(200);
  });
});

describe("a query past --query-timeout-ms", () => {
  // A replacement worker may take longer than this to start on a loaded machine: requests right after a
  // replacement are asked until one is answered (what is asserted is that one is, not how soon).
  const service = useService({ readWorkers: 1, queryTimeoutMs: 1500 });

  it("answers 503 Service unavailable, counts it, and a new worker answers the next request", async () => {
    const base = service().baseUrl;
    const held = timed(`${base}/api/v1/test/hold/60000`);
    await sleep(100);
    const live = [];
    for (let i = 0; i < 3; i++) live.push(await timed(`${base}/health/liveness`));
    for (const answer of live) expect(answer.status).toBe(200);

    const answer = await held;
    expect(answer.status).toBe(503);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(answer.body)).toEqual({ _status: { messages: [{ message: "Service unavailable" }] } });
    // Not before the deadline (how long after it depends on the machine's load).
    expect(answer.ms).toBeGreaterThanOrEqual(1450);

    expect((await answeredEventually(`${base}/api/v1/tokens/${tokenId}`)).status).toBe(200);
    const metrics = (await timed(`${base}/metrics`)).body;
    expect(metric(metrics, "mirrorlite_read_timeouts_total")).toBeGreaterThanOrEqual(1);
    expect(metric(metrics, "mirrorlite_read_worker_restarts_total")).toBe(1);
    expect(metric(metrics, "mirrorlite_read_workers")).toBe(1);
  });

  it("answers a Java-style route's timeout as the Java service does: 503 Service Unavailable", async () => {
    const answer = await timed(`${service().baseUrl}/api/v1/network/test-hold/60000`);
    expect(answer.status).toBe(503);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual({ _status: { messages: [{ message: "Service Unavailable" }] } });
  });

  it("replaces a worker stuck inside SQLite at once; liveness never waits while the old thread finishes", async () => {
    const base = service().baseUrl;
    // Counting in SQLite itself never returns to JavaScript, so the old thread ends only when it is done.
    const spin = timed(`${base}/api/v1/test/spin/100000000`);
    await sleep(100);
    const live: number[] = [];
    for (let i = 0; i < 3; i++) {
      live.push((await timed(`${base}/health/liveness`)).ms);
      await sleep(100);
    }
    expect(live).toHaveLength(3);
    expect((await spin).status).toBe(503);
    // The replacement answers while the old thread may still be counting.
    const next = await answeredEventually(`${base}/api/v1/tokens/${tokenId}?timestamp=1`);
    expect([200, 404]).toContain(next.status);
    const metrics = (await timed(`${base}/metrics`)).body;
    expect(metric(metrics, "mirrorlite_read_timeouts_total")).toBeGreaterThanOrEqual(3);
  });

  it("answers a query that waited past the deadline for a busy worker 503 too, without replacing another", async () => {
    const base = service().baseUrl;
    const before = (await timed(`${base}/metrics`)).body;
    // Nine queries of 0.7 s each on the one worker: each runs within the deadline once its turn comes, but the
    // worker holds eight at a time and the ninth waits in the queue longer than the deadline.
    const answers = await Promise.all(Array.from({ length: 9 }, () => timed(`${base}/api/v1/test/hold/700`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    const after = (await timed(`${base}/metrics`)).body;
    expect(metric(after, "mirrorlite_read_worker_restarts_total")).toBe(
      metric(before, "mirrorlite_read_worker_restarts_total"),
    );
    expect(
      metric(after, "mirrorlite_read_timeouts_total") - metric(before, "mirrorlite_read_timeouts_total"),
    ).toBe(refused.length);
  });
});

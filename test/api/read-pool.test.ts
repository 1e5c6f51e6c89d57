/**
 * The read-worker pool in the running service: a query held open on purpose (test-only routes, loaded through
 * `routeModules`) never keeps liveness, readiness, metrics or cache hits waiting; past `--query-timeout-ms` the
 * client gets the mirror node's answer to a statement timeout, the metric counts it, and a new worker answers
 * the next request.
 *
 * Nothing here depends on how fast the machine is: a held query lasts until the test releases it (`heldQuery`),
 * and the pool measures deadlines on a clock the test moves on (`readClock`).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ReadPoolStats } from "../../src/api/read-pool.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { type HeldQuery, HOLD_ROUTES_URL, heldQuery } from "../helpers/hold-routes.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { copyStream, startTestService, type TestService } from "../helpers/service.ts";

const ledger = expectedLedger("tokens");
const tokenId = Object.values(ledger.tokens)[0]!.id;

/**
 * Starts the service on a copy of the tokens scenario with the hold routes and the given pool settings; the pool's
 * deadlines run on the returned clock, which only the test moves.
 */
function useService(settings: { readWorkers: number; queryTimeoutMs: number }) {
  let service: TestService | undefined;
  let remove: (() => void) | undefined;
  const clock = { ms: 1_000_000 };
  beforeAll(async () => {
    const stream = copyStream(fixtureStream("tokens"));
    remove = stream.remove;
    service = await startTestService(
      { recordsDir: stream.dir, ...settings },
      { routeModules: [HOLD_ROUTES_URL], readClock: () => clock.ms },
    );
    await service.ingest.settled;
  });
  afterAll(async () => {
    await service?.stop();
    remove?.();
  });
  return { service: () => service!, clock };
}

const holds: HeldQuery[] = [];
afterEach(() => {
  for (const hold of holds.splice(0)) hold.dispose();
});

/** A query held on a read worker until released; released at the latest when the test ends. */
function hold(): HeldQuery {
  const held = heldQuery();
  holds.push(held);
  return held;
}

/** A GET that remembers when it settled. */
function asked(url: string, headers: Record<string, string> = {}) {
  const state = { settled: false };
  const answer = rawRequest(url, { headers, timeoutMs: 60_000 }).finally(() => {
    state.settled = true;
  });
  return {
    answer,
    get settled() {
      return state.settled;
    },
  };
}

/** Waits until the pool's counts say `reached` (requests reach the pool as the front reads them). */
async function poolUntil(service: TestService, reached: (stats: ReadPoolStats) => boolean): Promise<void> {
  while (!reached(service.reads.stats())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The value of a metric without labels in a Prometheus text exposition. */
function metric(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no metric ${name}`);
  return Number(line.split(" ")[1]);
}

describe("one read worker, far from its deadline", () => {
  const { service } = useService({ readWorkers: 1, queryTimeoutMs: 20_000 });

  describe("a query held open on it", () => {
    it("keeps neither liveness, readiness, metrics nor cache hits waiting, and queues the next miss", async () => {
      const base = service().baseUrl;
      const cached = `${base}/api/v1/tokens/${tokenId}`;
      // Kept from the second time it is computed.
      expect((await rawRequest(cached)).status).toBe(200);
      expect((await rawRequest(cached)).status).toBe(200);

      const query = hold();
      const held = asked(base + query.path);
      await query.started();
      const missed = asked(`${base}/api/v1/tokens/${tokenId}?timestamp=9999999999`);
      const probes = [
        `${base}/health/liveness`,
        `${base}/health/readiness`,
        `${base}/metrics`,
        cached,
        `${base}/health/liveness`,
      ];
      const during = [];
      for (const url of probes) during.push(await rawRequest(url));
      // Every probe was answered while the only worker was held (the test has not released it yet).
      expect(held.settled).toBe(false);
      for (const answer of during) expect(answer.status).toBe(200);
      expect(metric(during[2]!.body, "mirrorlite_read_workers_busy")).toBe(1);
      // The miss waits for the only worker.
      expect(missed.settled).toBe(false);
      query.release();
      const done = await held.answer;
      expect(done.status).toBe(200);
      expect(JSON.parse(done.body)).toEqual({ released: true });
      // Then it gets its answer.
      expect((await missed.answer).status).toBe(200);
    });
  });

  describe("a route whose parse returns what could not travel between threads", () => {
    it("is answered: the read worker parses the URL itself, so no parsed query crosses threads", async () => {
      const base = service().baseUrl;
      const answer = await rawRequest(`${base}/api/v1/test/uncloneable`);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ reached: true });
      expect((await rawRequest(`${base}/api/v1/tokens/${tokenId}`)).status).toBe(200);
    });
  });
});

describe("a query past --query-timeout-ms", () => {
  const TIMEOUT_MS = 1500;
  const { service, clock } = useService({ readWorkers: 1, queryTimeoutMs: TIMEOUT_MS });

  it("answers 503 Service unavailable, counts it, and a new worker answers the next request", async () => {
    const base = service().baseUrl;
    const query = hold();
    const held = asked(base + query.path);
    await query.started();
    const live = [];
    for (let i = 0; i < 3; i++) live.push(await rawRequest(`${base}/health/liveness`));
    for (const answer of live) expect(answer.status).toBe(200);

    // Not before the deadline: just short of it, sweeps (every 150 ms) leave the query running.
    clock.ms += TIMEOUT_MS - 1;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(held.settled).toBe(false);
    expect(service().reads.stats().timeouts).toBe(0);
    clock.ms += 2;
    const answer = await held.answer;
    expect(answer.status).toBe(503);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(answer.body)).toEqual({ _status: { messages: [{ message: "Service unavailable" }] } });

    // The replacement worker answers (a request waits for it while it starts: the clock stands still).
    expect((await rawRequest(`${base}/api/v1/tokens/${tokenId}`)).status).toBe(200);
    const metrics = (await rawRequest(`${base}/metrics`)).body;
    expect(metric(metrics, "mirrorlite_read_timeouts_total")).toBe(1);
    expect(metric(metrics, "mirrorlite_read_worker_restarts_total")).toBe(1);
    expect(metric(metrics, "mirrorlite_read_workers")).toBe(1);
  });

  it("answers a Java-style route's timeout as the Java service does: 503 Service Unavailable", async () => {
    const query = hold();
    const held = asked(service().baseUrl + query.javaPath);
    await query.started();
    clock.ms += TIMEOUT_MS;
    const answer = await held.answer;
    expect(answer.status).toBe(503);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual({ _status: { messages: [{ message: "Service Unavailable" }] } });
  });

  it("replaces a worker stuck inside SQLite at once; liveness never waits while the old thread finishes", async () => {
    const base = service().baseUrl;
    const before = (await rawRequest(`${base}/metrics`)).body;
    // Counting in SQLite itself never returns to JavaScript, so the old thread ends only when it is done.
    // The threads of earlier timeouts have ended (a replacement is owed, not started, while as many old threads
    // as the pool has workers are still ending).
    await poolUntil(service(), (stats) => stats.retiring === 0);
    const spin = asked(`${base}/api/v1/test/spin/100000000`);
    await poolUntil(service(), (stats) => stats.busy === 1);
    clock.ms += TIMEOUT_MS;
    expect((await spin.answer).status).toBe(503);
    // Replaced at once: a new worker is starting while the old thread is still counting.
    expect(service().reads.stats()).toMatchObject({ workers: 1, retiring: 1 });
    for (let i = 0; i < 3; i++) expect((await rawRequest(`${base}/health/liveness`)).status).toBe(200);
    // The replacement answers while the old thread may still be counting.
    const next = await rawRequest(`${base}/api/v1/tokens/${tokenId}?timestamp=1`);
    expect([200, 404]).toContain(next.status);
    const after = (await rawRequest(`${base}/metrics`)).body;
    expect(
      metric(after, "mirrorlite_read_worker_restarts_total") -
        metric(before, "mirrorlite_read_worker_restarts_total"),
    ).toBe(1);
    expect(metric(after, "mirrorlite_read_workers")).toBe(1);
  });

  it("answers a query that waited past the deadline for a busy worker 503 too, without replacing another", async () => {
    const base = service().baseUrl;
    const before = (await rawRequest(`${base}/metrics`)).body;
    // Nine queries on the one worker, which holds eight at a time: each runs within the deadline once its turn
    // comes, but those still waiting when the clock passes the deadline of their wait are refused.
    const queries = Array.from({ length: 9 }, () => hold());
    const asks = queries.map((query) => asked(base + query.path));
    // All nine reached the pool before its clock moves: eight in the worker's hands, the ninth in the queue.
    await poolUntil(service(), (stats) => stats.queued === 1);
    await queries[0]!.started();
    clock.ms += 1000;
    queries[0]!.release();
    expect((await asks[0]!.answer).status).toBe(200);
    // The second runs from here: 1000 ms later it is within its deadline, the seven behind it have waited 2000.
    await queries[1]!.started();
    clock.ms += 1000;
    const refused = await Promise.all(asks.slice(2).map((ask) => ask.answer));
    expect(refused.map((answer) => answer.status)).toEqual(Array(7).fill(503));
    expect(asks[1]!.settled).toBe(false);
    for (const query of queries) query.release();
    expect((await asks[1]!.answer).status).toBe(200);
    const after = (await rawRequest(`${base}/metrics`)).body;
    expect(metric(after, "mirrorlite_read_worker_restarts_total")).toBe(
      metric(before, "mirrorlite_read_worker_restarts_total"),
    );
    expect(
      metric(after, "mirrorlite_read_timeouts_total") - metric(before, "mirrorlite_read_timeouts_total"),
    ).toBe(7);
  });
});

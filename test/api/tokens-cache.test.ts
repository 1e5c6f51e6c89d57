import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResponseCache } from "../../src/api/cache.ts";
import { createFront, type RequestObservation } from "../../src/api/front.ts";
import { HttpError } from "../../src/api/http-errors.ts";
import { javaBadRequest } from "../../src/api/java/index.ts";
import {
  definePost,
  defineRoute,
  javaAnswer,
  jsonAnswer,
  type RouteDef,
} from "../../src/api/routes/route-table.ts";
import { listen } from "../../src/api/server.ts";
import { parseCommand } from "../../src/cli/args.ts";
import { type RunningService, startService } from "../../src/cli/serve.ts";
import { createLogger } from "../../src/log.ts";
import type { ReadStore } from "../../src/store/read-store.ts";
import { copyScenarioBlocks, type ExpectedLedger, expectedLedger } from "../helpers/fixtures.ts";
import { inThreadReads } from "../helpers/in-thread-reads.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";

const SCENARIO = "tokens-group-nfts";
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("the front and its response cache on their own", () => {
  let server: Server;
  let base: string;
  let clock = 0;
  let generation = 1;
  let computed = 0;
  let failing: "no" | "parameter" | "crash" = "no";
  const logged: string[] = [];
  const observed: RequestObservation[] = [];
  // Room for two of these answers (750 to 914 bytes each as `keptBytes` counts them), not three.
  const cache = createResponseCache({ maxBytes: 2000 });

  beforeAll(async () => {
    const log = pino({ level: "error" }, { write: (line: string) => logged.push(line) });
    const routes: RouteDef[] = [
      defineRoute({
        template: "/api/v1/things",
        caching: "stale-ok",
        maxAge: 10,
        parse: () => {
          if (failing === "parameter") throw new HttpError(400, ["Invalid parameter: limit"]);
          return null;
        },
        answer: () => {
          if (failing === "crash") throw new TypeError("a bug");
          computed++;
          return jsonAnswer({
            n: computed,
            links: { next: computed % 2 === 0 ? "/api/v1/things?x=1" : null },
          });
        },
      }),
      defineRoute({
        template: "/api/v1/things/{id}",
        caching: "exact",
        maxAge: 5,
        parse: ({ params }) => params.id,
        answer: (_store, id) => jsonAnswer({ id, n: ++computed }),
      }),
    ];
    const fallback = express();
    fallback.get("/other", (_req, res) => {
      res.json({ express: true });
    });
    const listener = createFront({
      routes,
      // These routes read no index.
      reads: inThreadReads(routes, {} as ReadStore),
      cache,
      generation: () => generation,
      listStaleMs: 1000,
      fallback,
      log,
      now: () => clock,
      observe: (o) => observed.push(o),
    });
    ({ server } = await listen(listener, "127.0.0.1", 0));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  });

  const fetchThing = async (query = "", headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/api/v1/things${query}`, { headers });
    return { response, text: await response.text() };
  };

  it("keeps a page asked twice and serves it from memory for as long as nothing new is indexed", async () => {
    const first = await fetchThing();
    expect(JSON.parse(first.text)).toEqual({ n: 1, links: { next: null } });
    // A URL asked once is not kept; the second time it is.
    const second = await fetchThing();
    expect(JSON.parse(second.text)).toEqual({ n: 2, links: { next: "/api/v1/things?x=1" } });
    clock += 60_000;
    const later = await fetchThing();
    expect(later.text).toBe(second.text);
    expect(computed).toBe(2);
    expect(later.response.headers.get("cache-control")).toBe("public, max-age=10");
    expect(later.response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(later.response.headers.get("access-control-allow-origin")).toBe("*");
    expect(later.response.headers.get("etag")).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
  });

  it("keeps a list page at most the staleness bound once something new is indexed, an exact answer not at all", async () => {
    await fetchThing("?p=1");
    const before = await fetchThing("?p=1");
    const n = JSON.parse(before.text).n as number;
    await fetchThing("/7");
    const exact = JSON.parse((await fetchThing("/7")).text) as { id: string; n: number };
    expect(exact.id).toBe("7");
    expect(JSON.parse((await fetchThing("/7")).text).n).toBe(exact.n);
    generation++;
    clock += 999;
    expect(JSON.parse((await fetchThing("?p=1")).text).n).toBe(n);
    expect(JSON.parse((await fetchThing("/7")).text).n).toBeGreaterThan(exact.n);
    clock += 1;
    const fresh = await fetchThing("?p=1");
    expect(JSON.parse(fresh.text).n).toBeGreaterThan(n);
    // Each page carries its own link header.
    for (const page of [before, fresh]) {
      const count = JSON.parse(page.text).n as number;
      expect(page.response.headers.get("link")).toBe(
        count % 2 === 0 ? '</api/v1/things?x=1>; rel="next"' : null,
      );
    }
  });

  it("answers If-None-Match with 304 and HEAD without a body, never caches errors, and evicts the least used", async () => {
    const page = await fetchThing("?p=1");
    const etag = page.response.headers.get("etag")!;
    const notModified = await rawRequest(`${base}/api/v1/things?p=1`, { headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe("");
    expect(notModified.headers.etag).toBe(etag);
    // As in Express, a client that asks for no cache gets the page again (fetch asks so when conditional).
    expect((await fetchThing("?p=1", { "If-None-Match": etag })).response.status).toBe(200);
    const head = await fetch(`${base}/api/v1/things?p=1`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    failing = "parameter";
    const bad = await fetchThing("?p=2");
    expect(bad.response.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({
      _status: { messages: [{ message: "Invalid parameter: limit" }] },
    });
    failing = "no";
    const counted = computed;
    expect((await fetchThing("?p=2")).response.status).toBe(200);
    expect((await fetchThing("?p=2")).response.status).toBe(200);
    expect((await fetchThing("?p=2")).response.status).toBe(200);
    // The error was not kept: the first success was computed, the second kept, the third a hit.
    expect(computed).toBe(counted + 2);
    // Two answers fit (?p=1 and ?p=2 now): a kept ?p=3 pushes out the least recently used, ?p=1.
    await fetchThing("?p=3");
    await fetchThing("?p=3");
    expect(cache.size).toBe(2);
    await fetchThing("?p=1");
    expect(computed).toBe(counted + 5);
  });

  it("answers an unexpected error with 500 and the standard body, logs it, and keeps serving", async () => {
    failing = "crash";
    const crashed = await fetchThing("?p=9");
    failing = "no";
    expect(crashed.response.status).toBe(500);
    expect(JSON.parse(crashed.text)).toEqual({ _status: { messages: [{ message: "Internal error" }] } });
    expect(logged.some((line) => line.includes("a bug") && line.includes("/api/v1/things?p=9"))).toBe(true);
    expect((await fetchThing("?p=9")).response.status).toBe(200);
    const undecodable = await fetchThing("/%E0%A4%A");
    expect(undecodable.response.status).toBe(400);
    expect(JSON.parse(undecodable.text)).toEqual({
      _status: { messages: [{ message: "Failed to decode param '%E0%A4%A'" }] },
    });
  });

  it("hands everything else to Express and reports each request once with its route template", async () => {
    observed.length = 0;
    const other = await fetch(`${base}/other`);
    expect(await other.json()).toEqual({ express: true });
    await fetchThing("/12345");
    await fetchThing("/12345");
    await fetchThing("/12345");
    await fetch(`${base}/api/v1/things`, { method: "POST" });
    expect(observed.map(({ route, method, status, cache }) => ({ route, method, status, cache }))).toEqual([
      { route: "/other", method: "GET", status: 200, cache: "none" },
      { route: "/api/v1/things/{id}", method: "GET", status: 200, cache: "miss" },
      { route: "/api/v1/things/{id}", method: "GET", status: 200, cache: "miss" },
      { route: "/api/v1/things/{id}", method: "GET", status: 200, cache: "hit" },
      { route: "unmatched", method: "POST", status: 404, cache: "none" },
    ]);
    for (const o of observed) expect(o.seconds).toBeGreaterThanOrEqual(0);
  });
});

describe("the front's Java-style routes on their own", () => {
  let base: string;
  let failing: "no" | "parameter" | "crash" = "no";
  let computed = 0;
  const logged: string[] = [];

  beforeAll(async () => {
    const log = pino({ level: "error" }, { write: (line: string) => logged.push(line) });
    const routes: RouteDef[] = [
      defineRoute({
        template: "/api/v1/network/thing",
        caching: "exact",
        maxAge: 60,
        style: "java",
        parse: () => {
          if (failing === "parameter") throw javaBadRequest("Failed to convert 'timestamp'");
          return null;
        },
        answer: () => {
          if (failing === "crash") throw new TypeError("a java bug");
          computed++;
          return javaAnswer(JSON.stringify({ thing: true }));
        },
        post: definePost({
          parse: async (req) => {
            // A step that fails after reading its body: the front answers, logs, and keeps serving.
            for await (const _chunk of req) {
              // drain
            }
            throw new RangeError("a post bug");
          },
          answer: () => javaAnswer("{}"),
        }),
      }),
    ];
    const listener = createFront({
      routes,
      // These routes read no index.
      reads: inThreadReads(routes, {} as ReadStore),
      cache: createResponseCache(),
      generation: () => 1,
      listStaleMs: 1000,
      fallback: express(),
      log,
    });
    const { server } = await listen(listener, "127.0.0.1", 0);
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/api/v1/network/thing`;
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  });

  it("answers with the Java service's headers, 304 even with no-cache, and keeps the answer by generation", async () => {
    const first = await fetch(base);
    expect(first.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
    // fetch adds `Cache-Control: no-cache` to a conditional request; Spring's ETag filter answers 304 anyway.
    expect((await fetch(base, { headers: { "If-None-Match": etag } })).status).toBe(304);
    // Computed twice (kept from the second time), then answered from the cache.
    expect(await (await fetch(base)).json()).toEqual({ thing: true });
    expect(computed).toBe(2);
  });

  it("answers OPTIONS with the methods and others with a Java 405 naming them", async () => {
    const options = await fetch(base, { method: "OPTIONS" });
    expect(options.status).toBe(200);
    expect(options.headers.get("allow")).toBe("GET,HEAD,POST,OPTIONS");
    const put = await fetch(base, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET,HEAD,POST,OPTIONS");
    expect(await put.json()).toEqual({
      _status: {
        messages: [{ message: "Method Not Allowed", detail: "Request method 'PUT' is not supported" }],
      },
    });
  });

  it("answers a handler's 4xx with the path's Cache-Control, and any failure with a logged Java 500", async () => {
    failing = "parameter";
    const bad = await fetch(`${base}?timestamp=x`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get("cache-control")).toBe("public, max-age=60");
    expect(bad.headers.get("content-type")).toBe("application/json");
    failing = "crash";
    const crashed = await fetch(`${base}?crash=1`);
    failing = "no";
    expect(crashed.status).toBe(500);
    expect(await crashed.json()).toEqual({ _status: { messages: [{ message: "Internal Server Error" }] } });
    expect(logged.some((line) => line.includes("a java bug"))).toBe(true);
    const post = await fetch(base, { method: "POST", body: "x" });
    expect(post.status).toBe(500);
    expect(await post.json()).toEqual({ _status: { messages: [{ message: "Internal Server Error" }] } });
    expect(logged.some((line) => line.includes("a post bug"))).toBe(true);
    expect((await fetch(base)).status).toBe(200);
  });
});

describe("the list cache in the running service", () => {
  let service: TestService;
  let ledger: ExpectedLedger;
  let dir: string;

  beforeAll(async () => {
    ledger = expectedLedger(SCENARIO);
    const temp = tempDir();
    cleanups.push(temp.remove);
    dir = join(temp.dir, "record0.0.3");
    mkdirSync(dir);
    copyBlocks(0, ledger.blocks.length - 1);
    // The response cache runs on this clock: how stale a list may be is asserted on it, not on how fast the
    // machine is.
    service = await startTestService({ recordsDir: dir }, { now: () => clock.ms });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
  });
  const clock = { ms: 1_000_000 };

  /** Copies record files [from, to) of the scenario (and their signatures) into the watched folder. */
  function copyBlocks(from: number, to: number): void {
    copyScenarioBlocks(SCENARIO, ledger, dir, from, to);
  }

  it("refreshes a list within a second of new data, while a single NFT is read fresh at once", async () => {
    const shells = ledger.tokens.SHELLS!.id;
    const list = `/api/v1/tokens/${shells}/nfts?account.id=${ledger.accounts.h06!.id}`;
    // Asked twice: an answer is kept from the second time its URL is computed.
    await service.get(list);
    const before = await service.get(list);
    validateResponse({ path: list, status: 200, body: before.body });
    expect((before.body as { nfts: unknown[] }).nfts).toEqual([]);
    expect(before.headers.get("cache-control")).toBe("public, max-age=1");
    const single = `/api/v1/tokens/${shells}/nfts/3`;
    expect((await service.get(single)).body).toMatchObject({ account_id: ledger.accounts.owner!.id });

    // The last record file moves serials 3, 11 and 29 to h06.
    copyBlocks(ledger.blocks.length - 1, ledger.blocks.length);
    await waitForBlock(service, BigInt(ledger.blocks.at(-1)!.number));
    expect((await service.get(single)).body).toMatchObject({ account_id: ledger.accounts.h06!.id });
    // On the cache's clock: still the kept answer up to a second after it was made, the new data after that.
    clock.ms += 999;
    expect((await service.get(list)).text).toBe(before.text);
    clock.ms += 2;
    const after = await service.get(list);
    validateResponse({ path: list, status: 200, body: after.body });
    expect((after.body as { nfts: { serial_number: number }[] }).nfts.map((n) => n.serial_number)).toEqual([
      29, 11, 3,
    ]);
  });

  it("serves repeated list requests with an ETag the client can revalidate", async () => {
    const path = `/api/v1/tokens?limit=2`;
    const first = await service.get(path);
    const etag = first.headers.get("etag");
    expect(etag).not.toBeNull();
    expect(first.headers.get("cache-control")).toBe("public, max-age=10");
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    const again = await service.get(path);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toBe(etag);
    const revalidated = await rawRequest(service.baseUrl + path, { headers: { "If-None-Match": etag! } });
    expect(revalidated.status).toBe(304);
  });
});

describe("--list-cache-ms", () => {
  const ledger = expectedLedger(SCENARIO);

  const clock = { ms: 1_000_000 };

  /** `mirrorlite serve --list-cache-ms <ms>` on all but the last record file of the scenario. */
  async function serve(listCacheMs: string): Promise<{ service: RunningService; dir: string; base: string }> {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const dir = join(temp.dir, "record0.0.3");
    mkdirSync(dir);
    copyScenarioBlocks(SCENARIO, ledger, dir, 0, ledger.blocks.length - 1);
    const command = parseCommand(
      [
        "serve",
        "--records",
        dir,
        "--db",
        ":memory:",
        "--port",
        "0",
        "--log-level",
        "silent",
        "--poll-ms",
        "50",
        "--java-port",
        "0",
        // Not the default 5600: test files run side by side.
        "--grpc-port",
        "off",
      ].concat(["--list-cache-ms", listCacheMs]),
      {},
    );
    if (command.name !== "serve") throw new Error("not a serve command");
    // The response cache runs on the test's clock: a list's age is moved on, not waited for.
    const service = await startService(command.config, createLogger("silent"), {}, { now: () => clock.ms });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    return { service, dir, base: `http://127.0.0.1:${service.port}` };
  }

  it("bounds how stale a list answer may be: 60 s keeps it across new data, 0 refreshes it at once", async () => {
    const list = `/api/v1/tokens/${ledger.tokens.SHELLS!.id}/nfts?account.id=${ledger.accounts.h06!.id}`;
    const serials = async (base: string) => {
      const response = await fetch(base + list);
      const body = (await response.json()) as { nfts: { serial_number: number }[] };
      return {
        cacheControl: response.headers.get("cache-control"),
        serials: body.nfts.map((n) => n.serial_number),
      };
    };
    const patient = await serve("60000");
    const eager = await serve("0");
    // Asked twice, so that the answer is kept.
    for (const { base } of [patient, eager, patient, eager])
      expect((await serials(base)).serials).toEqual([]);
    // The last record file moves serials 3, 11 and 29 to h06.
    for (const { service, dir } of [patient, eager]) {
      copyScenarioBlocks(SCENARIO, ledger, dir, ledger.blocks.length - 1, ledger.blocks.length);
      await waitForBlock(service, BigInt(ledger.blocks.at(-1)!.number));
    }
    expect(await serials(eager.base)).toEqual({ cacheControl: "public, max-age=1", serials: [29, 11, 3] });
    // Past the default second a list is kept, well within the 60 s asked for.
    clock.ms += 1200;
    expect(await serials(patient.base)).toEqual({ cacheControl: "public, max-age=60", serials: [] });
  });
});

import { cpSync, mkdirSync, readdirSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListCache } from "../../src/api/cache.ts";
import { HttpError } from "../../src/api/http-errors.ts";
import { type ExpectedLedger, expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";

const SCENARIO = "tokens-group-nfts";
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("the list cache on its own", () => {
  let server: Server;
  let base: string;
  let clock = 0;
  let generation = 1;
  let computed = 0;
  let failing = false;

  beforeAll(async () => {
    const cache = createListCache({
      generation: () => generation,
      now: () => clock,
      maxStaleMs: 1000,
      maxEntries: 2,
    });
    const app = express();
    app.use(cache.serveHits);
    app.get("/api/v1/things", (req, res) => {
      cache.send(req, res, 10, () => {
        if (failing) throw new HttpError(400, ["Invalid parameter: limit"]);
        computed++;
        return {
          status: 200,
          body: { n: computed, links: { next: computed % 2 === 0 ? "/api/v1/things?x=1" : null } },
        };
      });
    });
    app.use(((error, _req, res, _next) => {
      res.status((error as HttpError).status ?? 500).json({ messages: (error as HttpError).messages });
    }) as express.ErrorRequestHandler);
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  });

  const fetchThing = async (query = "", headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/api/v1/things${query}`, { headers });
    return { response, text: await response.text() };
  };

  it("serves a page from memory for as long as nothing new is indexed", async () => {
    const first = await fetchThing();
    expect(JSON.parse(first.text)).toEqual({ n: 1, links: { next: null } });
    clock += 60_000;
    const later = await fetchThing();
    expect(later.text).toBe(first.text);
    expect(computed).toBe(1);
    expect(later.response.headers.get("cache-control")).toBe("public, max-age=10");
    expect(later.response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(later.response.headers.get("etag")).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
  });

  it("keeps a page at most maxStaleMs once something new is indexed", async () => {
    const before = await fetchThing("?p=1");
    const n = JSON.parse(before.text).n as number;
    generation++;
    clock += 999;
    expect(JSON.parse((await fetchThing("?p=1")).text).n).toBe(n);
    clock += 1;
    const fresh = await fetchThing("?p=1");
    expect(JSON.parse(fresh.text).n).toBe(n + 1);
    // Each page carries its own link header.
    for (const [page, count] of [
      [before, n],
      [fresh, n + 1],
    ] as const) {
      expect(page.response.headers.get("link")).toBe(
        count % 2 === 0 ? '</api/v1/things?x=1>; rel="next"' : null,
      );
    }
  });

  it("answers If-None-Match with 304 and HEAD without a body, never caches errors, and evicts the least used", async () => {
    const page = await fetchThing("?p=1");
    const etag = page.response.headers.get("etag")!;
    const notModified = await fetchThing("?p=1", { "If-None-Match": etag });
    expect(notModified.response.status).toBe(304);
    expect(notModified.text).toBe("");
    const head = await fetch(`${base}/api/v1/things?p=1`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    failing = true;
    expect((await fetchThing("?p=2")).response.status).toBe(400);
    failing = false;
    const counted = computed;
    expect((await fetchThing("?p=2")).response.status).toBe(200);
    expect(computed).toBe(counted + 1);
    // Two entries at most: ?p=3 pushes out the least recently used page ("" was not read since).
    await fetchThing("?p=3");
    await fetchThing("");
    expect(computed).toBe(counted + 3);
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
    service = await startTestService({ recordsDir: dir });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
  });

  /** Copies record files [from, to) of the scenario (and their signatures) into the watched folder. */
  function copyBlocks(from: number, to: number): void {
    const names = new Set(
      ledger.blocks.slice(from, to).flatMap((b) => [b.name, b.name.replace(".rcd.gz", ".rcd_sig")]),
    );
    // Signatures last: a record file counts as complete once its signature exists.
    const files = readdirSync(fixtureStream(SCENARIO))
      .filter((f) => names.has(f))
      .sort((a, b) => Number(a.endsWith("_sig")) - Number(b.endsWith("_sig")));
    for (const file of files) cpSync(join(fixtureStream(SCENARIO), file), join(dir, file));
  }

  it("refreshes a list within a second of new data, while a single NFT is read fresh at once", async () => {
    const shells = ledger.tokens.SHELLS!.id;
    const list = `/api/v1/tokens/${shells}/nfts?account.id=${ledger.accounts.h06!.id}`;
    const before = await service.get(list);
    validateResponse({ path: list, status: 200, body: before.body });
    expect((before.body as { nfts: unknown[] }).nfts).toEqual([]);
    expect(before.headers.get("cache-control")).toBe("public, max-age=1");
    const cachedAt = Date.now();
    const single = `/api/v1/tokens/${shells}/nfts/3`;
    expect((await service.get(single)).body).toMatchObject({ account_id: ledger.accounts.owner!.id });

    // The last record file moves serials 3, 11 and 29 to h06.
    copyBlocks(ledger.blocks.length - 1, ledger.blocks.length);
    await waitForBlock(service, BigInt(ledger.blocks.at(-1)!.number));
    expect((await service.get(single)).body).toMatchObject({ account_id: ledger.accounts.h06!.id });
    const soon = await service.get(list);
    if (Date.now() - cachedAt < 900) expect(soon.text).toBe(before.text);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, cachedAt + 1100 - Date.now())));
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
    const revalidated = await service.get(path, { "If-None-Match": etag! });
    expect(revalidated.status).toBe(304);
  });
});

/**
 * The Java-convention response helpers other network routes build on (`sendJavaText`, `sendJavaJson`,
 * `getOnly`, `javaErrorHandler`), on a small Express app over real HTTP.
 */
import type { Server } from "node:http";
import { request } from "node:http";
import express, { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getOnly,
  javaBadRequest,
  javaErrorHandler,
  parseJavaQuery,
  readChoiceParam,
  sendJavaJson,
  sendJavaText,
} from "../../../src/api/java/index.ts";
import { createLogger } from "../../../src/log.ts";

let server: Server;
let base = "";

beforeAll(async () => {
  const router = Router();
  getOnly(router, "/api/v1/network/example", (req, res) => {
    const q = readChoiceParam(parseJavaQuery(req.originalUrl), "q", ["totalcoins", "circulating"]);
    if (q === "totalcoins")
      return sendJavaText(res, "50000000000.00000000", { contentType: "text/plain;charset=UTF-8" });
    if (q === "circulating") throw javaBadRequest("Invalid range provided for timestamp");
    sendJavaJson(res, { big: 9007199254740993n, links: { next: "/api/v1/network/example?x=1" } });
  });
  router.use("/api/v1/network", javaErrorHandler(createLogger("silent")));
  const app = express();
  app.use(router);
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function rawGet(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Java-convention responses", () => {
  it("send JSON with exact int64s, the Link header, the network cache header and Spring's ETag", async () => {
    const response = await fetch(`${base}/api/v1/network/example`);
    expect(await response.text()).toBe(
      '{"big":9007199254740993,"links":{"next":"/api/v1/network/example?x=1"}}',
    );
    expect(response.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("link")).toBe('</api/v1/network/example?x=1>; rel="next"');
    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
    expect(await rawGet("/api/v1/network/example", { "If-None-Match": etag })).toBe(304);
  });

  it("keep a text/plain content type exactly as given", async () => {
    const response = await fetch(`${base}/api/v1/network/example?q=TOTALCOINS`);
    expect(response.headers.get("content-type")).toBe("text/plain;charset=UTF-8");
    expect(await response.text()).toBe("50000000000.00000000");
  });

  it("write errors with reason phrase and detail, and 405 for other methods", async () => {
    const bad = await fetch(`${base}/api/v1/network/example?q=x`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      _status: { messages: [{ message: "Bad Request", detail: "Failed to convert 'q'" }] },
    });
    const thrown = await fetch(`${base}/api/v1/network/example?q=circulating`);
    expect(await thrown.json()).toEqual({
      _status: { messages: [{ message: "Bad Request", detail: "Invalid range provided for timestamp" }] },
    });
    const post = await fetch(`${base}/api/v1/network/example`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET,HEAD,OPTIONS");
    const options = await fetch(`${base}/api/v1/network/example`, { method: "OPTIONS" });
    expect([options.status, options.headers.get("allow")]).toEqual([200, "GET,HEAD,OPTIONS"]);
  });
});

/**
 * CORS preflights as the public mirror node answers them: a browser on another origin must be able to POST a
 * protobuf body to /api/v1/network/fees (which needs a preflight) and read every GET answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureStream } from "../helpers/fixtures.ts";
import { type RawResponse, rawRequest } from "../helpers/raw-http.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ recordsDir: fixtureStream("network") });
  await service.ingest.settled;
});
afterAll(() => service?.stop());

const ORIGIN = "https://wallet.example";

function options(path: string, headers: Record<string, string>): Promise<RawResponse> {
  return rawRequest(service.baseUrl + path, { method: "OPTIONS", headers });
}

/** Every header an answer carries apart from the ones node adds to all (`Date`, `Connection`, `Keep-Alive`). */
function ownHeaders(response: RawResponse): Record<string, unknown> {
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, ...rest } = response.headers;
  return rest;
}

describe("a preflight for POST /api/v1/network/fees (the Java service: Spring's CORS defaults)", () => {
  it("is allowed: any origin, GET/HEAD/POST, the requested headers, cached 1800 s", async () => {
    const response = await options("/api/v1/network/fees", {
      Origin: ORIGIN,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,x-custom",
    });
    expect(response.status).toBe(200);
    expect(response.body).toBe("");
    expect(ownHeaders(response)).toEqual({
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET,HEAD,POST",
      "access-control-allow-headers": "content-type, x-custom",
      "access-control-max-age": "1800",
      "content-length": "0",
    });
  });

  it("for a GET-only path too (the configuration is by path), without headers when none are asked", async () => {
    const response = await options("/api/v1/network/stake", {
      Origin: ORIGIN,
      "Access-Control-Request-Method": "GET",
    });
    expect(response.status).toBe(200);
    expect(response.headers["access-control-allow-methods"]).toBe("GET,HEAD,POST");
    expect(response.headers["access-control-allow-headers"]).toBeUndefined();
  });

  it("refuses another method with 403 Invalid CORS request", async () => {
    const response = await options("/api/v1/network/fees", {
      Origin: ORIGIN,
      "Access-Control-Request-Method": "DELETE",
    });
    expect(response.status).toBe(403);
    expect(response.body).toBe("Invalid CORS request");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("leaves a plain OPTIONS (no preflight) its Allow answer", async () => {
    const response = await options("/api/v1/network/fees", {});
    expect(response.status).toBe(200);
    expect(response.headers.allow).toBe("GET,HEAD,POST,OPTIONS");
  });
});

describe("OPTIONS on the Node service's paths (the cors middleware's defaults)", () => {
  it("answers 204 with any origin, its methods and the requested headers echoed", async () => {
    for (const path of [
      "/api/v1/tokens",
      "/api/v1/blocks/1",
      "/api/v1/tokens/0.0.1/nfts",
      "/health/readiness",
    ]) {
      const response = await options(path, {
        Origin: ORIGIN,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-api-key",
      });
      expect(response.status, path).toBe(204);
      expect(response.body).toBe("");
      expect(ownHeaders(response), path).toEqual({
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET,HEAD,PUT,PATCH,POST,DELETE",
        vary: "Access-Control-Request-Headers",
        "access-control-allow-headers": "x-api-key",
        "content-length": "0",
      });
    }
    // Any OPTIONS, preflight or not.
    const plain = await options("/api/v1/tokens", {});
    expect(plain.status).toBe(204);
    expect(plain.headers["access-control-allow-headers"]).toBeUndefined();
  });
});

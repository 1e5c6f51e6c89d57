import { describe, expect, it } from "vitest";
import { HttpError } from "../../src/api/http-errors.ts";
import { createRouteMatcher } from "../../src/api/route-match.ts";

const match = createRouteMatcher(
  [
    "/api/v1/tokens",
    "/api/v1/tokens/balances",
    "/api/v1/tokens/{tokenId}",
    "/api/v1/tokens/{tokenId}/nfts/{serial}",
  ].map((template) => ({ template })),
);
const routed = (path: string) => {
  const found = match(path);
  return found === null ? null : { template: found.route.template, params: found.params };
};

describe("the front's route matcher", () => {
  it("routes as Express does: table order, any case, one trailing slash, decoded non-empty parameters", () => {
    expect(routed("/api/v1/tokens")).toEqual({ template: "/api/v1/tokens", params: {} });
    expect(routed("/api/v1/tokens/")).toEqual({ template: "/api/v1/tokens", params: {} });
    expect(routed("/API/v1/Tokens")).toEqual({ template: "/api/v1/tokens", params: {} });
    expect(routed("/api/v1/tokens/balances")?.template).toBe("/api/v1/tokens/balances");
    expect(routed("/api/v1/tokens/0.0.5")).toEqual({
      template: "/api/v1/tokens/{tokenId}",
      params: { tokenId: "0.0.5" },
    });
    expect(routed("/api/v1/tokens/0.0.5/nfts/7/")).toEqual({
      template: "/api/v1/tokens/{tokenId}/nfts/{serial}",
      params: { tokenId: "0.0.5", serial: "7" },
    });
    expect(routed("/api/v1/tokens/%F0%9F%98%80")?.params).toEqual({ tokenId: "😀" });
    expect(routed("/api/v1/tokens/a%2Fb")?.params).toEqual({ tokenId: "a/b" });
  });

  it("leaves everything else to Express", () => {
    for (const path of [
      "/",
      "/api/v1",
      "/api/v1//tokens",
      "/api/v1/tokens//",
      "/api/v1/tokens/1/nfts",
      "/api/v1/tokensx",
    ]) {
      expect(routed(path), path).toBeNull();
    }
  });

  it("answers a parameter that is not valid percent-encoded UTF-8 with Express's 400", () => {
    for (const raw of ["%E0%A4%A", "%zz", "%"]) {
      let error: unknown;
      try {
        match(`/api/v1/tokens/${raw}`);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(400);
      expect((error as HttpError).messages).toEqual([`Failed to decode param '${raw}'`]);
    }
  });
});

describe("routes that accept only some parameters", () => {
  const numeric = (params: Readonly<Record<string, string>>) => /^\d+$/.test(params.id ?? "");
  const table = createRouteMatcher([
    { template: "/api/v1/topics/{id}", accepts: numeric, name: "java" },
    { template: "/api/v1/topics/{id}", name: "fallback" },
  ]);

  it("pass what they do not accept on to later routes, and to Express past the table", () => {
    expect(table("/api/v1/topics/12")?.route.name).toBe("java");
    expect(table("/api/v1/topics/abc")?.route.name).toBe("fallback");
    const only = createRouteMatcher([{ template: "/api/v1/topics/{id}", accepts: numeric }]);
    expect(only("/api/v1/topics/abc")).toBeNull();
    expect(only("/api/v1/topics/%31")?.params).toEqual({ id: "1" });
  });
});

describe("a route that accepts only some parameters", () => {
  it("takes none that do not decode (they go on, not to a 400)", () => {
    const only = createRouteMatcher([{ template: "/api/v1/topics/{id}", accepts: () => true }]);
    expect(only("/api/v1/topics/%")).toBeNull();
  });
});

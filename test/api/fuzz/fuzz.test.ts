/**
 * Property-based fuzzing of every endpoint in `endpoints.ts` against the real service (real watcher, real
 * SQLite file, real HTTP): whatever the request, the answer is not a 5xx, an error comes in the mirror node's
 * body format, a 2xx is what the OpenAPI document promises, and no answer spins (a generous bound per
 * request, not a benchmark).
 *
 * `npm test` runs a bounded number of requests per endpoint from a fixed seed, and the requests and seeds that
 * once found a defect (seeds.ts); the slow project (`npm run test:slow`) runs more from another fixed seed;
 * `npm run fuzz` runs many more (FUZZ_RUNS per endpoint) from a random seed (FUZZ_RANDOM=1; FUZZ_SEED replays a
 * failure).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useScenario } from "../../helpers/fixtures.ts";
import { validateResponse } from "../../helpers/openapi.ts";
import { rawRequest } from "../../helpers/raw-http.ts";
import { type ErrorStyle, FUZZ_ENDPOINTS, type FuzzScenario } from "./endpoints.ts";
import { requestTo } from "./requests.ts";
import { isRegressionSeed, REGRESSION_RUNS, REGRESSION_URLS, seedsFor } from "./seeds.ts";

/** Requests per endpoint and seed (FUZZ_RUNS): 40 in `npm test`, 150 in the slow project. */
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.MIRRORLITE_TEST_SLOW === "1" ? 150 : 40));
/**
 * A request that spins is caught by the query deadline and the answer never comes in time: a generous bound, so
 * that a loaded machine does not fail the test (how fast answers come is measured by the bench).
 */
const ANSWER_WITHIN_MS = 15_000;

const scenarios = {
  "tokens-group-nfts": useScenario("tokens-group-nfts"),
  network: useScenario("network"),
  "network-supply": useScenario("network-supply", { balances: true }),
  "account-relations": useScenario("account-relations"),
  accounts: useScenario("accounts"),
  topics: useScenario("topics"),
  transactions: useScenario("transactions"),
  schedules: useScenario("schedules"),
  "hooks-and-registered-nodes": useScenario("hooks-and-registered-nodes"),
  contracts: useScenario("contracts"),
} satisfies Record<FuzzScenario, unknown>;

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Throws unless `body` is an error body of the given style. */
function checkErrorBody(style: ErrorStyle, body: unknown, detailed = false): void {
  const messages = (body as { _status?: { messages?: unknown } })?._status?.messages;
  expect(Object.keys(body as object)).toEqual(["_status"]);
  expect(Array.isArray(messages) && messages.length > 0, JSON.stringify(body)).toBe(true);
  for (const entry of messages as Record<string, unknown>[]) {
    expect(typeof entry.message).toBe("string");
    if (style === "node" && !(detailed && "detail" in entry)) expect(Object.keys(entry)).toEqual(["message"]);
    else if (style === "node") expect(Object.keys(entry)).toEqual(["message", "detail"]);
    else {
      expect(Object.keys(entry).filter((key) => key !== "message" && key !== "detail")).toEqual([]);
      if ("detail" in entry) expect(typeof entry.detail).toBe("string");
    }
  }
}

describe("fuzzing every endpoint", () => {
  it.each(FUZZ_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint] as const))(
    "%s: never a 5xx, errors in the mirror node's format, 2xx as documented, none spinning",
    async (_path, endpoint) => {
      const { service, ledger } = scenarios[endpoint.scenario];
      let answered = 0;
      const property = fc.asyncProperty(requestTo(endpoint, ledger), async ({ url, documentedPath }) => {
        // node's client as it comes (16 KiB of response headers at most): every answer must be readable by it,
        // so a `Link` header longer than clients read is never written (a Java-style next link repeats the query).
        const response = await rawRequest(service.baseUrl + url, { timeoutMs: ANSWER_WITHIN_MS });
        const context = `${url.slice(0, 300)} → ${response.status} ${response.body.slice(0, 300)}`;
        if (response.status < 300) answered++;
        expect(response.status, context).toBeLessThan(500);
        if (response.status === 431) {
          // Node's own answer past its 16 KiB of request line and headers (as the public mirror node's).
          expect(Buffer.byteLength(url), context).toBeGreaterThan(16 * 1024 - 512);
          expect(response.body, context).toBe("");
          return;
        }
        const contentType = response.headers["content-type"];
        // A doubled slash is no spelling of a network path (as Express routes it): the app's own 404. A path
        // parameter that does not percent-decode is refused before any route is chosen (upstream's servlet
        // container refuses it too, with a page of its own): the app's own 400. A path the public ingress sends
        // to the Node service (a topic id that is not numeric, decodable or not) is that service's 404.
        const path = url.split("?", 1)[0]!;
        const doubledSlash = path.includes("//");
        const nodeService = endpoint.reachesJava?.(path.toLowerCase()) === false;
        const style =
          endpoint.errorStyle === "java" && (doubledSlash || nodeService || !decodes(path))
            ? "node"
            : endpoint.errorStyle;
        if (style !== endpoint.errorStyle)
          expect(response.status, context).toBe(doubledSlash || nodeService ? 404 : 400);
        if (style === "node") {
          expect(contentType, context).toBe("application/json; charset=utf-8");
        } else if (response.status >= 400) {
          // The Java service's errors: exactly `application/json`; its answers carry a charset.
          expect(contentType, context).toBe("application/json");
        } else if (contentType === "text/plain;charset=UTF-8") {
          // `/network/supply?q=`: hbar with eight decimals.
          expect(url, context).toMatch(/[?&]q=/i);
          expect(response.body, context).toMatch(/^\d+\.\d{8}$/);
          return;
        } else {
          expect(contentType, context).toBe("application/json;charset=UTF-8");
        }
        const body = JSON.parse(response.body) as unknown;
        if (response.status >= 400) {
          checkErrorBody(style, body, endpoint.errorDetail === true);
        } else if (documentedPath !== null) {
          validateResponse({ path: documentedPath, status: response.status, body });
        }
      });
      const examples = (REGRESSION_URLS[endpoint.path] ?? []).map(
        (url) => [{ url, documentedPath: null }] as [{ url: string; documentedPath: string | null }],
      );
      for (const seed of seedsFor(endpoint.path, process.env)) {
        const numRuns = isRegressionSeed(endpoint.path, seed) ? Math.max(RUNS, REGRESSION_RUNS) : RUNS;
        await fc.assert(property, { numRuns, examples, ...(seed === undefined ? {} : { seed }) });
      }
      // The network scenarios have data for each network endpoint: well-formed requests reach real answers.
      if (endpoint.errorStyle === "java") expect(answered).toBeGreaterThan(0);
    },
    // A bound for the whole run of an endpoint (each of its seeds), generous for a loaded machine.
    Math.max(60_000, (RUNS + 2 * REGRESSION_RUNS) * ANSWER_WITHIN_MS),
  );
});

/**
 * `npm test` must not be a lottery: the fuzz test sends the same requests on every run (a fixed seed, and the
 * seeds and requests that once found a defect); only `npm run fuzz` (FUZZ_RANDOM=1) draws new ones.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectedLedger } from "../../helpers/fixtures.ts";
import { FUZZ_ENDPOINTS } from "./endpoints.ts";
import { requestTo } from "./requests.ts";
import {
  FIXED_SEED,
  isRegressionSeed,
  REGRESSION_SEEDS,
  REGRESSION_URLS,
  SLOW_SEED,
  seedsFor,
} from "./seeds.ts";

describe("the fuzz test's seeds", () => {
  it("are fixed in npm test, with every regression seed on its endpoint", () => {
    expect(seedsFor("/api/v1/tokens", {})).toEqual([FIXED_SEED]);
    expect(seedsFor("/api/v1/network/nodes", {})).toEqual([FIXED_SEED, 74, 253]);
    for (const { path, seed } of REGRESSION_SEEDS) {
      expect(FUZZ_ENDPOINTS.some((endpoint) => endpoint.path === path)).toBe(true);
      expect(seedsFor(path, {})).toContain(seed);
    }
    for (const path of Object.keys(REGRESSION_URLS)) {
      expect(FUZZ_ENDPOINTS.some((endpoint) => endpoint.path === path)).toBe(true);
    }
  });

  it("are another fixed one in the slow project, for requests npm test does not send", () => {
    const slow = { MIRRORLITE_TEST_SLOW: "1" };
    expect(seedsFor("/api/v1/network/nodes", slow)).toEqual([SLOW_SEED]);
    expect(SLOW_SEED).not.toBe(FIXED_SEED);
    expect(seedsFor("/api/v1/tokens", { ...slow, FUZZ_SEED: "42" })).toEqual([42]);
  });

  it("that found a defect run as many requests as when they found it", () => {
    expect(isRegressionSeed("/api/v1/network/nodes", 74)).toBe(true);
    expect(isRegressionSeed("/api/v1/tokens", 74)).toBe(false);
    expect(isRegressionSeed("/api/v1/network/nodes", FIXED_SEED)).toBe(false);
  });

  it("are random only when asked (npm run fuzz), and FUZZ_SEED replays one", () => {
    expect(seedsFor("/api/v1/tokens", { FUZZ_RANDOM: "1" })).toEqual([undefined]);
    expect(seedsFor("/api/v1/network/nodes", { FUZZ_SEED: "42", FUZZ_RANDOM: "1" })).toEqual([42]);
  });

  it("give the same requests on every run", () => {
    const ledger = expectedLedger("network");
    const endpoint = FUZZ_ENDPOINTS.find((e) => e.path === "/api/v1/network/nodes")!;
    const draw = () => fc.sample(requestTo(endpoint, ledger), { numRuns: 50, seed: FIXED_SEED });
    expect(draw()).toEqual(draw());
  });
});

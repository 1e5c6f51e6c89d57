/**
 * Which requests the fuzz test sends. `npm test` must not be a lottery: it runs a fixed seed on every endpoint,
 * and every seed that ever found a defect on the endpoint where it found it (kept so that the defect stays
 * fixed), plus requests that once failed, exactly. Random seeds belong to `npm run fuzz` (FUZZ_RANDOM=1),
 * which prints the seed of a failure; FUZZ_SEED=<seed> replays it. A seed that finds a defect is added to
 * REGRESSION_SEEDS with what it found.
 */

/** The seed every `npm test` runs on every endpoint. */
export const FIXED_SEED = 20_171_117;

/** The seed the slow project runs on every endpoint, for more requests than `npm test` sends (other ones). */
export const SLOW_SEED = 20_261_128;

/** A regression seed runs as many requests as when it found its defect, whatever FUZZ_RUNS says. */
export const REGRESSION_RUNS = 150;

/** Seeds that found a defect, with the endpoint and what they found. */
export const REGRESSION_SEEDS: ReadonlyArray<{ seed: number; path: string; found: string }> = [
  // issue 17: a URL past 16 KiB answered 200 with a Link header node:http's client refuses (HPE_HEADER_OVERFLOW),
  // as mirrorlite took 64 KiB requests and wrote every next link as a header. Found by these seeds (and by none of
  // 20171117, 1-7) against that code.
  {
    seed: 74,
    path: "/api/v1/network/nodes",
    found: "a 17,000-byte URL with limit=1: 200, Link header past 16 KiB",
  },
  {
    seed: 253,
    path: "/api/v1/network/nodes",
    found: "a 17,000-byte x=yyy… parameter: 200, Link header past 16 KiB",
  },
];

/** Exact requests that once failed, by endpoint path: sent on every run before the generated ones. */
export const REGRESSION_URLS: Readonly<Record<string, readonly string[]>> = {
  // issue 17: `npm test` failed on a fresh clone with this request (200 with a 20 KB Link header).
  "/api/v1/network/nodes": [`/api/v1/network/nodes?limit=2&x=${"y".repeat(20_000)}`],
};

/**
 * The seeds to run on `path`: FUZZ_SEED alone when given; a random one (undefined: fast-check draws and
 * reports it) with FUZZ_RANDOM=1; in the slow project (MIRRORLITE_TEST_SLOW=1) its own seed; otherwise the fixed
 * seed and the regression seeds of that path.
 */
export function seedsFor(path: string, env: NodeJS.ProcessEnv): Array<number | undefined> {
  if (env.FUZZ_SEED !== undefined) return [Number(env.FUZZ_SEED)];
  if (env.FUZZ_RANDOM === "1") return [undefined];
  if (env.MIRRORLITE_TEST_SLOW === "1") return [SLOW_SEED];
  return [FIXED_SEED, ...REGRESSION_SEEDS.filter((entry) => entry.path === path).map((entry) => entry.seed)];
}

/** Whether `seed` is one that found a defect on `path` (it runs REGRESSION_RUNS requests). */
export function isRegressionSeed(path: string, seed: number | undefined): boolean {
  return REGRESSION_SEEDS.some((entry) => entry.path === path && entry.seed === seed);
}

/**
 * Which requests the fuzz test sends. `npm test` must not be a lottery: it runs a fixed seed on every endpoint,
 * and every seed that ever found a defect on the endpoint where it found it (kept so that the defect stays
 * fixed), plus requests that once failed, exactly. Random seeds belong to `npm run fuzz` (FUZZ_RANDOM=1),
 * which prints the seed of a failure; FUZZ_SEED=<seed> replays it. A seed that finds a defect is added to
 * REGRESSION_SEEDS with what it found.
 */

/** The seed every `npm test` runs on every endpoint. */
export const FIXED_SEED = 20_171_117;

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
 * reports it) with FUZZ_RANDOM=1; otherwise the fixed seed and the regression seeds of that path.
 */
export function seedsFor(path: string, env: NodeJS.ProcessEnv): Array<number | undefined> {
  if (env.FUZZ_SEED !== undefined) return [Number(env.FUZZ_SEED)];
  if (env.FUZZ_RANDOM === "1") return [undefined];
  return [FIXED_SEED, ...REGRESSION_SEEDS.filter((entry) => entry.path === path).map((entry) => entry.seed)];
}

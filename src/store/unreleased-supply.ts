import { decodeEntityId } from "../ids.ts";

/**
 * The accounts whose hbar is not yet released (the mirror node's default
 * `hiero.mirror.rest-java.network.unreleasedSupplyAccounts`): inclusive account-number ranges, taken in the
 * stream's shard and realm. Released supply = 50,000,000,000 hbar minus their summed balance.
 */
export const UNRELEASED_SUPPLY_RANGES: ReadonlyArray<readonly [bigint, bigint]> = [
  [2n, 2n],
  [42n, 42n],
  [44n, 71n],
  [73n, 87n],
  [99n, 100n],
  [200n, 349n],
  [400n, 750n],
];

const HIGHEST = 750n;

/** Total hbar of every network, in tinybars. */
export const TOTAL_SUPPLY_TINYBARS = 50_000_000_000n * 100_000_000n;

/** A predicate for "is one of the unreleased supply accounts of shard.realm", cheap on the hot path. */
export function unreleasedSupplyAccount(shard: bigint, realm: bigint): (accountId: bigint) => boolean {
  const inRanges = (num: bigint) =>
    num <= HIGHEST && UNRELEASED_SUPPLY_RANGES.some(([low, high]) => num >= low && num <= high);
  if (shard === 0n && realm === 0n) return (accountId) => accountId >= 0n && inRanges(accountId);
  return (accountId) => {
    const id = decodeEntityId(accountId);
    return id.shard === shard && id.realm === realm && inRanges(id.num);
  };
}

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";

/**
 * The test's own account of hbar movements, read straight from the record files' transfer lists (not through
 * ingestion), and the supply they imply: what the API must answer at any instant.
 */
export type HbarMove = { consensusNs: bigint; amounts: Array<[accountNum: bigint, tinybars: bigint]> };

const TOTAL = 5_000_000_000_000_000_000n;

/**
 * Upstream's default unreleased supply ranges, written out here on purpose rather than imported from
 * src/store/unreleased-supply.ts: this file is the supply tests' independent oracle, so a wrong range there
 * fails the tests instead of being copied into the expectation.
 */
const UNRELEASED: Array<[bigint, bigint]> = [
  [2n, 2n],
  [42n, 42n],
  [44n, 71n],
  [73n, 87n],
  [99n, 100n],
  [200n, 349n],
  [400n, 750n],
];

export const isUnreleased = (num: bigint) => UNRELEASED.some(([low, high]) => num >= low && num <= high);

/** Every record's transfer list, in stream order (shard 0, realm 0 streams). */
export function readHbarMoves(recordsDir: string): HbarMove[] {
  const names = readdirSync(recordsDir)
    .filter((name) => /\.rcd(\.gz)?$/.test(name))
    .sort();
  const moves: HbarMove[] = [];
  for (const name of names) {
    const file = readRecordFile(name, readFileSync(join(recordsDir, name)));
    for (const item of file.items) {
      const record = proto.TransactionRecord.decode(item.recordBytes);
      const ts = record.consensusTimestamp;
      moves.push({
        consensusNs: toBigInt(ts?.seconds) * 1_000_000_000n + BigInt(ts?.nanos ?? 0),
        amounts: (record.transferList?.accountAmounts ?? []).map((aa) => [
          toBigInt(aa.accountID?.accountNum),
          toBigInt(aa.amount),
        ]),
      });
    }
  }
  return moves;
}

export type SupplyPoint = { consensusNs: bigint; released: bigint };

/**
 * The supply after the starting state and after every move that touched an unreleased account: the answer at
 * T is the last point at or before T (none before the start).
 */
export function supplyPoints(
  start: { consensusNs: bigint; balances: Array<[accountNum: bigint, tinybars: bigint]> },
  moves: readonly HbarMove[],
): SupplyPoint[] {
  let unreleased = start.balances.filter(([num]) => isUnreleased(num)).reduce((sum, [, b]) => sum + b, 0n);
  const points: SupplyPoint[] = [{ consensusNs: start.consensusNs, released: TOTAL - unreleased }];
  for (const move of moves) {
    if (move.consensusNs <= start.consensusNs) continue;
    const touched = move.amounts.filter(([num, amount]) => isUnreleased(num) && amount !== 0n);
    if (touched.length === 0) continue;
    for (const [, amount] of touched) unreleased += amount;
    points.push({ consensusNs: move.consensusNs, released: TOTAL - unreleased });
  }
  return points;
}

/** The expected answer at `atNs`, or null for 404. */
export function supplyAt(points: readonly SupplyPoint[], atNs: bigint): SupplyPoint | null {
  let found: SupplyPoint | null = null;
  for (const point of points) if (point.consensusNs <= atNs) found = point;
  return found;
}

/** Every account's balance at `atNs` from the start plus the moves (for snapshot comparisons). */
export function balancesAt(
  start: Array<[bigint, bigint]>,
  moves: readonly HbarMove[],
  fromNs: bigint,
  atNs: bigint,
): Map<bigint, bigint> {
  const balances = new Map(start);
  for (const move of moves) {
    if (move.consensusNs <= fromNs || move.consensusNs > atNs) continue;
    for (const [num, amount] of move.amounts) balances.set(num, (balances.get(num) ?? 0n) + amount);
  }
  return balances;
}

/** `seconds.nnnnnnnnn`, as the API prints (and, with nine digits, as the Java parser reads exactly). */
export function ts(ns: bigint): string {
  return `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`;
}

export const TOTAL_SUPPLY = TOTAL;

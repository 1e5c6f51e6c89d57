/**
 * The hand-written block printer against the generic one: `blockJson(row)` must be exactly
 * `toJson(blockView(row))` for every kind of value a `record_file` row can hold.
 */
import { describe, expect, it } from "vitest";
import { toJson } from "../../src/api/json.ts";
import { blockJson, blockView, hapiVersion, logsBloomHex } from "../../src/api/views/block.ts";
import type { BlockRow } from "../../src/store/blocks.ts";

const BASE: BlockRow = {
  number: 17n,
  name: "2022-04-27T12_24_30.768994443Z.rcd",
  hapi_major: 0n,
  hapi_minor: 22n,
  hapi_patch: 3n,
  hash: "b0".repeat(48),
  previous_hash: "fb".repeat(48),
  consensus_start: 1_676_540_001_234_500_000n,
  consensus_end: 1_676_540_001_234_600_000n,
  count: 5n,
  size: 6n,
  gas_used: 0n,
  logs_bloom: Buffer.alloc(0),
};

const bloom = Buffer.alloc(256);
bloom[0] = 0x81;
bloom[255] = 0x01;

const CASES: Record<string, Partial<BlockRow>> = {
  "a plain block": {},
  "no HAPI version (v2)": { hapi_major: null, hapi_minor: null, hapi_patch: null },
  "one unknown HAPI part": { hapi_patch: null },
  "HAPI 0.0.0 (v5 contract files)": { hapi_major: 0n, hapi_minor: 0n, hapi_patch: 0n },
  "unknown size": { size: null },
  "legacy gas -1": { gas_used: -1n },
  "gas and a bloom": { gas_used: 800_000n, logs_bloom: bloom },
  "a short stored bloom": { logs_bloom: Buffer.from([0x12, 0x34]) },
  "a null bloom": { logs_bloom: null },
  "block 0 at time 0": { number: 0n, consensus_start: 0n, consensus_end: 5430n, count: 0n },
  "int64 extremes": {
    number: 9_223_372_036_854_775_807n,
    count: 9_990_000_000_000_222n,
    gas_used: 2n ** 62n,
  },
  "a name JSON must escape": { name: 'odd "name"\\ \u00e9\u2028\n.rcd' },
};

describe("blockJson", () => {
  it.each(Object.entries(CASES))("prints %s exactly as the generic printer does", (_label, change) => {
    const row = { ...BASE, ...change };
    expect(blockJson(row)).toBe(toJson(blockView(row)));
    expect(() => JSON.parse(blockJson(row))).not.toThrow();
  });

  it("prints the mirror node's values", () => {
    const view = blockView({ ...BASE, gas_used: -1n, logs_bloom: bloom, consensus_end: 5430n });
    expect(view.gas_used).toBeNull();
    expect(view.timestamp.to).toBe("0.000005430");
    expect(view.logs_bloom).toBe(`0x81${"00".repeat(254)}01`);
    expect(logsBloomHex(Buffer.from([0x12, 0x34]))).toBe(`0x${"0".repeat(508)}1234`);
    expect(logsBloomHex(Buffer.alloc(0))).toBe("0x");
    expect(hapiVersion({ hapi_major: 0n, hapi_minor: 28n, hapi_patch: 0n })).toBe("0.28.0");
  });
});

import type { BlockRow } from "../../store/blocks.ts";
import { formatTimestamp } from "../../time.ts";

/** Hex digits of a 256-byte logs bloom. */
const LOGS_BLOOM_HEX_DIGITS = 512;

/** `"major.minor.patch"`, or null when any part is unknown (v2 files carry no HAPI version). */
export function hapiVersion(row: Pick<BlockRow, "hapi_major" | "hapi_minor" | "hapi_patch">): string | null {
  const { hapi_major: major, hapi_minor: minor, hapi_patch: patch } = row;
  return major === null || minor === null || patch === null ? null : `${major}.${minor}.${patch}`;
}

/**
 * `"0x"` plus the bloom left-padded to 512 hex digits; an empty bloom (no contract result in the block) is
 * just `"0x"`, as the mirror node prints an empty byte array.
 */
export function logsBloomHex(bloom: Uint8Array | null): string | null {
  if (bloom === null) return null;
  if (bloom.length === 0) return "0x";
  return `0x${Buffer.from(bloom.buffer, bloom.byteOffset, bloom.byteLength).toString("hex").padStart(LOGS_BLOOM_HEX_DIGITS, "0")}`;
}

/** One block as `/api/v1/blocks` and `/api/v1/blocks/{hashOrNumber}` print it, fields in the mirror node's order. */
export function blockView(row: BlockRow) {
  return {
    count: row.count,
    hapi_version: hapiVersion(row),
    hash: `0x${row.hash}`,
    name: row.name,
    number: row.number,
    previous_hash: `0x${row.previous_hash}`,
    size: row.size,
    timestamp: { from: formatTimestamp(row.consensus_start), to: formatTimestamp(row.consensus_end) },
    // Rows migrated from before gas was recorded hold -1, which the mirror node prints as null.
    gas_used: row.gas_used === -1n ? null : row.gas_used,
    logs_bloom: logsBloomHex(row.logs_bloom),
  };
}

export type BlockView = ReturnType<typeof blockView>;

/**
 * `toJson(blockView(row))`, written out by hand: list pages print up to 100 blocks, and the generic printer
 * walks every key of every object. Only `name` can hold characters JSON must escape; the other strings are
 * hex digits, decimal digits and dots.
 */
export function blockJson(row: BlockRow): string {
  const version = hapiVersion(row);
  const bloom = logsBloomHex(row.logs_bloom);
  return (
    `{"count":${row.count},"hapi_version":${version === null ? "null" : `"${version}"`},` +
    `"hash":"0x${row.hash}","name":${JSON.stringify(row.name)},"number":${row.number},` +
    `"previous_hash":"0x${row.previous_hash}","size":${row.size === null ? "null" : row.size},` +
    `"timestamp":{"from":"${formatTimestamp(row.consensus_start)}","to":"${formatTimestamp(row.consensus_end)}"},` +
    `"gas_used":${row.gas_used === -1n ? "null" : row.gas_used},"logs_bloom":${bloom === null ? "null" : `"${bloom}"`}}`
  );
}

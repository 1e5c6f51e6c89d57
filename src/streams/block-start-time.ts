/**
 * A block's consensus start (its header's block timestamp) read from the first bytes of its file, without
 * reading, decompressing or hashing the rest: how far ingestion is behind a block folder is the time between
 * the newest block on disk and the last one applied, and block file names carry no time.
 */
import { gunzipSync, constants as zlib } from "node:zlib";
import { Decompress } from "fzstd";
import { blockCompressionOf } from "./block-decompress.ts";
import { readHeader } from "./block-file.ts";
import { BLOCK_ITEMS, ITEM } from "./block-items.ts";
import { WIRE_LENGTH_DELIMITED, WireReader } from "./protobuf-wire.ts";

/**
 * The block header comes first and is small. A zstd decoder yields output a whole zstd block (at most 128 KiB)
 * at a time, and a stored one takes as many bytes: this much of a file always holds the header.
 */
export const BLOCK_START_PREFIX_BYTES = 128 * 1024 + 1024;

/** Thrown from the zstd decoder's callback to stop it once the first output has come. */
const ENOUGH = Symbol("enough");

/**
 * The block timestamp (ns) of the block whose file starts with `prefix`; null when those bytes do not start with
 * a readable block header (a file still being written, or not a block).
 */
export function blockStartTimeNs(name: string, prefix: Uint8Array): bigint | null {
  try {
    const start = startOfBlock(name, prefix);
    const reader = new WireReader(name, start, "Block");
    const tag = reader.tag(start.length);
    if (tag >>> 3 !== BLOCK_ITEMS || (tag & 7) !== WIRE_LENGTH_DELIMITED) return null;
    const itemEnd = reader.lengthDelimitedEnd(start.length);
    const itemTag = reader.tag(itemEnd);
    if (itemTag >>> 3 !== ITEM.blockHeader || (itemTag & 7) !== WIRE_LENGTH_DELIMITED) return null;
    return readHeader(name, reader.lengthDelimited(itemEnd)).timestampNs;
  } catch {
    return null;
  }
}

/** The first uncompressed bytes of a block file given its first compressed bytes. */
function startOfBlock(name: string, prefix: Uint8Array): Uint8Array {
  const compression = blockCompressionOf(name);
  if (compression === "gzip") return gunzipSync(prefix, { finishFlush: zlib.Z_SYNC_FLUSH });
  if (compression !== "zstd") return prefix;
  let first: Uint8Array | null = null;
  const decoder = new Decompress((chunk) => {
    first = chunk;
    throw ENOUGH;
  });
  try {
    decoder.push(prefix, false);
  } catch (error) {
    if (error !== ENOUGH) throw error;
  }
  return first ?? new Uint8Array();
}

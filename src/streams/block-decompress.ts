/**
 * Decompression of block stream files, bounded: a block is read whole into memory, so a small hostile file
 * that inflates to gigabytes must be refused before it does. The suffix decides the format, as the file names
 * a node writes say (`.blk`, `.blk.gz`, `.blk.zst`, `.blk.zstd`).
 */
import { gunzipSync } from "node:zlib";
import { Decompress } from "fzstd";
import { CorruptFileError } from "../errors.ts";
import { MAX_DECOMPRESSED_BYTES } from "./decompress.ts";
import { xxhash64 } from "./xxhash64.ts";

/**
 * The largest uncompressed block accepted, in bytes: the one bound of every stream file (decompress.ts,
 * `--max-file-mb`). Mainnet blocks are a few MB; a block past this is treated as corrupt.
 */
export const MAX_BLOCK_BYTES = MAX_DECOMPRESSED_BYTES;

export type BlockCompression = "none" | "gzip" | "zstd";

/** The compression a block file name announces (null: not a block file name). */
export function blockCompressionOf(name: string): BlockCompression | null {
  if (name.endsWith(".blk")) return "none";
  if (name.endsWith(".blk.gz")) return "gzip";
  if (name.endsWith(".blk.zst") || name.endsWith(".blk.zstd")) return "zstd";
  return null;
}

/** The uncompressed bytes of a block file; throws `CorruptFileError` naming `name` when they cannot be had. */
export function decompressBlock(name: string, bytes: Uint8Array, maxBytes = MAX_BLOCK_BYTES): Uint8Array {
  const compression = blockCompressionOf(name);
  if (compression === "gzip") return gunzipBounded(name, bytes, maxBytes);
  if (compression === "zstd") return unzstdBounded(name, bytes, maxBytes);
  if (bytes.length > maxBytes) throw tooLarge(name, maxBytes);
  return bytes;
}

function gunzipBounded(name: string, bytes: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(name, maxBytes);
    throw new CorruptFileError(
      name,
      `bad gzip: ${(error as Error).message}; expected a complete gzip stream`,
      {
        cause: error,
      },
    );
  }
}

/**
 * zstd through fzstd's streaming decoder (pure JavaScript, so nothing native to install), which decodes
 * frames that do not declare their content size and lets the output be counted as it is produced. fzstd does
 * not check a frame's content checksum, so the frames are found here first: each is decoded on its own, and
 * one that declares a checksum must end with the low 32 bits of the XXH64 of what it decodes to.
 */
function unzstdBounded(name: string, bytes: Uint8Array, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const checks: Array<{ from: number; to: number; checksum: number; frame: number }> = [];
  let total = 0;
  const frames = zstdFrames(name, bytes);
  frames.forEach((frame, index) => {
    const from = total;
    let finished = false;
    const decoder = new Decompress((chunk, final) => {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(name, maxBytes);
      chunks.push(chunk);
      if (final) finished = true;
    });
    try {
      decoder.push(bytes.subarray(frame.start, frame.end), true);
    } catch (error) {
      if (error instanceof CorruptFileError) throw error;
      throw new CorruptFileError(
        name,
        `bad zstd: ${(error as Error).message}; expected a complete zstd frame`,
        {
          cause: error,
        },
      );
    }
    if (!finished)
      throw new CorruptFileError(name, "bad zstd: the frame ends early; expected a complete zstd frame");
    if (frame.checksum !== null) checks.push({ from, to: total, checksum: frame.checksum, frame: index });
  });
  const out = chunks.length === 1 ? chunks[0]! : new Uint8Array(total);
  if (chunks.length !== 1) {
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
  }
  for (const check of checks) {
    const actual = xxhash64(out.subarray(check.from, check.to))[1];
    if (actual !== check.checksum) {
      throw new CorruptFileError(
        name,
        `bad zstd: the content of frame ${check.frame + 1} hashes to ${hex32(actual)} but its checksum is ${hex32(check.checksum)}; expected the bytes the frame was written with`,
      );
    }
  }
  return out;
}

const hex32 = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;

/** A zstd frame's byte range (its checksum included) and the checksum it declares (null: none). */
type ZstdFrame = { start: number; end: number; checksum: number | null };

const ZSTD_MAGIC = 0xfd2fb528;
/** Skippable frames carry a magic number 0x184D2A50 to 0x184D2A5F and a length; they hold no content. */
const SKIPPABLE_MAGIC = 0x184d2a50;
const BLOCK_TYPE_RLE = 1;
const BLOCK_TYPE_RESERVED = 3;

/**
 * The zstd frames of a file, found by walking frame and block headers (RFC 8878) without decoding anything.
 * Anything that is not a whole frame is refused here, naming what is wrong.
 */
function zstdFrames(name: string, bytes: Uint8Array): ZstdFrame[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: ZstdFrame[] = [];
  const bad = (what: string) =>
    new CorruptFileError(name, `bad zstd: ${what}; expected a complete zstd frame`);
  let at = 0;
  while (at < bytes.length) {
    if (bytes.length - at < 4) throw bad(`${bytes.length - at} stray bytes after the last frame`);
    const magic = view.getUint32(at, true);
    if ((magic & 0xfffffff0) === SKIPPABLE_MAGIC) {
      if (bytes.length - at < 8) throw bad("a skippable frame ends early");
      at += 8 + view.getUint32(at + 4, true);
      if (at > bytes.length) throw bad("a skippable frame ends early");
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw bad(`no zstd magic number at offset ${at}`);
    const start = at;
    if (bytes.length - at < 5) throw bad("the frame header ends early");
    const descriptor = bytes[at + 4]!;
    const singleSegment = (descriptor & 0x20) !== 0;
    const hasChecksum = (descriptor & 0x04) !== 0;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 0x03]!;
    const contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][descriptor >>> 6]!;
    at += 5 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes;
    for (let last = false; !last; ) {
      if (bytes.length - at < 3) throw bad("the frame ends early");
      const header = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
      last = (header & 1) === 1;
      const type = (header >>> 1) & 3;
      if (type === BLOCK_TYPE_RESERVED) throw bad(`a block of reserved type at offset ${at}`);
      at += 3 + (type === BLOCK_TYPE_RLE ? 1 : header >>> 3);
    }
    let checksum: number | null = null;
    if (hasChecksum) {
      if (bytes.length - at < 4) throw bad("the content checksum is missing");
      checksum = view.getUint32(at, true);
      at += 4;
    }
    if (at > bytes.length) throw bad("the frame ends early");
    frames.push({ start, end: at, checksum });
  }
  if (frames.length === 0) throw bad("no frame");
  return frames;
}

function tooLarge(name: string, maxBytes: number): CorruptFileError {
  return new CorruptFileError(name, `decompresses to more than ${maxBytes} bytes, the most a block may hold`);
}

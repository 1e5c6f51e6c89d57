/**
 * Decompression of block stream files, bounded: a block is read whole into memory, so a small hostile file
 * that inflates to gigabytes must be refused before it does. The suffix decides the format, as the file names
 * a node writes say (`.blk`, `.blk.gz`, `.blk.zst`, `.blk.zstd`).
 */
import { gunzipSync } from "node:zlib";
import { Decompress } from "fzstd";
import { CorruptFileError } from "../errors.ts";
import { MAX_DECOMPRESSED_BYTES } from "./decompress.ts";

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
 * frames that do not declare their content size and lets the output be counted as it is produced.
 */
function unzstdBounded(name: string, bytes: Uint8Array, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let finished = false;
  const decoder = new Decompress((chunk, final) => {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge(name, maxBytes);
    chunks.push(chunk);
    if (final) finished = true;
  });
  try {
    decoder.push(bytes, true);
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
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function tooLarge(name: string, maxBytes: number): CorruptFileError {
  return new CorruptFileError(name, `decompresses to more than ${maxBytes} bytes, the most a block may hold`);
}

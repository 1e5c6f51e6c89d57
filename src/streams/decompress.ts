/**
 * The one bound on how large a stream file may be, on disk and once decompressed: record files, blocks and
 * balance snapshots are read whole, so a file that expands without limit (a zip bomb, a damaged length) would
 * take the process's memory with it. Readers of every format use this module, so the bound is one number.
 *
 * The default is far above any real file: a record file holds two seconds of transactions (a few MB at
 * mainnet's busiest; the public mirror node downloads at most 50 MiB), and a balance snapshot of a few million
 * accounts is well under it.
 */
import { readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";

/** The most bytes a stream file may hold, read or decompressed: 256 MiB (`--max-file-mb` sets another). */
export const MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024;

/** What a message about a file over the bound adds: what the bound is, and how to change it. */
export const TOO_LARGE_HINT = ", the most a stream file may hold (--max-file-mb)";

/** A file (or its decompressed content) larger than the bound; the message says which bound. */
export class FileTooLargeError extends Error {
  override readonly name = "FileTooLargeError";
}

/** `1.5 MiB`-style sizes for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * Gunzips `bytes`, stopping as soon as the output passes `maxBytes` (so memory never holds more than that):
 * throws FileTooLargeError then, and zlib's own error for a damaged stream.
 */
export function gunzipBounded(bytes: Uint8Array, maxBytes = MAX_DECOMPRESSED_BYTES): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new FileTooLargeError(`decompresses to more than ${formatBytes(maxBytes)}`);
    }
    throw error;
  }
}

/** Reads a whole file unless it is larger than `maxBytes` (FileTooLargeError, without reading it). */
export function readFileBounded(path: string, maxBytes = MAX_DECOMPRESSED_BYTES): Buffer {
  const size = statSync(path).size;
  if (size > maxBytes) {
    throw new FileTooLargeError(`is ${formatBytes(size)}, more than ${formatBytes(maxBytes)}`);
  }
  return readFileSync(path);
}

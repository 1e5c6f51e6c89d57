/**
 * Reads one record stream file of any supported version (2, 5, 6) into a `RecordFile`.
 * Every way a file can be unreadable surfaces as `CorruptFileError` naming the file and what was expected.
 */
import { CorruptFileError } from "../errors.ts";
import { FileTooLargeError, gunzipBounded, MAX_DECOMPRESSED_BYTES, TOO_LARGE_HINT } from "./decompress.ts";
import { readRecordFileV2 } from "./record-v2.ts";
import { readRecordFileV5 } from "./record-v5.ts";
import { readRecordFileV6 } from "./record-v6.ts";
import type { RecordFile } from "./types.ts";

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/**
 * Parses `bytes` (the file as on disk, gzip-compressed when it starts with the gzip magic, as `.rcd.gz`
 * files do), verifies its internal consistency (structure, running hash for v5/v6) and computes the hashes
 * the signature files sign. It does not check signatures or the chain to the previous file.
 */
export function readRecordFile(
  name: string,
  bytes: Uint8Array,
  maxBytes = MAX_DECOMPRESSED_BYTES,
): RecordFile {
  const content = decompress(name, bytes, maxBytes);
  if (content.length < 4) {
    throw new CorruptFileError(name, `missing version: ${content.length} bytes, expected at least 4`);
  }
  const version = new DataView(content.buffer, content.byteOffset, 4).getInt32(0);
  switch (version) {
    case 2:
      return readRecordFileV2(name, content, bytes.length);
    case 5:
      return readRecordFileV5(name, content, bytes.length);
    case 6:
      return readRecordFileV6(name, content, bytes.length);
    default:
      throw new CorruptFileError(name, `unknown record file version ${version}, expected 2, 5 or 6`);
  }
}

/** The file's content: gunzipped (at most `maxBytes`) when it is gzip, else as it is. */
function decompress(name: string, bytes: Uint8Array, maxBytes: number): Uint8Array {
  const gzipped = bytes.length >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
  if (!gzipped) {
    if (name.endsWith(".gz")) {
      throw new CorruptFileError(
        name,
        "bad gzip: the name ends in .gz but the bytes do not start with 1f 8b",
      );
    }
    return bytes;
  }
  try {
    return gunzipBounded(bytes, maxBytes);
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      throw new CorruptFileError(name, `${error.message}${TOO_LARGE_HINT}`, { cause: error });
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new CorruptFileError(name, `bad gzip: ${reason}; expected a complete gzip stream`, {
      cause: error,
    });
  }
}

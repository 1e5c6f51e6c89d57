/**
 * Gzip with a fixed header, so the same input always gives the same bytes: fixture files can then be
 * regenerated and compared byte for byte. zlib's own gzip header is nearly fixed already, but its OS byte
 * depends on the platform zlib was built for; writing the header ourselves removes that.
 */
import { crc32, deflateRawSync } from "node:zlib";

const LEVEL = 9;
// Magic, CM = deflate, no flags, MTIME = 0 (none), XFL = 2 (maximum compression), OS = 255 (unknown).
const HEADER = Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0xff]);

/** Gzips `bytes` deterministically (RFC 1952 single member, level 9, no name, no mtime). */
export function gzipDeterministic(bytes: Uint8Array): Uint8Array {
  const body = deflateRawSync(bytes, { level: LEVEL });
  const out = new Uint8Array(HEADER.length + body.length + 8);
  out.set(HEADER, 0);
  out.set(body, HEADER.length);
  const trailer = new DataView(out.buffer, HEADER.length + body.length, 8);
  trailer.setUint32(0, crc32(bytes), true);
  // ISIZE is the input length modulo 2^32.
  trailer.setUint32(4, bytes.length >>> 0, true);
  return out;
}

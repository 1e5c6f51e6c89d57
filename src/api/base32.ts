/**
 * RFC 4648 base32 (alphabet `A-Z2-7`), the text form of account aliases: upper case and unpadded when written,
 * as the mirror node prints `alias`. Reading follows the decoder the mirror node uses (rfc4648's `parse` with
 * `loose`): padding may be missing, but the text must carry whole bytes (a length of 1, 3 or 6 modulo 8 leaves
 * five or more bits over) and the bits left over after the last byte must be zero.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const BITS = 5;

const VALUES: ReadonlyMap<string, number> = new Map([...ALPHABET].map((c, i) => [c, i]));

/** Base32 of `bytes`, upper case, without padding. */
export function encodeBase32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= BITS) {
      bits -= BITS;
      out += ALPHABET[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (BITS - bits)) & 31];
  return out;
}

/** The bytes of unpadded upper-case base32 text, or null when the text is not a whole, canonical encoding. */
export function decodeBase32(text: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * BITS) / 8));
  let buffer = 0;
  let bits = 0;
  let written = 0;
  for (const char of text) {
    const value = VALUES.get(char);
    if (value === undefined) return null;
    buffer = ((buffer << BITS) | value) & 0xffff;
    bits += BITS;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (buffer >> bits) & 0xff;
    }
  }
  if (bits >= BITS || ((buffer << (8 - bits)) & 0xff) !== 0) return null;
  return out;
}

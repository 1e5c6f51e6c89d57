/**
 * Public-key filter values (`publickey` on /tokens, `account.publickey` on token balances), as upstream's
 * `rest/utils.js` (`isValidPublicKeyQuery`, `parsePublicKey`) and `rest/ed25519.js` (`derToEd25519`) read them.
 *
 * Accepted: optional `0x`, then 64 hex digits (ED25519), 66 (compressed ECDSA secp256k1) or 88 (a DER-encoded
 * ED25519 SubjectPublicKeyInfo). The value is compared lower-case without `0x`, and the DER form is reduced to
 * its raw 32 bytes so it matches the stored `public_key`.
 */

const PUBLIC_KEY = /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{66}|[0-9a-fA-F]{88})$/;

// SEQUENCE { SEQUENCE { OID 1.3.101.112 (Ed25519) }, BIT STRING (0 unused bits, 32 bytes) }: RFC 8410.
const ED25519_DER_PREFIX = "302a300506032b6570032100";

/** True for the three accepted key spellings. */
export function isValidPublicKey(value: string): boolean {
  return PUBLIC_KEY.test(value);
}

/** The value as upstream compares it: no `0x`, lower-case, DER ED25519 reduced to the raw key. */
export function normalizePublicKey(value: string): string {
  const hex = value.replace("0x", "").toLowerCase();
  if (hex.length === ED25519_DER_PREFIX.length + 64 && hex.startsWith(ED25519_DER_PREFIX)) {
    return hex.slice(ED25519_DER_PREFIX.length);
  }
  return hex;
}

import { constants, type KeyObject, verify } from "node:crypto";
import { SignatureError } from "../errors.ts";
import type { SignatureFileContents } from "./signature-file.ts";

/**
 * Checks one node's signature file against the record file it signs, and throws `SignatureError` unless:
 * the file hash in the signature file equals `fileHash` (recomputed from the record file), its signature
 * verifies with the node's key, and for v5/v6 the same holds for `metadataHash` and its signature.
 *
 * What is signed is the 48 hash bytes themselves, with SHA384withRSA (PKCS#1 v1.5), so the RSA digest is
 * SHA-384 of the SHA-384 hash; nodes sign that way and the mirror node importer verifies that way.
 */
export function verifyRecordFileSignature(args: {
  file: string;
  signature: SignatureFileContents;
  fileHash: Uint8Array;
  metadataHash: Uint8Array | null;
  publicKey: KeyObject;
}): void {
  const { file, signature, publicKey } = args;
  const fail = (message: string) => new SignatureError(file, message);
  if (publicKey.type !== "public" || publicKey.asymmetricKeyType !== "rsa") {
    throw fail(
      `the node key is a ${publicKey.type} ${publicKey.asymmetricKeyType ?? "unknown"} key, not RSA public`,
    );
  }

  checkHashAndSignature(fail, "file", signature.fileHash, args.fileHash, signature.fileSignature, publicKey);

  if (signature.metadataHash === null || signature.metadataSignature === null) {
    // A v5/v6 record file carries a metadata hash that a v2 signature file cannot vouch for.
    if (args.metadataHash !== null) {
      throw fail(
        `the v${signature.version} signature file signs no metadata hash, but the record file has one`,
      );
    }
    return;
  }
  if (args.metadataHash === null) {
    throw fail(
      `the v${signature.version} signature file signs a metadata hash, but none was computed for the record file`,
    );
  }
  checkHashAndSignature(
    fail,
    "metadata",
    signature.metadataHash,
    args.metadataHash,
    signature.metadataSignature,
    publicKey,
  );
}

function checkHashAndSignature(
  fail: (message: string) => SignatureError,
  what: "file" | "metadata",
  signedHash: Uint8Array,
  recomputedHash: Uint8Array,
  rsaSignature: Uint8Array,
  publicKey: KeyObject,
): void {
  if (!Buffer.from(signedHash).equals(Buffer.from(recomputedHash))) {
    throw fail(
      `${what} hash mismatch: the signature file signs ${hex(signedHash)} but the record file hashes to ${hex(recomputedHash)}`,
    );
  }
  let valid: boolean;
  try {
    valid = verify(
      "sha384",
      signedHash,
      { key: publicKey, padding: constants.RSA_PKCS1_PADDING },
      rsaSignature,
    );
  } catch {
    // OpenSSL rejects some malformed signatures (e.g. a wrong length) by throwing rather than returning false.
    valid = false;
  }
  if (!valid) {
    throw fail(
      `the ${what} hash signature (SHA384withRSA over ${hex(signedHash)}) does not verify with the node's key`,
    );
  }
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

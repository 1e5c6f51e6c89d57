import { constants, type KeyObject, sign } from "node:crypto";
import { encodeSignatureFileV6 } from "./signature-file-v6-encode.ts";

/**
 * Writes a v6 signature file (`.rcd_sig`) as a node does: version byte 6, then a `SignatureFile` whose two
 * `SignatureObject`s sign the record file's hash and its metadata hash with SHA384withRSA (PKCS#1 v1.5,
 * over the 48 hash bytes). PKCS#1 v1.5 is deterministic, so the same inputs give the same bytes.
 */
export function writeSignatureFileV6(args: {
  fileHash: Uint8Array;
  metadataHash: Uint8Array;
  privateKey: KeyObject;
}): Uint8Array {
  const { fileHash, metadataHash, privateKey } = args;
  if (privateKey.type !== "private" || privateKey.asymmetricKeyType !== "rsa") {
    throw new TypeError(
      `writeSignatureFileV6 needs an RSA private key, got a ${privateKey.type} ${privateKey.asymmetricKeyType} key`,
    );
  }
  const signHash = (hash: Uint8Array) =>
    sign("sha384", hash, { key: privateKey, padding: constants.RSA_PKCS1_PADDING });
  return encodeSignatureFileV6({
    fileHash,
    fileSignature: signHash(fileHash),
    metadataHash,
    metadataSignature: signHash(metadataHash),
  });
}

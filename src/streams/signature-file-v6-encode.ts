import { proto } from "./proto.ts";
import { SHA384_LENGTH, SIG_V6_VERSION, SIGNATURE_CHECKSUM_BASE } from "./signature-constants.ts";

/** The four values a v6 signature file carries. */
export type SignatureFileV6Parts = {
  fileHash: Uint8Array;
  fileSignature: Uint8Array;
  metadataHash: Uint8Array;
  metadataSignature: Uint8Array;
};

/**
 * Lays out hashes and their signatures as a v6 signature file exactly as a node writes it: version byte 6,
 * then a `SignatureFile` whose `SignatureObject`s carry type SHA_384_WITH_RSA, `length`, `checksum`
 * (101 - length), the signature and a SHA-384 `HashObject`. Fields go in field-number order with none left
 * at its default, which is what the Java writer's deterministic serialization produces; every real v6
 * signature file re-encodes to its own bytes.
 */
export function encodeSignatureFileV6(parts: SignatureFileV6Parts): Uint8Array {
  const body = proto.SignatureFile.encode({
    fileSignature: signatureObject(parts.fileHash, parts.fileSignature),
    metadataSignature: signatureObject(parts.metadataHash, parts.metadataSignature),
  }).finish();
  const out = new Uint8Array(1 + body.length);
  out[0] = SIG_V6_VERSION;
  out.set(body, 1);
  return out;
}

function signatureObject(hash: Uint8Array, signature: Uint8Array): proto.ISignatureObject {
  if (hash.length !== SHA384_LENGTH) {
    throw new RangeError(`a signed hash must be ${SHA384_LENGTH} bytes, got ${hash.length}`);
  }
  return {
    type: proto.SignatureType.SHA_384_WITH_RSA,
    length: signature.length,
    checksum: SIGNATURE_CHECKSUM_BASE - signature.length,
    signature,
    hashObject: { algorithm: proto.HashAlgorithm.SHA_384, length: SHA384_LENGTH, hash },
  };
}

import { CorruptFileError } from "../errors.ts";
import { proto } from "./proto.ts";
import {
  MAX_SIGNATURE_LENGTH,
  SHA384_LENGTH,
  SIG_V6_VERSION,
  SIGNATURE_CHECKSUM_BASE,
} from "./signature-constants.ts";
import type { SignatureFileContents } from "./signature-file.ts";
import { encodeSignatureFileV6 } from "./signature-file-v6-encode.ts";

/**
 * v6: version byte 6, then a `SignatureFile` protobuf holding two `SignatureObject`s (file, metadata), each
 * with its type, length, checksum, signature bytes and the `HashObject` it signs. Nodes always fill every
 * field, so a missing or inconsistent one means the file is damaged. The bytes must also be the one
 * encoding a node writes for those values: protobuf decoders forgive some damage (a field's wire type, an
 * unknown field), and a signature file that is not byte-for-byte what its node wrote is not to be trusted.
 */
export function readSignatureFileV6(name: string, bytes: Uint8Array): SignatureFileContents {
  if (bytes[0] !== SIG_V6_VERSION) {
    throw new CorruptFileError(name, `version is ${bytes[0]}, expected ${SIG_V6_VERSION}`);
  }
  let decoded: proto.SignatureFile;
  try {
    decoded = proto.SignatureFile.decode(bytes.subarray(1));
  } catch (error) {
    throw new CorruptFileError(name, `undecodable SignatureFile protobuf: ${String(error)}`, {
      cause: error,
    });
  }
  const file = readSignatureObject(name, decoded.fileSignature, "file signature");
  const metadata = readSignatureObject(name, decoded.metadataSignature, "metadata signature");
  const canonical = encodeSignatureFileV6({
    fileHash: file.hash,
    fileSignature: file.signature,
    metadataHash: metadata.hash,
    metadataSignature: metadata.signature,
  });
  if (!Buffer.from(canonical).equals(Buffer.from(bytes))) {
    throw new CorruptFileError(
      name,
      "SignatureFile protobuf is not laid out as nodes write it (extra or altered framing)",
    );
  }
  return {
    version: 6,
    fileHash: file.hash,
    fileSignature: file.signature,
    metadataHash: metadata.hash,
    metadataSignature: metadata.signature,
  };
}

function readSignatureObject(
  name: string,
  object: proto.ISignatureObject | null | undefined,
  section: string,
): { hash: Uint8Array; signature: Uint8Array } {
  const fail = (message: string) => new CorruptFileError(name, `${section}: ${message}`);
  if (object == null) throw fail("missing");
  if (object.type !== proto.SignatureType.SHA_384_WITH_RSA) {
    throw fail(`type is ${object.type ?? 0}, expected SHA_384_WITH_RSA (1)`);
  }
  const signature = Uint8Array.from(object.signature ?? []);
  if (signature.length < 1 || signature.length > MAX_SIGNATURE_LENGTH) {
    throw fail(`signature is ${signature.length} bytes, expected 1 to ${MAX_SIGNATURE_LENGTH}`);
  }
  if (object.length !== signature.length) {
    throw fail(`length field is ${object.length ?? 0} but the signature is ${signature.length} bytes`);
  }
  if (object.checksum !== SIGNATURE_CHECKSUM_BASE - signature.length) {
    throw fail(`checksum is ${object.checksum ?? 0}, expected ${SIGNATURE_CHECKSUM_BASE - signature.length}`);
  }
  const hashObject = object.hashObject;
  if (hashObject == null) throw fail("hash object missing");
  if (hashObject.algorithm !== proto.HashAlgorithm.SHA_384) {
    throw fail(`hash algorithm is ${hashObject.algorithm ?? 0}, expected SHA_384 (1)`);
  }
  const hash = Uint8Array.from(hashObject.hash ?? []);
  if (hash.length !== SHA384_LENGTH || hashObject.length !== SHA384_LENGTH) {
    throw fail(
      `hash is ${hash.length} bytes with length field ${hashObject.length ?? 0}, expected ${SHA384_LENGTH}`,
    );
  }
  return { hash, signature };
}

import { SignatureByteReader } from "./signature-byte-reader.ts";
import {
  HASH_CLASS_ID,
  HASH_CLASS_VERSION,
  MAX_SIGNATURE_LENGTH,
  RSA_SIGNATURE_TYPE,
  SHA384_DIGEST_TYPE,
  SHA384_LENGTH,
  SIG_V5_OBJECT_STREAM_SIG_VERSION,
  SIG_V5_VERSION,
  SIGNATURE_CHECKSUM_BASE,
  SIGNATURE_CLASS_ID,
  SIGNATURE_CLASS_VERSION,
} from "./signature-constants.ts";
import type { SignatureFileContents } from "./signature-file.ts";

/**
 * v5: version byte 5, int object-stream signature version (1), then two Java-serialized pairs of a swirlds
 * `Hash` and `Signature`: the file hash and its signature, then the metadata hash and its signature.
 * Every constant is checked, so a changed byte anywhere is either refused here or fails verification.
 */
export function readSignatureFileV5(name: string, bytes: Uint8Array): SignatureFileContents {
  const reader = new SignatureByteReader(name, bytes);
  reader.expectByte(SIG_V5_VERSION, "version");
  reader.expectInt(SIG_V5_OBJECT_STREAM_SIG_VERSION, "object stream signature version");
  const fileHash = readHashObject(reader, "file hash");
  const fileSignature = readSignatureObject(reader, "file signature");
  const metadataHash = readHashObject(reader, "metadata hash");
  const metadataSignature = readSignatureObject(reader, "metadata signature");
  reader.expectEnd();
  return { version: 5, fileHash, fileSignature, metadataHash, metadataSignature };
}

/** class id (long), class version, digest type, length (48), digest. */
function readHashObject(reader: SignatureByteReader, section: string): Uint8Array {
  reader.expectLong(HASH_CLASS_ID, `${section} class id`);
  reader.expectInt(HASH_CLASS_VERSION, `${section} class version`);
  reader.expectInt(SHA384_DIGEST_TYPE, `${section} digest type`);
  return reader.readLengthAndBytes(SHA384_LENGTH, SHA384_LENGTH, section);
}

/** class id (long), class version, signature type, length, checksum (101 - length), signature. */
function readSignatureObject(reader: SignatureByteReader, section: string): Uint8Array {
  reader.expectLong(SIGNATURE_CLASS_ID, `${section} class id`);
  reader.expectInt(SIGNATURE_CLASS_VERSION, `${section} class version`);
  reader.expectInt(RSA_SIGNATURE_TYPE, `${section} type`);
  const length = reader.readInt(`${section} length`);
  if (length < 1 || length > MAX_SIGNATURE_LENGTH) {
    throw reader.fail(`${section} length is ${length}, expected 1 to ${MAX_SIGNATURE_LENGTH}`);
  }
  reader.expectInt(SIGNATURE_CHECKSUM_BASE - length, `${section} checksum`);
  return reader.readBytes(length, section);
}

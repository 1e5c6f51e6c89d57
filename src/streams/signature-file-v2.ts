import { SignatureByteReader } from "./signature-byte-reader.ts";
import {
  MAX_SIGNATURE_LENGTH,
  SHA384_LENGTH,
  SIG_V2_FILE_HASH_TYPE,
  SIG_V2_SIGNATURE_TYPE,
} from "./signature-constants.ts";
import type { SignatureFileContents } from "./signature-file.ts";

/**
 * v2 (also the form of old balance `_sig` files): type byte 4 + 48-byte file hash, then type byte 3 +
 * int length + signature bytes, and nothing after.
 */
export function readSignatureFileV2(name: string, bytes: Uint8Array): SignatureFileContents {
  const reader = new SignatureByteReader(name, bytes);
  reader.expectByte(SIG_V2_FILE_HASH_TYPE, "file hash type byte");
  const fileHash = reader.readBytes(SHA384_LENGTH, "file hash");
  reader.expectByte(SIG_V2_SIGNATURE_TYPE, "signature type byte");
  const fileSignature = reader.readLengthAndBytes(1, MAX_SIGNATURE_LENGTH, "file signature");
  reader.expectEnd();
  return { version: 2, fileHash, fileSignature, metadataHash: null, metadataSignature: null };
}

import { CorruptFileError } from "../errors.ts";
import { SIG_V2_FILE_HASH_TYPE, SIG_V5_VERSION, SIG_V6_VERSION } from "./signature-constants.ts";
import { readSignatureFileV2 } from "./signature-file-v2.ts";
import { readSignatureFileV5 } from "./signature-file-v5.ts";
import { readSignatureFileV6 } from "./signature-file-v6.ts";

/** What a node's signature file (`.rcd_sig`, or a balance file's `_sig`) says, whatever its format. */
export type SignatureFileContents = {
  version: 2 | 5 | 6;
  /** 48 bytes: the hash the node signed for the whole record file. */
  fileHash: Uint8Array;
  /** RSA PKCS#1 v1.5 signature (SHA384withRSA) over the 48 bytes of `fileHash`. */
  fileSignature: Uint8Array;
  /** 48 bytes for v5/v6: the record file's metadata hash; null for v2, which signs no metadata. */
  metadataHash: Uint8Array | null;
  /** SHA384withRSA signature over the 48 bytes of `metadataHash`; null for v2. */
  metadataSignature: Uint8Array | null;
};

/**
 * Reads a signature file of any version, told apart by its first byte: 4 (v2, which opens with the
 * file-hash type byte), 5 or 6. Throws `CorruptFileError` naming the file and the first bad field.
 */
export function readSignatureFile(name: string, bytes: Uint8Array): SignatureFileContents {
  const first = bytes[0];
  switch (first) {
    case SIG_V2_FILE_HASH_TYPE:
      return readSignatureFileV2(name, bytes);
    case SIG_V5_VERSION:
      return readSignatureFileV5(name, bytes);
    case SIG_V6_VERSION:
      return readSignatureFileV6(name, bytes);
    case undefined:
      throw new CorruptFileError(name, "empty signature file");
    default:
      throw new CorruptFileError(
        name,
        `unknown signature file format: first byte is ${first}, expected 4, 5 or 6`,
      );
  }
}

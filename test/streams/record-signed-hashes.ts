/**
 * Pulls the hashes a node signed out of a real `.rcd_sig` file, just enough to check the reader's fileHash
 * and metadataHash against what consensus nodes actually signed. Full signature-file parsing and signature
 * verification live elsewhere (src/streams/signature-*); this only locates the hash bytes.
 */
import { proto } from "../../src/streams/proto.ts";

const HASH = 48;
// swirlds hash object: int64 class id, int32 class version, int32 digest type, int32 length, then the hash.
const HASH_OBJECT_HEADER = 8 + 4 + 4 + 4;
// swirlds signature object: int64 class id, int32 class version, int32 type, int32 length, int32 checksum.
const SIGNATURE_OBJECT_HEADER = 8 + 4 + 4 + 4 + 4;

export type SignedHashes = { fileHash: Uint8Array; metadataHash: Uint8Array | null };

export function signedHashes(sig: Uint8Array): SignedHashes {
  const view = new DataView(sig.buffer, sig.byteOffset, sig.byteLength);
  switch (sig[0]) {
    case 4:
      // v2: byte 4, 48-byte file hash, byte 3, int32 length, signature.
      return { fileHash: sig.subarray(1, 1 + HASH), metadataHash: null };
    case 5: {
      // v5: byte 5, int32 object stream version, file hash object, its signature object, metadata hash object, ...
      const fileHashAt = 5 + HASH_OBJECT_HEADER;
      const signatureAt = fileHashAt + HASH;
      const signatureLength = view.getInt32(signatureAt + 16);
      const metadataHashAt = signatureAt + SIGNATURE_OBJECT_HEADER + signatureLength + HASH_OBJECT_HEADER;
      return {
        fileHash: sig.subarray(fileHashAt, fileHashAt + HASH),
        metadataHash: sig.subarray(metadataHashAt, metadataHashAt + HASH),
      };
    }
    case 6: {
      const file = proto.SignatureFile.decode(sig.subarray(1));
      const fileHash = file.fileSignature?.hashObject?.hash;
      const metadataHash = file.metadataSignature?.hashObject?.hash;
      if (!fileHash || !metadataHash) throw new Error("v6 signature file without hashes");
      return { fileHash, metadataHash };
    }
    default:
      throw new Error(`unknown signature file version byte ${sig[0]}`);
  }
}

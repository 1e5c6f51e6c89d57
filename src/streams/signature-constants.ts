/**
 * Fixed values of the record signature file formats, as the consensus nodes write them.
 * Sources: the swirlds `TimestampStreamFileWriter` (v5), the services `RecordStreamFileWriter` (v6), and the
 * mirror node importer's `SignatureFileReaderV2`/`V5` and `ProtoSignatureFileReader`, which read them back.
 */

/** Every signed hash is SHA-384. */
export const SHA384_LENGTH = 48;

/** A 3072-bit RSA signature; the importer refuses anything longer. */
export const MAX_SIGNATURE_LENGTH = 384;

/** Nodes store `101 - length` next to a signature's length so a reader can tell it is at the right offset. */
export const SIGNATURE_CHECKSUM_BASE = 101;

/** First byte of each signature file format. v2 has no version byte: it opens with the file-hash type byte. */
export const SIG_V2_FILE_HASH_TYPE = 4;
export const SIG_V2_SIGNATURE_TYPE = 3;
export const SIG_V5_VERSION = 5;
export const SIG_V6_VERSION = 6;

/** v5: the int after the version byte (swirlds `OBJECT_STREAM_SIG_VERSION`). */
export const SIG_V5_OBJECT_STREAM_SIG_VERSION = 1;

/** v5: Java-serialized swirlds `Hash` (class id, class version) and its SHA-384 digest type id. */
export const HASH_CLASS_ID = 0xf422da83a251741en;
export const HASH_CLASS_VERSION = 1;
export const SHA384_DIGEST_TYPE = 0x58ff811b;

/** v5: Java-serialized swirlds `Signature` (class id, class version) and its RSA signature type id. */
export const SIGNATURE_CLASS_ID = 0x13dc4b399b245c69n;
export const SIGNATURE_CLASS_VERSION = 1;
export const RSA_SIGNATURE_TYPE = 1;

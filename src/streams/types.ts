/**
 * What the `streams` layer hands to ingestion: one record stream file, whatever its version, reduced to
 * the facts ingestion and the blocks API need. Transactions and records stay as the raw protobuf bytes
 * the node wrote; ingestion decodes them once.
 */

export type HapiVersion = { major: number; minor: number; patch: number };

export type RecordItem = {
  /** A serialized HAPI `Transaction`, exactly as it stands in the file. */
  transactionBytes: Uint8Array;
  /** A serialized HAPI `TransactionRecord`, exactly as it stands in the file. */
  recordBytes: Uint8Array;
  /**
   * The transaction's `TransactionBody` bytes when a reader found them already (ingest/prepared-record-file.ts);
   * absent, ingestion finds them in `transactionBytes`.
   */
  bodyBytes?: Uint8Array;
};

export type RecordStreamVersion = 2 | 5 | 6;

/** A sidecar file a v6 record file lists: `sidecar/<record name>_<id as 2 digits>.rcd.gz` beside it. */
export type SidecarMetadata = {
  id: number;
  /** SHA-384 of the sidecar file's decompressed bytes. */
  hash: Uint8Array;
  /** `SidecarType` values (1 state changes, 2 actions, 3 bytecode). */
  types: number[];
};

export type RecordFile = {
  /** File name as found on disk, e.g. `2022-07-13T08_46_08.041986003Z.rcd.gz`. */
  name: string;
  version: RecordStreamVersion;
  /** HAPI version from the header (v5) or `hapi_proto_version` (v6); null for v2 or when unknown. */
  hapiVersion: HapiVersion | null;
  /** v6: `RecordStreamFile.block_number`; null for v2/v5 (ingestion numbers those files itself). */
  blockNumber: bigint | null;
  /** 48 bytes. v5/v6: start object running hash; v2: previous file hash from the header. */
  previousHash: Uint8Array;
  /**
   * 48 bytes. v5/v6: end object running hash; v2: the file hash, SHA-384(header ‖ SHA-384(body)), which the
   * next v2 file names as its previous hash. This is the block hash.
   */
  hash: Uint8Array;
  /**
   * 48 bytes: what a signature file signs. v5/v6: SHA-384 over the uncompressed file bytes; v2: the same value
   * as `hash`.
   */
  fileHash: Uint8Array;
  /** 48 bytes for v5/v6 (the metadata hash that signature files also sign); null for v2. */
  metadataHash: Uint8Array | null;
  /** Size in bytes of the file as on disk (compressed when gzipped). */
  sizeBytes: number;
  items: RecordItem[];
  /** v6: the sidecar files the record file lists (absent or empty: none). */
  sidecars?: SidecarMetadata[];
};

/** Input of the v6 writer (fixtures): everything a node decides when it closes a record file. */
export type RecordFileV6Input = {
  hapiVersion: HapiVersion;
  blockNumber: bigint;
  /** 48 bytes: the previous file's end running hash (all zeros for the first file of a stream). */
  startRunningHash: Uint8Array;
  items: RecordItem[];
  /** The sidecar files written beside it, listed in the file (field 6). */
  sidecars?: SidecarMetadata[];
};

export type WrittenRecordFile = {
  /** The uncompressed file bytes: 4-byte big-endian version 6, then a `RecordStreamFile`. */
  bytes: Uint8Array;
  /** The same bytes gzip-compressed deterministically (what `.rcd.gz` holds). */
  gzipBytes: Uint8Array;
  endRunningHash: Uint8Array;
  fileHash: Uint8Array;
  metadataHash: Uint8Array;
};

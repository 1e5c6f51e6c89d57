/**
 * Reads one block stream file (HIP-1056): a `Block` protobuf, a list of `BlockItem`s. The items are grouped
 * into transactions the way the mirror node importer's `BlockStreamReaderImpl` does, and the block root hash is
 * recomputed over the items (block-hash.ts). Every way a block can be unreadable surfaces as
 * `CorruptFileError` naming the file.
 *
 * The TSS signature in the block proof cannot be verified in Node today: the proof is read and kept as
 * unverified. A block's root is instead checked through the chain: the next block's footer names it.
 */
import { CorruptFileError } from "../errors.ts";
import { decompressBlock, MAX_BLOCK_BYTES } from "./block-decompress.ts";
import { type BlockTreeInputs, blockRootHash, StreamingTreeHasher } from "./block-hash.ts";
import { BLOCK_ITEMS, FOOTER, HEADER, ITEM, PROOF, RESULT, SHA2_384, STATE } from "./block-items.ts";
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from "./protobuf-wire.ts";
import { bodyCaseOf, lastField } from "./transaction-body-bytes.ts";
import type { HapiVersion } from "./types.ts";

/** `record_file.version` of blocks read from block streams (the importer's `BlockFile.VERSION`). */
export const BLOCK_STREAM_VERSION = 7;

/** One transaction of a block: the items the importer groups under its signed transaction. */
export type BlockTransaction = {
  /** A serialized `SignedTransaction` (from its own item, or from an atomic batch's body). */
  signedTransactionBytes: Uint8Array;
  /** Its `TransactionBody` bytes. */
  bodyBytes: Uint8Array;
  /** The body's `data` member (`"tokenMint"`…), read off the wire; the body is decoded only when needed. */
  bodyCase: string | undefined;
  /** The serialized `TransactionResult`. */
  resultBytes: Uint8Array;
  consensusNs: bigint;
  /** Set for child transactions: the consensus time of the parent. */
  parentConsensusNs: bigint | null;
  status: number;
  /** Serialized `TransactionOutput`s, in order. */
  outputs: readonly Uint8Array[];
  /** Serialized `TraceData`s, in order. */
  traces: readonly Uint8Array[];
  /** Serialized `StateChanges` that share the result's consensus time, in order. */
  stateChanges: readonly Uint8Array[];
  /** True for a transaction taken from an atomic batch's body rather than from its own item. */
  inBatch: boolean;
};

export type BlockProofInfo = { kind: "tss" | "other" | "none"; verified: false };

export type BlockFile = {
  /** The name it was read by (errors name it), e.g. the path below the folder. */
  name: string;
  number: bigint;
  hapiVersion: HapiVersion;
  softwareVersion: HapiVersion | null;
  blockTimestampNs: bigint;
  /** The footer's previous block root hash (48 bytes). */
  previousHash: Uint8Array;
  /** The recomputed root hash (48 bytes): the block's hash. */
  hash: Uint8Array;
  /** Size of the file as on disk (compressed when it is). */
  sizeBytes: number;
  transactions: BlockTransaction[];
  /** First and last transaction's consensus time; the block timestamp for a block without transactions. */
  consensusStart: bigint;
  consensusEnd: bigint;
  proof: BlockProofInfo;
};

type Item = { kind: number; content: Uint8Array };

const NONE: readonly Uint8Array[] = [];

/** Decompresses (bounded by `maxBytes`) and reads a block file as on disk. */
export function readBlockFile(name: string, fileBytes: Uint8Array, maxBytes = MAX_BLOCK_BYTES): BlockFile {
  const bytes = decompressBlock(name, fileBytes, maxBytes);
  return readBlock(name, bytes, fileBytes.length);
}

/** Reads an uncompressed `Block`; `sizeBytes` is the size of the file it came from. */
export function readBlock(name: string, bytes: Uint8Array, sizeBytes: number): BlockFile {
  const hashers = {
    consensusHeaders: new StreamingTreeHasher(),
    inputs: new StreamingTreeHasher(),
    outputs: new StreamingTreeHasher(),
    stateChanges: new StreamingTreeHasher(),
    traceData: new StreamingTreeHasher(),
  };
  const items = splitItems(name, bytes, (kind, item) => {
    if (kind === ITEM.blockHeader || kind === ITEM.transactionResult || kind === ITEM.transactionOutput) {
      hashers.outputs.addLeaf(item);
    } else if (kind === ITEM.eventHeader || kind === ITEM.roundHeader) hashers.consensusHeaders.addLeaf(item);
    else if (kind === ITEM.signedTransaction) hashers.inputs.addLeaf(item);
    else if (kind === ITEM.stateChanges) hashers.stateChanges.addLeaf(item);
    else if (kind === ITEM.traceData) hashers.traceData.addLeaf(item);
  });

  const first = items[0];
  if (first === undefined || first.kind !== ITEM.blockHeader) {
    throw new CorruptFileError(name, "the block does not start with a block header");
  }
  if (items.some((i) => i.kind === ITEM.recordFile)) {
    throw new CorruptFileError(name, "holds a wrapped record file (RecordFileItem), which is not supported");
  }
  const header = readHeader(name, first.content);
  const footerItem = items.find((i) => i.kind === ITEM.blockFooter);
  if (footerItem === undefined) throw new CorruptFileError(name, "missing block footer");
  const footer = readFooter(name, footerItem.content);
  const proofItem = items.find((i) => i.kind === ITEM.blockProof);
  if (proofItem === undefined) throw new CorruptFileError(name, "missing block proof");
  const proof = readProof(name, proofItem.content, header.number);

  const tree: BlockTreeInputs = {
    blockTimestampBytes: header.timestampBytes,
    previousBlockRoot: footer.previousBlockRoot,
    allPreviousBlocksRoot: footer.allPreviousBlocksRoot,
    startOfBlockStateRoot: footer.startOfBlockStateRoot,
    consensusHeaders: hashers.consensusHeaders.root(),
    inputs: hashers.inputs.root(),
    outputs: hashers.outputs.root(),
    stateChanges: hashers.stateChanges.root(),
    traceData: hashers.traceData.root(),
  };
  const transactions = groupTransactions(name, items);
  let consensusStart = header.timestampNs;
  let consensusEnd = header.timestampNs;
  if (transactions.length > 0) {
    consensusStart = transactions[0]!.consensusNs;
    consensusEnd = transactions[0]!.consensusNs;
    for (const { consensusNs } of transactions) {
      if (consensusNs < consensusStart) consensusStart = consensusNs;
      if (consensusNs > consensusEnd) consensusEnd = consensusNs;
    }
  }
  return {
    name,
    number: header.number,
    hapiVersion: header.hapiVersion,
    softwareVersion: header.softwareVersion,
    blockTimestampNs: header.timestampNs,
    previousHash: footer.previousBlockRoot,
    hash: blockRootHash(tree),
    sizeBytes,
    transactions,
    consensusStart,
    consensusEnd,
    proof,
  };
}

/**
 * The block's items in order, each handed to `hashLeaf` (its whole serialized `BlockItem`, as the root hash
 * takes it) as it is read, so that only its content is kept.
 */
function splitItems(
  name: string,
  bytes: Uint8Array,
  hashLeaf: (kind: number, item: Uint8Array) => void,
): Item[] {
  const reader = new WireReader(name, bytes, "Block");
  const items: Item[] = [];
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if (tag >>> 3 !== BLOCK_ITEMS) {
      reader.skip(tag & 7, bytes.length);
      continue;
    }
    reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
    const end = reader.lengthDelimitedEnd(bytes.length);
    const start = reader.pos;
    // A BlockItem is a oneof: one length-delimited field holding the item, read in place.
    reader.context = `BlockItem ${items.length}`;
    if (end === start) reader.fail("empty item");
    const itemTag = reader.tag(end);
    reader.expectWireType(itemTag, WIRE_LENGTH_DELIMITED);
    const content = reader.lengthDelimited(end);
    if (reader.pos !== end) reader.fail("more than one field in a BlockItem");
    reader.context = "Block";
    const kind = itemTag >>> 3;
    hashLeaf(kind, bytes.subarray(start, end));
    items.push({ kind, content });
  }
  return items;
}

type Header = {
  number: bigint;
  hapiVersion: HapiVersion;
  softwareVersion: HapiVersion | null;
  timestampBytes: Uint8Array;
  timestampNs: bigint;
};

/** A `BlockHeader`; throws `CorruptFileError` naming `name` unless it is one. */
export function readHeader(name: string, bytes: Uint8Array): Header {
  const reader = new WireReader(name, bytes, "BlockHeader");
  let hapiVersion: HapiVersion | null = null;
  let softwareVersion: HapiVersion | null = null;
  let number = 0n;
  let timestampBytes: Uint8Array | null = null;
  let algorithm = SHA2_384;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    switch (tag >>> 3) {
      case HEADER.hapiProtoVersion:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        hapiVersion = readSemanticVersion(reader, reader.lengthDelimitedEnd(bytes.length));
        break;
      case HEADER.softwareVersion:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        softwareVersion = readSemanticVersion(reader, reader.lengthDelimitedEnd(bytes.length));
        break;
      case HEADER.number:
        reader.expectWireType(tag, WIRE_VARINT);
        number = BigInt.asUintN(64, reader.int64(bytes.length));
        break;
      case HEADER.blockTimestamp:
        reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
        timestampBytes = reader.lengthDelimited(bytes.length);
        break;
      case HEADER.hashAlgorithm:
        reader.expectWireType(tag, WIRE_VARINT);
        algorithm = reader.uint32(bytes.length);
        break;
      default:
        reader.skip(tag & 7, bytes.length);
    }
  }
  if (algorithm !== SHA2_384) {
    throw new CorruptFileError(
      name,
      `unsupported hash algorithm ${algorithm} in the block header, expected SHA2_384`,
    );
  }
  if (hapiVersion === null) throw new CorruptFileError(name, "the block header has no hapi_proto_version");
  if (timestampBytes === null) throw new CorruptFileError(name, "the block header has no block_timestamp");
  return {
    number,
    hapiVersion,
    softwareVersion,
    timestampBytes,
    timestampNs: readTimestamp(name, timestampBytes),
  };
}

function readSemanticVersion(reader: WireReader, end: number): HapiVersion {
  const version = { major: 0, minor: 0, patch: 0 };
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field >= 1 && field <= 3 && (tag & 7) === WIRE_VARINT) {
      const value = reader.int32(end);
      if (field === 1) version.major = value;
      else if (field === 2) version.minor = value;
      else version.patch = value;
    } else reader.skip(tag & 7, end);
  }
  return version;
}

/** A `Timestamp` {1 seconds, 2 nanos} in nanoseconds. */
export function readTimestamp(name: string, bytes: Uint8Array): bigint {
  const reader = new WireReader(name, bytes, "Timestamp");
  let seconds = 0n;
  let nanos = 0;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if (tag >>> 3 === 1 && (tag & 7) === WIRE_VARINT) seconds = reader.int64(bytes.length);
    else if (tag >>> 3 === 2 && (tag & 7) === WIRE_VARINT) nanos = reader.int32(bytes.length);
    else reader.skip(tag & 7, bytes.length);
  }
  return seconds * 1_000_000_000n + BigInt(nanos);
}

type Footer = {
  previousBlockRoot: Uint8Array;
  allPreviousBlocksRoot: Uint8Array;
  startOfBlockStateRoot: Uint8Array;
};

function readFooter(name: string, bytes: Uint8Array): Footer {
  const reader = new WireReader(name, bytes, "BlockFooter");
  const values = new Map<number, Uint8Array>();
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if (field >= 1 && field <= 3) {
      reader.expectWireType(tag, WIRE_LENGTH_DELIMITED);
      values.set(field, reader.lengthDelimited(bytes.length));
    } else reader.skip(tag & 7, bytes.length);
  }
  // Proto3 leaves empty bytes out; the importer hashes them as empty, and so does this.
  return {
    previousBlockRoot: values.get(FOOTER.previousBlockRootHash) ?? new Uint8Array(),
    allPreviousBlocksRoot: values.get(FOOTER.rootHashOfAllBlockHashesTree) ?? new Uint8Array(),
    startOfBlockStateRoot: values.get(FOOTER.startOfBlockStateRootHash) ?? new Uint8Array(),
  };
}

function readProof(name: string, bytes: Uint8Array, number: bigint): BlockProofInfo {
  const reader = new WireReader(name, bytes, "BlockProof");
  let kind: BlockProofInfo["kind"] = "none";
  let block: bigint | null = null;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if (field === PROOF.block && (tag & 7) === WIRE_VARINT)
      block = BigInt.asUintN(64, reader.int64(bytes.length));
    else {
      if (field === PROOF.signedBlockProof) kind = "tss";
      else if (kind === "none" && (tag & 7) === WIRE_LENGTH_DELIMITED) kind = "other";
      reader.skip(tag & 7, bytes.length);
    }
  }
  if (block !== null && block !== number) {
    throw new CorruptFileError(
      name,
      `the block proof is for block ${block} but the header says block ${number}`,
    );
  }
  return { kind, verified: false };
}

/**
 * Groups items into transactions as the importer reads them: a signed transaction, then (skipping state changes
 * that are not the transaction's) its result, outputs, trace data and the state changes that carry the result's
 * consensus time. A signed transaction without a result is a system transaction and is not a transaction of the
 * block. The inner transactions of an atomic batch come from the batch's body, one per following result.
 */
function groupTransactions(name: string, items: readonly Item[]): BlockTransaction[] {
  const transactions: BlockTransaction[] = [];
  let index = 0;
  let batch: { inner: Uint8Array[]; next: number } | null = null;
  const at = () => items[index];
  /** Advances past state changes that belong to no transaction, to the next item of `kind` (or not). */
  const take = (kind: number, skipStateChanges: boolean): Item | null => {
    while (index < items.length) {
      const item = items[index]!;
      if (item.kind === kind) {
        index += 1;
        return item;
      }
      if (skipStateChanges && item.kind === ITEM.stateChanges) index += 1;
      else return null;
    }
    return null;
  };
  while (index < items.length) {
    const item = at()!;
    let signed: Uint8Array | null = null;
    let inBatch = false;
    if (item.kind === ITEM.signedTransaction) {
      index += 1;
      signed = item.content;
    } else if (item.kind === ITEM.transactionResult && batch !== null && batch.next < batch.inner.length) {
      signed = batch.inner[batch.next++]!;
      inBatch = true;
    } else {
      index += 1;
      continue;
    }
    const resultItem = take(ITEM.transactionResult, true);
    if (resultItem === null) {
      // A batch's inner transaction that did not run (an earlier one failed) has no result: the batch ends.
      if (inBatch) batch = null;
      continue;
    }
    const result = readResultHead(name, resultItem.content);
    // Most transactions have no outputs or trace data: they share one empty list.
    let outputs = NONE;
    for (
      let output = take(ITEM.transactionOutput, false);
      output !== null;
      output = take(ITEM.transactionOutput, false)
    ) {
      outputs = [...outputs, output.content];
    }
    let traces = NONE;
    for (let trace = take(ITEM.traceData, false); trace !== null; trace = take(ITEM.traceData, false)) {
      traces = [...traces, trace.content];
    }
    let stateChanges = NONE;
    while (index < items.length && items[index]!.kind === ITEM.stateChanges) {
      const changes = items[index]!.content;
      index += 1;
      // The importer stops at the first set of another time; that set is consumed with no transaction.
      if (stateChangesTime(name, changes) !== result.consensusNs) break;
      stateChanges = [...stateChanges, changes];
    }
    const bodyBytes: Uint8Array = signedTransactionField(signed, SIGNED_BODY_BYTES) ?? new Uint8Array();
    let bodyCase: string | undefined;
    let inner: Uint8Array[] | null = null;
    try {
      bodyCase = bodyCaseOf(bodyBytes);
      if (!inBatch && bodyCase === "atomicBatch") inner = atomicBatchTransactions(bodyBytes);
    } catch (cause) {
      throw new CorruptFileError(
        name,
        `transaction at ${result.consensusNs} does not decode: ${(cause as Error).message}`,
        { cause },
      );
    }
    transactions.push({
      signedTransactionBytes: signed,
      bodyBytes,
      bodyCase,
      resultBytes: resultItem.content,
      consensusNs: result.consensusNs,
      parentConsensusNs: result.parentConsensusNs,
      status: result.status,
      outputs,
      traces,
      stateChanges,
      inBatch,
    });
    if (inner !== null) batch = { inner, next: 0 };
  }
  return transactions;
}

function readResultHead(
  name: string,
  bytes: Uint8Array,
): { status: number; consensusNs: bigint; parentConsensusNs: bigint | null } {
  const reader = new WireReader(name, bytes, "TransactionResult");
  let status = 0;
  let consensusNs = 0n;
  let parentConsensusNs: bigint | null = null;
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    const field = tag >>> 3;
    if (field === RESULT.status && (tag & 7) === WIRE_VARINT) status = reader.int32(bytes.length);
    else if (field === RESULT.consensusTimestamp && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      consensusNs = readTimestamp(name, reader.lengthDelimited(bytes.length));
    } else if (field === RESULT.parentConsensusTimestamp && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      parentConsensusNs = readTimestamp(name, reader.lengthDelimited(bytes.length));
    } else reader.skip(tag & 7, bytes.length);
  }
  return { status, consensusNs, parentConsensusNs };
}

/** The consensus time of a `StateChanges` (-1 when it has none). */
function stateChangesTime(name: string, bytes: Uint8Array): bigint {
  const reader = new WireReader(name, bytes, "StateChanges");
  while (reader.pos < bytes.length) {
    const tag = reader.tag(bytes.length);
    if (tag >>> 3 === STATE.changesConsensusTimestamp && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      return readTimestamp(name, reader.lengthDelimited(bytes.length));
    }
    reader.skip(tag & 7, bytes.length);
  }
  return -1n;
}

/** `SignedTransaction.body_bytes`; `TransactionBody.atomic_batch` (field 74) and its `transactions` (field 1). */
const SIGNED_BODY_BYTES = 1;
const ATOMIC_BATCH_FIELD = 74;
const ATOMIC_BATCH_TRANSACTIONS = 1;

/** An atomic batch's inner transactions (serialized `SignedTransaction`s), from a body known to hold one. */
function atomicBatchTransactions(body: Uint8Array): Uint8Array[] {
  const batch = lastField(body, ATOMIC_BATCH_FIELD, "TransactionBody") ?? new Uint8Array();
  const inner: Uint8Array[] = [];
  const reader = new WireReader("", batch, "AtomicBatchTransactionBody");
  while (reader.pos < batch.length) {
    const tag = reader.tag(batch.length);
    if (tag >>> 3 === ATOMIC_BATCH_TRANSACTIONS && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      inner.push(reader.lengthDelimited(batch.length));
    } else reader.skip(tag & 7, batch.length);
  }
  return inner;
}

/** A length-delimited field of a `SignedTransaction` (1 body_bytes, 2 sig_map), or null. */
export function signedTransactionField(signed: Uint8Array, field: number): Uint8Array | null {
  const reader = new WireReader("", signed, "SignedTransaction");
  try {
    while (reader.pos < signed.length) {
      const tag = reader.tag(signed.length);
      if (tag >>> 3 === field && (tag & 7) === WIRE_LENGTH_DELIMITED)
        return reader.lengthDelimited(signed.length);
      reader.skip(tag & 7, signed.length);
    }
  } catch {
    return null;
  }
  return null;
}

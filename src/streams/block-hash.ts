/**
 * The block root hash, as the mirror node importer recomputes it (its `BlockRootHashDigest` and
 * `IncrementalStreamingHasher`, after the consensus node): SHA-384 throughout, leaves prefixed 0x00, internal
 * nodes with two children 0x02, with one child 0x01.
 *
 * Items go into five streaming sub-trees by kind (consensus headers: event and round headers; inputs: signed
 * transactions; outputs: the block header, results and outputs; state changes; trace data). The root is
 *
 *   internal(leaf(block timestamp), single(internal⁸(previous block root, root of all previous block hashes,
 *            start-of-block state root, consensus headers, inputs, outputs, state changes, trace data)))
 *
 * where the eight values form a perfect binary tree and the last three come from the block footer.
 */
import { createHash, hash } from "node:crypto";

/**
 * A SHA-384 digest held as a 48-character latin1 string (one character per byte). Reading a block costs about
 * two hashes per item, and most of what a hash costs in Node is not the hashing: a digest returned as a Buffer
 * is a fresh ArrayBuffer that the garbage collector must track and free, while a short one-byte string is an
 * ordinary heap object. Strings cut the cost of a block's hashing by more than half; only the root becomes
 * bytes.
 */
export type Digest = string;

/** Node's name for latin1 among digest encodings. */
const LATIN1 = "binary";
const LEAF = 0;
const SINGLE_CHILD = 1;
const TWO_CHILDREN = 2;
const DIGEST_CHARS = 48;

/**
 * One-shot `crypto.hash` over one contiguous range costs a third of `createHash().update().update().digest()`,
 * so a leaf's prefix and item, and an internal node's prefix and children, are laid out in reusable scratch
 * buffers: copying a few hundred bytes is cheap next to hashing them. Anything larger than its scratch (a big
 * state change, an odd-sized footer value) is hashed in parts instead, so the scratch never grows.
 */
const LEAF_SCRATCH_BYTES = 64 * 1024;
const leafScratch = new Uint8Array(LEAF_SCRATCH_BYTES);
const NODE_SCRATCH_BYTES = 1 + 2 * DIGEST_CHARS;
const nodeScratch = Buffer.alloc(NODE_SCRATCH_BYTES);
// Plain Uint8Array views hash faster than a Buffer's subarray; the two usual sizes are made once.
const nodeBytes = new Uint8Array(nodeScratch.buffer, nodeScratch.byteOffset, NODE_SCRATCH_BYTES);
const singleChildBytes = nodeBytes.subarray(0, 1 + DIGEST_CHARS);

/** The root of a sub-tree with no leaves: SHA-384 of one zero byte. */
const EMPTY_TREE: Digest = hash("sha384", Uint8Array.of(LEAF), LATIN1);

export function hashLeaf(data: Uint8Array): Digest {
  if (data.length >= LEAF_SCRATCH_BYTES) {
    return createHash("sha384").update(Uint8Array.of(LEAF)).update(data).digest(LATIN1);
  }
  leafScratch[0] = LEAF;
  leafScratch.set(data, 1);
  return hash("sha384", leafScratch.subarray(0, data.length + 1), LATIN1);
}

export function hashInternal(left: Digest, right?: Digest): Digest {
  const prefix = right === undefined ? SINGLE_CHILD : TWO_CHILDREN;
  const size = 1 + left.length + (right?.length ?? 0);
  if (size > NODE_SCRATCH_BYTES) {
    const digest = createHash("sha384").update(Uint8Array.of(prefix)).update(left, "latin1");
    if (right !== undefined) digest.update(right, "latin1");
    return digest.digest(LATIN1);
  }
  nodeScratch[0] = prefix;
  nodeScratch.write(left, 1, "latin1");
  if (right !== undefined) nodeScratch.write(right, 1 + left.length, "latin1");
  const view =
    size === NODE_SCRATCH_BYTES
      ? nodeBytes
      : size === 1 + DIGEST_CHARS
        ? singleChildBytes
        : nodeBytes.subarray(0, size);
  return hash("sha384", view, LATIN1);
}

/** A Merkle tree built leaf by leaf keeping only the roots of its complete sub-trees (O(log n) memory). */
export class StreamingTreeHasher {
  private readonly pending: Digest[] = [];
  private leaves = 0;

  addLeaf(data: Uint8Array): void {
    this.pending.push(hashLeaf(data));
    // Each trailing one bit of the leaf count before this leaf is a pair of equal sub-trees to fold.
    for (let n = this.leaves; (n & 1) === 1; n >>>= 1) {
      const right = this.pending.pop()!;
      const left = this.pending.pop()!;
      this.pending.push(hashInternal(left, right));
    }
    this.leaves += 1;
  }

  root(): Digest {
    if (this.pending.length === 0) return EMPTY_TREE;
    let root = this.pending.at(-1)!;
    for (let i = this.pending.length - 2; i >= 0; i--) root = hashInternal(this.pending[i]!, root);
    return root;
  }
}

export type BlockTreeInputs = {
  /** The serialized `Timestamp` of the block header. */
  blockTimestampBytes: Uint8Array;
  /** The footer's three values, as read (48 bytes each, or empty when the footer leaves one out). */
  previousBlockRoot: Uint8Array;
  allPreviousBlocksRoot: Uint8Array;
  startOfBlockStateRoot: Uint8Array;
  consensusHeaders: Digest;
  inputs: Digest;
  outputs: Digest;
  stateChanges: Digest;
  traceData: Digest;
};

const asDigest = (bytes: Uint8Array): Digest =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");

/** Combines the footer values and sub-tree roots into the block root hash (48 bytes). */
export function blockRootHash(tree: BlockTreeInputs): Uint8Array {
  let level = [
    asDigest(tree.previousBlockRoot),
    asDigest(tree.allPreviousBlocksRoot),
    asDigest(tree.startOfBlockStateRoot),
    tree.consensusHeaders,
    tree.inputs,
    tree.outputs,
    tree.stateChanges,
    tree.traceData,
  ];
  while (level.length > 1) {
    const next: Digest[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(hashInternal(level[i]!, level[i + 1]!));
    level = next;
  }
  // The right child of the root has a single child: its other half is reserved for future use.
  const root = hashInternal(hashLeaf(tree.blockTimestampBytes), hashInternal(level[0]!));
  return new Uint8Array(Buffer.from(root, "latin1"));
}

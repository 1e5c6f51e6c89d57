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
import { createHash } from "node:crypto";

const LEAF = Uint8Array.of(0);
const SINGLE_CHILD = Uint8Array.of(1);
const TWO_CHILDREN = Uint8Array.of(2);
/** The root of a sub-tree with no leaves: SHA-384 of one zero byte. */
const EMPTY_TREE = sha384(LEAF);

function sha384(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash("sha384");
  for (const part of parts) hash.update(part);
  return hash.digest();
}

export function hashLeaf(data: Uint8Array): Uint8Array {
  return sha384(LEAF, data);
}

export function hashInternal(left: Uint8Array, right?: Uint8Array): Uint8Array {
  return right === undefined ? sha384(SINGLE_CHILD, left) : sha384(TWO_CHILDREN, left, right);
}

/** A Merkle tree built leaf by leaf keeping only the roots of its complete sub-trees (O(log n) memory). */
export class StreamingTreeHasher {
  private readonly pending: Uint8Array[] = [];
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

  root(): Uint8Array {
    if (this.pending.length === 0) return EMPTY_TREE;
    let root = this.pending.at(-1)!;
    for (let i = this.pending.length - 2; i >= 0; i--) root = hashInternal(this.pending[i]!, root);
    return root;
  }
}

export type BlockTreeInputs = {
  /** The serialized `Timestamp` of the block header. */
  blockTimestampBytes: Uint8Array;
  previousBlockRoot: Uint8Array;
  allPreviousBlocksRoot: Uint8Array;
  startOfBlockStateRoot: Uint8Array;
  consensusHeaders: Uint8Array;
  inputs: Uint8Array;
  outputs: Uint8Array;
  stateChanges: Uint8Array;
  traceData: Uint8Array;
};

/** Combines the footer values and sub-tree roots into the block root hash (48 bytes). */
export function blockRootHash(tree: BlockTreeInputs): Uint8Array {
  let level = [
    tree.previousBlockRoot,
    tree.allPreviousBlocksRoot,
    tree.startOfBlockStateRoot,
    tree.consensusHeaders,
    tree.inputs,
    tree.outputs,
    tree.stateChanges,
    tree.traceData,
  ];
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(hashInternal(level[i]!, level[i + 1]!));
    level = next;
  }
  // The right child of the root has a single child: its other half is reserved for future use.
  return hashInternal(hashLeaf(tree.blockTimestampBytes), hashInternal(level[0]!));
}
